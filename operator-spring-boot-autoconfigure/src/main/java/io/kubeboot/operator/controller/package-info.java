/**
 * Controllers: a reconciler, the kinds whose changes trigger it, and the work queue and
 * workers between them. Build one with
 * {@link io.kubeboot.operator.controller.ControllerBuilder} from
 * {@link io.kubeboot.operator.manager.Manager#newController}.
 */
@NullMarked
package io.kubeboot.operator.controller;

import org.jspecify.annotations.NullMarked;

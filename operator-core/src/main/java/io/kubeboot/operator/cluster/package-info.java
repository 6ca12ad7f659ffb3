/**
 * One operator, many clusters: a {@link io.kubeboot.operator.cluster.Fleet} engages the
 * clusters its {@link io.kubeboot.operator.cluster.ClusterProvider providers} name while
 * it runs, and runs each fleet controller in every engaged cluster, with that cluster's
 * caches and client; a cluster that cannot be reached or leaves stops nothing else.
 */
@NullMarked
package io.kubeboot.operator.cluster;

import org.jspecify.annotations.NullMarked;

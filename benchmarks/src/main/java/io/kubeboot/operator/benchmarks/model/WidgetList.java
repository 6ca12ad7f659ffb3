package io.kubeboot.operator.benchmarks.model;

import io.kubeboot.operator.model.CustomResourceList;

/**
 * A list of {@link Widget widgets}, as the API server returns it: the class that
 * client-java's {@code GenericKubernetesApi} needs in the baseline and raw programs (the
 * starter needs none).
 */
public class WidgetList extends CustomResourceList<Widget> {

}

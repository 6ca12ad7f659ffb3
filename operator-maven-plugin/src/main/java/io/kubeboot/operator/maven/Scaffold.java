package io.kubeboot.operator.maven;

import java.util.List;

/**
 * What a goal is about to do: the lines that explain its choices, the files, and what the
 * user does next.
 *
 * @param summary what the goal understood, defaults included, such as
 * {@code Database: shop.example.com/v1alpha1 (the group of Website), plural databases, Namespaced}
 * @param plan the files
 * @param next what to do once the files are written
 */
record Scaffold(List<String> summary, ScaffoldPlan plan, String next) {

}

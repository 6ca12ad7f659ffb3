/**
 * The application's own types that the documentation's examples use, such as
 * {@code StorageBucket} and {@code BucketStore}: just enough of them for
 * {@code DocsSnippetTests} to compile the examples.
 */
package io.kubeboot.operator.autoconfigure.docs.model;

package io.kubeboot.operator.autoconfigure.docs.model;

/**
 * What the object store posts when a bucket changed.
 *
 * @param bucket the name of the bucket
 */
public record BucketNotification(String bucket) {

}

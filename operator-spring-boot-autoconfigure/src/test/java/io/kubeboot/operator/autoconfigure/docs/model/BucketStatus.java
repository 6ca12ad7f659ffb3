package io.kubeboot.operator.autoconfigure.docs.model;

/**
 * The status of the two versions of the bucket of the conversion example.
 */
public class BucketStatus {

}

package io.kubeboot.operator.webhook;

import io.kubernetes.client.common.KubernetesObject;

/**
 * A version of a custom resource that converts to and from the hub version, the
 * counterpart of controller-runtime's {@code conversion.Convertible}: implemented by the
 * model class of each spoke version, the hub being a plain model class (usually the
 * storage version's). Every conversion goes through the hub, so each spoke knows the hub
 * only, never the other spokes (see {@link Conversion}).
 *
 * <pre class="code">
 * &#64;KubernetesKind(group = "storage.example.com", version = "v1alpha1", kind = "StorageBucket")
 * public class StorageBucketV1alpha1 extends CustomResource&lt;SpecV1alpha1, Status&gt;
 * 		implements Convertible&lt;StorageBucket&gt; {
 *
 * 	public void convertTo(StorageBucket hub) {
 * 		hub.setSpec(new StorageBucketSpec(getSpec().sizeInGi() + "Gi"));
 * 		hub.setStatus(getStatus());
 * 	}
 *
 * 	public void convertFrom(StorageBucket hub) throws ConversionException {
 * 		String size = hub.getSpec().size();
 * 		if (!size.matches("[0-9]+Gi")) {
 * 			throw new ConversionException("spec.size " + size + " is not a whole number of Gi");
 * 		}
 * 		setSpec(new SpecV1alpha1(Integer.parseInt(size.substring(0, size.length() - 2))));
 * 		setStatus(hub.getStatus());
 * 	}
 *
 * }
 * </pre>
 *
 * The hub given to {@code convertTo}, like the object {@code convertFrom} is called on,
 * comes with its {@code apiVersion}, {@code kind} and {@code metadata} set (the metadata
 * copied from the object converted): the methods fill the rest. The API server keeps the
 * metadata of the object it sent whatever the conversion does, except labels and
 * annotations, which a conversion may change (to keep fields that the other version has
 * no place for, for example). Conversions run on the webhook server's threads with a
 * deadline, must be thread-safe and should not call the API server.
 *
 * @param <H> the model type of the hub version
 */
public interface Convertible<H extends KubernetesObject> extends KubernetesObject {

	/**
	 * Fills the hub from this object.
	 * @param hub the hub to fill, its metadata already copied from this object
	 * @throws ConversionException if this object cannot be expressed in the hub version;
	 * the API server fails the request with the message
	 * @throws Exception if the conversion fails otherwise (counted as a panic of the
	 * webhook)
	 */
	void convertTo(H hub) throws Exception;

	/**
	 * Fills this object from the hub.
	 * @param hub the hub to read, not to change
	 * @throws ConversionException if the hub cannot be expressed in this version; the API
	 * server fails the request with the message
	 * @throws Exception if the conversion fails otherwise (counted as a panic of the
	 * webhook)
	 */
	void convertFrom(H hub) throws Exception;

}

package io.kubeboot.operator.events;

import java.time.OffsetDateTime;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * Where {@link KubernetesEventRecorder} writes Events: the API server, or a fake in
 * tests. Called by the thread writing events only (the one running the recorder, or the
 * one flushing it if it never ran).
 */
interface EventSink {

	/**
	 * Returns the {@code apiVersion} of objects of a model class that did not carry one.
	 * @param type the model class
	 * @return the apiVersion, such as {@code v1} or {@code apps/v1}
	 * @throws ApiException if the API server's discovery had to be asked and failed
	 * @throws IllegalArgumentException if the class declares no kind
	 */
	String apiVersionOf(Class<? extends KubernetesObject> type) throws ApiException;

	/**
	 * Creates an Event.
	 * @param namespace the Event's namespace
	 * @param event the Event
	 * @return the created Event
	 * @throws ApiException if the API server refused it or could not be reached
	 */
	CoreV1Event create(String namespace, CoreV1Event event) throws ApiException;

	/**
	 * Sets the {@code count} and {@code lastTimestamp} of an existing Event.
	 * @param namespace the Event's namespace
	 * @param name the Event's name
	 * @param count the new count
	 * @param lastTimestamp the new last timestamp
	 * @throws ApiException if the API server refused it (404 when the Event expired) or
	 * could not be reached
	 */
	void patch(String namespace, String name, int count, OffsetDateTime lastTimestamp) throws ApiException;

}

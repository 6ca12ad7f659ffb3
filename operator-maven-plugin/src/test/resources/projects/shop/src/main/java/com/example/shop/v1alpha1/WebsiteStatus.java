package com.example.shop.v1alpha1;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.model.Conditions;
import io.kubeboot.operator.model.ListType;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * What the operator observed, written through the status subresource.
 */
public class WebsiteStatus {

	/**
	 * The condition type telling whether the resource's ConfigMap is up to date.
	 */
	public static final String READY = "Ready";

	@PositiveOrZero
	private Long observedGeneration;

	private String configMapName;

	// one condition per type (x-kubernetes-list-type: map)
	@ListType(value = ListType.Type.MAP, mapKeys = "type")
	private List<Condition> conditions = new ArrayList<>();

	/**
	 * The {@code metadata.generation} of the spec this status describes.
	 * @return the observed generation, or {@code null}
	 */
	public Long getObservedGeneration() {
		return this.observedGeneration;
	}

	public WebsiteStatus observedGeneration(Long observedGeneration) {
		this.observedGeneration = observedGeneration;
		return this;
	}

	/**
	 * The name of the ConfigMap that holds the data.
	 * @return the ConfigMap's name, or {@code null}
	 */
	public String getConfigMapName() {
		return this.configMapName;
	}

	public WebsiteStatus configMapName(String configMapName) {
		this.configMapName = configMapName;
		return this;
	}

	/**
	 * The latest observations, one per condition type.
	 * @return the conditions, never {@code null}
	 */
	public List<Condition> getConditions() {
		return (this.conditions != null) ? this.conditions : List.of();
	}

	public WebsiteStatus conditions(List<Condition> conditions) {
		this.conditions = conditions;
		return this;
	}

	/**
	 * Returns the condition of a type.
	 * @param type the condition type, such as {@code Ready}
	 * @return the condition, or empty if there is none of that type
	 */
	public Optional<Condition> condition(String type) {
		return Conditions.find(getConditions(), type);
	}

}

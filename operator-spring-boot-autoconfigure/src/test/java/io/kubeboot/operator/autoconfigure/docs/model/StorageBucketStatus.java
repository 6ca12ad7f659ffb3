package io.kubeboot.operator.autoconfigure.docs.model;

import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.model.Condition;
import io.kubeboot.operator.model.ListType;

/**
 * The status of a {@link StorageBucket}.
 */
public class StorageBucketStatus {

	@ListType(value = ListType.Type.MAP, mapKeys = "type")
	private List<Condition> conditions = new ArrayList<>();

	public List<Condition> getConditions() {
		return this.conditions;
	}

	public StorageBucketStatus conditions(List<Condition> conditions) {
		this.conditions = conditions;
		return this;
	}

}

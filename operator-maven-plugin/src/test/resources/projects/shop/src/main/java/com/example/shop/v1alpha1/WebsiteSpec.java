package com.example.shop.v1alpha1;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.validation.constraints.Size;

/**
 * What the user asks for: the entries of the ConfigMap the operator keeps.
 */
public class WebsiteSpec {

	// the API server refuses a spec with more entries (maxProperties in the CRD's schema)
	@Size(max = 100)
	private Map<String, String> data = new LinkedHashMap<>();

	/**
	 * The key-value pairs to keep in the ConfigMap, at most 100.
	 * @return the entries, never {@code null}
	 */
	public Map<String, String> getData() {
		return (this.data != null) ? this.data : Map.of();
	}

	public WebsiteSpec data(Map<String, String> data) {
		this.data = data;
		return this;
	}

	public WebsiteSpec putDataItem(String key, String value) {
		if (this.data == null) {
			this.data = new LinkedHashMap<>();
		}
		this.data.put(key, value);
		return this;
	}

}

package com.example.shop.v1alpha1;

/**
 * What the user asks of a shelf.
 */
public class ShelfSpec {

	private int size;

	/**
	 * How many items the shelf holds.
	 * @return the size
	 */
	public int getSize() {
		return this.size;
	}

	public ShelfSpec size(int size) {
		this.size = size;
		return this;
	}

}

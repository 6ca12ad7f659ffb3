package com.example.shop.api;

/**
 * The coordinates the shop's kinds share, in one place.
 */
public final class ShopApi {

	/**
	 * The domain the shop owns.
	 */
	public static final String DOMAIN = "example.com";

	/**
	 * The API group of every kind of the shop.
	 */
	public static final String GROUP = "shop." + DOMAIN;

	/**
	 * The version of every kind of the shop.
	 */
	public static final String VERSION = "v1alpha1";

	private ShopApi() {
	}

}

package com.example.shop.v1alpha1;

import com.example.shop.api.ShopApi;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.KubernetesKind;

import static com.example.shop.api.ShopApi.VERSION;

/**
 * A shelf of the shop, shared by every namespace.
 */
@KubernetesKind(group = ShopApi.GROUP, version = VERSION, kind = Shelf.KIND, plural = "shel" + "ves",
		scope = KubernetesKind.Scope.CLUSTER)
public class Shelf extends CustomResource<ShelfSpec, WebsiteStatus> {

	static final String KIND = "Shelf";

}

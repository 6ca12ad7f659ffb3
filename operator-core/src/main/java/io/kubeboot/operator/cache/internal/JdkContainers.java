package io.kubeboot.operator.cache.internal;

import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.kubeboot.operator.cache.internal.HeapEstimator.Fields;
import io.kubeboot.operator.cache.internal.HeapEstimator.Shape;

/**
 * How {@link HeapEstimator} reads the JDK's maps and collections, whose fields are closed
 * to reflection: through their public methods, their size and elements, with the layout
 * of their implementation in HotSpot's JDK. A {@code HashMap}'s table is counted as grown
 * entry by entry (as JSON parsing fills it) with a node per entry, {@code Map.of}'s as an
 * array of two slots per key and value, an {@code ArrayList}'s array as grown by halves
 * from 10; an unknown map counts as a {@code HashMap}, an unknown collection as an
 * {@code ArrayList}.
 */
final class JdkContainers {

	/**
	 * The JDK's immutable maps and collections, of {@code Map.of} and {@code List.of}.
	 */
	private static final String IMMUTABLE = "java.util.ImmutableCollections$";

	private static final Fields HASH_MAP = Fields.of(HashMap.class);

	private JdkContainers() {
	}

	/**
	 * Returns how a JDK map or collection is read.
	 * @param type a class implementing {@link Map} or {@link Collection}
	 * @param own the fields of the class itself
	 * @return the shape
	 */
	static Shape of(Class<?> type, Fields own) {
		String name = type.getName();
		boolean immutable = name.startsWith(IMMUTABLE);
		if (Map.class.isAssignableFrom(type)) {
			if (immutable) {
				// MapN: keys and values side by side in an array of twice as many pairs
				// as
				// entries; Map1: two fields
				return new MapShape(own, immutable, name.endsWith("MapN") ? Table.FOUR_SLOTS : Table.NONE, 0, 0);
			}
			if (TreeMap.class.isAssignableFrom(type)) {
				// key, value, left, right, parent, color
				return new MapShape(own, false, Table.NONE, 1, 5);
			}
			if (LinkedHashMap.class.isAssignableFrom(type)) {
				// hash, key, value, next, before, after
				return new MapShape(own, false, Table.HASHED, 4, 5);
			}
			// HashMap, ConcurrentHashMap and unknown maps: hash, key, value, next
			return new MapShape(own, false, Table.HASHED, 4, 3);
		}
		if (name.startsWith(IMMUTABLE + "List12") || name.startsWith(IMMUTABLE + "Set12")) {
			return new CollectionShape(own, true, Elements.FIELDS);
		}
		if (name.startsWith(IMMUTABLE + "SetN")) {
			return new CollectionShape(own, true, Elements.DOUBLE_ARRAY);
		}
		if (immutable) {
			return new CollectionShape(own, true, Elements.EXACT_ARRAY);
		}
		if (LinkedList.class.isAssignableFrom(type)) {
			return new CollectionShape(own, false, Elements.LINKED);
		}
		if (Set.class.isAssignableFrom(type)) {
			// a HashSet is a HashMap of the elements to one shared value
			return new CollectionShape(own, false, Elements.HASHED);
		}
		return new CollectionShape(own, false, Elements.GROWN_ARRAY);
	}

	/**
	 * The table of a {@code HashMap} filled entry by entry: 16 slots, doubled each time
	 * it is three quarters full.
	 */
	static int hashTableCapacity(int size) {
		int capacity = 16;
		while (size > capacity * 3 / 4) {
			capacity *= 2;
		}
		return capacity;
	}

	/**
	 * The array of an {@code ArrayList} filled element by element: 10 slots, grown by
	 * half each time it is full.
	 */
	private static int grownCapacity(int size) {
		int capacity = 10;
		while (capacity < size) {
			capacity += capacity >> 1;
		}
		return capacity;
	}

	private static void push(Object element, Deque<Object> pending) {
		if (element != null) {
			pending.push(element);
		}
	}

	private enum Table {

		NONE, HASHED, FOUR_SLOTS

	}

	private enum Elements {

		FIELDS, EXACT_ARRAY, DOUBLE_ARRAY, LINKED, HASHED, GROWN_ARRAY

	}

	/**
	 * A map: its own fields, its table, an entry object per entry (of the given primitive
	 * bytes and references, none for maps without entry objects), and its keys and
	 * values.
	 */
	private record MapShape(Fields own, boolean immutable, Table table, int entryPrimitives,
			int entryReferences) implements Shape {

		@Override
		public long visit(Object object, ObjectLayout layout, Deque<Object> pending) {
			int size = 0;
			for (Map.Entry<?, ?> entry : ((Map<?, ?>) object).entrySet()) {
				push(entry.getKey(), pending);
				push(entry.getValue(), pending);
				size++;
			}
			if (size == 0 && this.immutable) {
				return 0; // Map.of(): one shared instance
			}
			long table = switch (this.table) {
				case NONE -> 0;
				case HASHED -> (size > 0) ? layout.references(hashTableCapacity(size)) : 0;
				case FOUR_SLOTS -> layout.references(4L * size);
			};
			long entries = (this.entryReferences > 0)
					? size * layout.instance(this.entryPrimitives + (long) this.entryReferences * layout.reference())
					: 0;
			return this.own.bytes(layout) + table + entries;
		}

	}

	/**
	 * A collection: its own fields, its array or nodes, and its elements.
	 */
	private record CollectionShape(Fields own, boolean immutable, Elements elements) implements Shape {

		@Override
		public long visit(Object object, ObjectLayout layout, Deque<Object> pending) {
			int size = 0;
			for (Object element : (Collection<?>) object) {
				push(element, pending);
				size++;
			}
			if (size == 0 && this.immutable) {
				return 0; // List.of(), Set.of(): one shared instance each
			}
			int reference = layout.reference();
			long elements = switch (this.elements) {
				case FIELDS -> 0;
				case EXACT_ARRAY -> layout.references(size);
				case DOUBLE_ARRAY -> layout.references(2L * size);
				case LINKED -> size * layout.instance(3L * reference);
				case HASHED -> HASH_MAP.bytes(layout) + ((size > 0)
						? layout.references(hashTableCapacity(size)) + size * layout.instance(4 + 3L * reference) : 0);
				case GROWN_ARRAY -> (size > 0) ? layout.references(grownCapacity(size)) : 0;
			};
			return this.own.bytes(layout) + elements;
		}

	}

}

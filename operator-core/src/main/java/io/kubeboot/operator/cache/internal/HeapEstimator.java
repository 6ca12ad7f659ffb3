package io.kubeboot.operator.cache.internal;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.AbstractCollection;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractQueue;
import java.util.AbstractSequentialList;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.jspecify.annotations.Nullable;

/**
 * Estimates the heap an object and everything it references take on this JVM, from
 * HotSpot's object layout: a header per object, each field of its type's size,
 * references of 4 bytes with compressed oops (8 without), every object padded to 8
 * bytes. Model classes, client-java's and the application's, are read field by field
 * through reflection; the JDK's own classes, whose fields are closed to reflection, by
 * what their public methods tell: a string's length and characters, a map's or a
 * collection's size and elements, an array's length. An object reached twice within one
 * estimate is counted once; a string that the cache shares between objects
 * ({@link MetadataDeduplicator}), an enum constant and a small boxed number, which the JVM
 * shares, not at all.
 * <p>
 * An estimate, not a measurement: a JDK map's or list's spare capacity is what it grows
 * to when filled one entry at a time (as JSON parsing fills it), the gaps HotSpot leaves
 * between fields are ignored, and an object that several cached objects share, other
 * than those above, is counted with each. Thread-safe.
 */
final class HeapEstimator {

	/** The JDK's immutable maps and collections, of {@code Map.of} and {@code List.of}. */
	private static final String IMMUTABLE = "java.util.ImmutableCollections$";

	/** The most objects one estimate visits; a cached object's graph is far smaller. */
	private static final int MAX_VISITS = 1_000_000;

	/**
	 * JDK classes that hold no elements of their own: a model class extending only these
	 * keeps its elements in fields reflection reads.
	 */
	private static final Set<Class<?>> SKELETONS = Set.of(Object.class, AbstractMap.class, AbstractCollection.class,
			AbstractList.class, AbstractSet.class, AbstractSequentialList.class, AbstractQueue.class, Number.class,
			Record.class);

	private final Layout layout;

	private final Predicate<String> shared;

	/**
	 * How each class is read. A shape references nothing of this estimator, the layout
	 * aside: the class would keep the estimator reachable for as long as it is loaded.
	 */
	private final ClassValue<Shape> shapes = new ClassValue<>() {

		@Override
		protected Shape computeValue(Class<?> type) {
			return shapeOf(type);
		}

	};

	/** What an informer's store adds per object: a map entry and its share of the table. */
	private final long storeEntryBytes;

	/** A string without its characters. */
	private final long stringBytes;

	/**
	 * Creates an estimator.
	 * @param layout the object layout of the JVM
	 * @param shared tells the strings shared between cached objects, counted as free
	 */
	HeapEstimator(Layout layout, Predicate<String> shared) {
		this.layout = layout;
		this.shared = shared;
		// a ConcurrentHashMap node (hash, key, value, next) and about two table slots:
		// the table is between 3/8 and 3/4 full
		this.storeEntryBytes = layout.instance(4 + 3L * layout.reference()) + 2L * layout.reference();
		this.stringBytes = layout.shallow(String.class);
	}

	/**
	 * Returns what an informer's store adds to each object it holds.
	 * @return the bytes per object
	 */
	long storeEntryBytes() {
		return this.storeEntryBytes;
	}

	/**
	 * Estimates the heap an object takes with everything it references.
	 * @param root the object
	 * @return the estimated bytes
	 */
	long estimate(Object root) {
		Map<Object, Boolean> seen = new IdentityHashMap<>();
		Deque<Object> pending = new ArrayDeque<>();
		pending.push(root);
		long bytes = 0;
		int visits = 0;
		while (!pending.isEmpty() && visits++ < MAX_VISITS) {
			Object object = pending.pop();
			if (seen.put(object, Boolean.TRUE) == null) {
				bytes += visit(object, pending);
			}
		}
		return bytes;
	}

	private long visit(Object object, Deque<Object> pending) {
		if (object instanceof String string) {
			return this.shared.test(string) ? 0 : string(string);
		}
		Class<?> type = object.getClass();
		if (type.isArray()) {
			return array(object, type.getComponentType(), pending);
		}
		return this.shapes.get(type).visit(object, pending);
	}

	/**
	 * Returns the bytes of a string: the object and its array, of one byte a character if
	 * every character is Latin-1, two otherwise.
	 */
	private long string(String string) {
		int length = string.length();
		int perCharacter = 1;
		for (int i = 0; i < length; i++) {
			if (string.charAt(i) > 0xFF) {
				perCharacter = 2;
				break;
			}
		}
		return this.stringBytes + this.layout.array((long) length * perCharacter, 1);
	}

	private long array(Object array, Class<?> component, Deque<Object> pending) {
		if (component.isPrimitive()) {
			return this.layout.array(Array.getLength(array), Layout.size(component));
		}
		Object[] elements = (Object[]) array;
		for (Object element : elements) {
			if (element != null) {
				pending.push(element);
			}
		}
		return this.layout.array(elements.length, this.layout.reference());
	}

	private Shape shapeOf(Class<?> type) {
		long shallow = this.layout.shallow(type);
		if (type.isEnum() || Enum.class.isAssignableFrom(type) || type == Class.class || type == Boolean.class
				|| type.getName().startsWith("java.util.Collections$Empty")) {
			return Shape.FREE;
		}
		if (type == Integer.class || type == Long.class || type == Short.class || type == Byte.class
				|| type == Character.class) {
			return new Boxed(shallow);
		}
		if (keepsElementsInTheJdk(type)) {
			if (Map.class.isAssignableFrom(type)) {
				return new JdkMap(this.layout, type, shallow);
			}
			if (Collection.class.isAssignableFrom(type)) {
				return new JdkCollection(this.layout, type, shallow);
			}
		}
		if (type.getModule().isNamed()) {
			return new Fixed(shallow + this.layout.partsOf(type));
		}
		List<Field> references = new ArrayList<>();
		for (Class<?> declaring = type; declaring != null; declaring = declaring.getSuperclass()) {
			if (declaring.getModule().isNamed()) {
				// the JDK's fields of a model class's superclass, such as AbstractMap's
				// views: counted in its size, not followed
				continue;
			}
			for (Field field : declaring.getDeclaredFields()) {
				if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()) {
					try {
						field.setAccessible(true);
					}
					catch (RuntimeException ex) {
						return new Fixed(shallow);
					}
					references.add(field);
				}
			}
		}
		return new Reflected(shallow, references.toArray(Field[]::new));
	}

	/**
	 * Whether a map or collection keeps its elements in fields reflection cannot read:
	 * a JDK class, or a model class extending one that stores elements.
	 */
	private static boolean keepsElementsInTheJdk(Class<?> type) {
		for (Class<?> declaring = type; declaring != null; declaring = declaring.getSuperclass()) {
			if (declaring.getModule().isNamed() && !SKELETONS.contains(declaring)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * How the estimate reads one class's instances.
	 */
	private interface Shape {

		/** Enum constants, classes and booleans: shared by everything. */
		Shape FREE = (object, pending) -> 0;

		/**
		 * Returns an instance's own bytes, pushing what it references.
		 * @param object the instance
		 * @param pending where to push the objects it references
		 * @return its own bytes
		 */
		long visit(Object object, Deque<Object> pending);

	}

	/**
	 * A class of its own size, without references the estimate follows: a JDK class
	 * other than a map or a collection, such as {@code BigDecimal}.
	 */
	private record Fixed(long bytes) implements Shape {

		@Override
		public long visit(Object object, Deque<Object> pending) {
			return this.bytes;
		}

	}

	/**
	 * A boxed integral number: the JVM shares those from -128 to 127, as JSON parsing
	 * boxes them with {@code valueOf}.
	 */
	private record Boxed(long bytes) implements Shape {

		@Override
		public long visit(Object object, Deque<Object> pending) {
			long value = (object instanceof Character character) ? character : ((Number) object).longValue();
			return (value >= -128 && value <= 127) ? 0 : this.bytes;
		}

	}

	/**
	 * A class read field by field.
	 */
	private record Reflected(long bytes, Field[] references) implements Shape {

		@Override
		public long visit(Object object, Deque<Object> pending) {
			for (Field field : this.references) {
				try {
					Object value = field.get(object);
					if (value != null) {
						pending.push(value);
					}
				}
				catch (IllegalAccessException | RuntimeException ex) {
					// not readable after all: its size counts, not what it references
				}
			}
			return this.bytes;
		}

	}

	/**
	 * A JDK map: its own fields, its table and entries as HotSpot's {@code HashMap},
	 * {@code LinkedHashMap}, {@code TreeMap}, {@code ConcurrentHashMap} or the immutable
	 * maps of {@code Map.of} lay them out (an unknown one as a {@code HashMap}), and its
	 * keys and values.
	 */
	private static final class JdkMap implements Shape {

		private final Layout layout;

		private final long bytes;

		/** The bytes of one entry object, zero for maps without entry objects. */
		private final long entry;

		/**
		 * Table slots per entry: zero for a hash table sized by its load factor, below
		 * zero for no table.
		 */
		private final int slotsPerEntry;

		private final boolean immutable;

		JdkMap(Layout layout, Class<?> type, long bytes) {
			this.layout = layout;
			this.bytes = bytes;
			String name = type.getName();
			this.immutable = name.startsWith(IMMUTABLE);
			if (this.immutable) {
				// MapN: keys and values side by side in an array of twice as many pairs
				// as entries; Map1: two fields
				this.entry = 0;
				this.slotsPerEntry = name.endsWith("MapN") ? 4 : -1;
			}
			else if (TreeMap.class.isAssignableFrom(type)) {
				this.entry = layout.instance(5L * layout.reference() + 1);
				this.slotsPerEntry = -1;
			}
			else if (LinkedHashMap.class.isAssignableFrom(type)) {
				this.entry = layout.instance(4 + 5L * layout.reference());
				this.slotsPerEntry = 0;
			}
			else {
				// HashMap, ConcurrentHashMap and unknown maps: hash, key, value, next
				this.entry = layout.instance(4 + 3L * layout.reference());
				this.slotsPerEntry = 0;
			}
		}

		@Override
		public long visit(Object object, Deque<Object> pending) {
			Map<?, ?> map = (Map<?, ?>) object;
			int size = 0;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				push(entry.getKey(), pending);
				push(entry.getValue(), pending);
				size++;
			}
			if (size == 0 && this.immutable) {
				return 0; // Map.of(): one shared instance
			}
			Layout layout = this.layout;
			long table = 0;
			if (this.slotsPerEntry > 0) {
				table = layout.array(this.slotsPerEntry * size, layout.reference());
			}
			else if (this.slotsPerEntry == 0 && size > 0) {
				table = layout.array(hashTableCapacity(size), layout.reference());
			}
			return this.bytes + table + size * this.entry;
		}

		/**
		 * The table of a {@code HashMap} filled entry by entry: 16 slots, doubled each
		 * time it is three quarters full.
		 */
		private static int hashTableCapacity(int size) {
			int capacity = 16;
			while (size > capacity * 3 / 4) {
				capacity *= 2;
			}
			return capacity;
		}

	}

	/**
	 * A JDK collection: its own fields, its array or nodes as HotSpot's
	 * {@code ArrayList}, {@code LinkedList}, {@code HashSet} or the immutable lists and
	 * sets of {@code List.of} lay them out (an unknown one as an {@code ArrayList}), and
	 * its elements.
	 */
	private static final class JdkCollection implements Shape {

		private final Layout layout;

		private final long bytes;

		private final Kind kind;

		private final boolean immutable;

		JdkCollection(Layout layout, Class<?> type, long bytes) {
			this.layout = layout;
			String name = type.getName();
			this.immutable = name.startsWith(IMMUTABLE);
			if (name.startsWith(IMMUTABLE + "List12") || name.startsWith(IMMUTABLE + "Set12")) {
				this.kind = Kind.FIELDS;
			}
			else if (name.startsWith(IMMUTABLE + "SetN")) {
				this.kind = Kind.DOUBLE_ARRAY;
			}
			else if (name.startsWith(IMMUTABLE + "ListN")) {
				this.kind = Kind.EXACT_ARRAY;
			}
			else if (LinkedList.class.isAssignableFrom(type)) {
				this.kind = Kind.LINKED;
			}
			else if (Set.class.isAssignableFrom(type)) {
				// a HashSet is a HashMap of the elements to one shared value
				this.kind = Kind.HASHED;
			}
			else {
				this.kind = Kind.GROWN_ARRAY;
			}
			this.bytes = (this.kind == Kind.HASHED) ? bytes + layout.shallow(HashMap.class) : bytes;
		}

		@Override
		public long visit(Object object, Deque<Object> pending) {
			int size = 0;
			for (Object element : (Collection<?>) object) {
				push(element, pending);
				size++;
			}
			if (size == 0 && this.immutable) {
				return 0; // List.of(), Set.of(): one shared instance each
			}
			Layout layout = this.layout;
			int reference = layout.reference();
			long elements = switch (this.kind) {
				case FIELDS -> 0;
				case EXACT_ARRAY -> layout.array(size, reference);
				case DOUBLE_ARRAY -> layout.array(2 * size, reference);
				case LINKED -> size * layout.instance(3L * reference);
				case HASHED -> (size > 0) ? layout.array(JdkMap.hashTableCapacity(size), reference)
						+ size * layout.instance(4 + 3L * reference) : 0;
				case GROWN_ARRAY -> (size > 0) ? layout.array(grownCapacity(size), reference) : 0;
			};
			return this.bytes + elements;
		}

		/**
		 * The array of an {@code ArrayList} filled element by element: 10 slots, grown
		 * by half each time it is full.
		 */
		private static int grownCapacity(int size) {
			int capacity = 10;
			while (capacity < size) {
				capacity += capacity >> 1;
			}
			return capacity;
		}

		private enum Kind {

			FIELDS, EXACT_ARRAY, DOUBLE_ARRAY, LINKED, HASHED, GROWN_ARRAY

		}

	}

	private static void push(@Nullable Object object, Deque<Object> pending) {
		if (object != null) {
			pending.push(object);
		}
	}

	/**
	 * HotSpot's object layout: the size of an object header and of a reference, every
	 * object padded to 8 bytes, an array's header its object header and a 4-byte length.
	 *
	 * @param header the bytes of an object header: 12 with compressed class pointers (the
	 * default), 16 without, 8 with compact object headers
	 * @param reference the bytes of a reference: 4 with compressed oops (the default
	 * below 32 GB of heap), 8 without
	 */
	record Layout(int header, int reference) {

		/** The layout of a 64-bit HotSpot JVM with its defaults. */
		static final Layout DEFAULT = new Layout(12, 4);

		/**
		 * Returns this JVM's layout, read from its options; {@link #DEFAULT} where they
		 * cannot be read.
		 * @return the layout
		 */
		static Layout current() {
			try {
				HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
				boolean compressedOops = enabled(hotSpot, "UseCompressedOops", true);
				boolean compressedClasses = enabled(hotSpot, "UseCompressedClassPointers", true);
				boolean compactHeaders = enabled(hotSpot, "UseCompactObjectHeaders", false);
				int header = compactHeaders ? 8 : (compressedClasses ? 12 : 16);
				return new Layout(header, compressedOops ? 4 : 8);
			}
			catch (RuntimeException | LinkageError ex) {
				// no HotSpot, or no jdk.management module: the common case
				return DEFAULT;
			}
		}

		private static boolean enabled(HotSpotDiagnosticMXBean hotSpot, String option, boolean otherwise) {
			try {
				return Boolean.parseBoolean(hotSpot.getVMOption(option).getValue());
			}
			catch (IllegalArgumentException ex) {
				// an option this JVM does not know, such as compact headers before JDK 24
				return otherwise;
			}
		}

		/**
		 * Returns the bytes of an object with fields of the given bytes.
		 * @param fields the bytes of its fields
		 * @return the bytes, header and padding included
		 */
		long instance(long fields) {
			return align(this.header + fields);
		}

		/**
		 * Returns the bytes of an instance of a class, without what it references.
		 * @param type the class
		 * @return the bytes
		 */
		long shallow(Class<?> type) {
			long fields = 0;
			for (Class<?> declaring = type; declaring != null; declaring = declaring.getSuperclass()) {
				for (Field field : declaring.getDeclaredFields()) {
					if (!Modifier.isStatic(field.getModifiers())) {
						fields += field.getType().isPrimitive() ? size(field.getType()) : this.reference;
					}
				}
			}
			return instance(fields);
		}

		/**
		 * Returns the bytes of an array.
		 * @param length its length
		 * @param element the bytes of an element
		 * @return the bytes
		 */
		long array(long length, int element) {
			long base = this.header + 4;
			base = (base + element - 1) / element * element;
			return align(base + length * element);
		}

		/**
		 * Returns the bytes of the objects a JDK value holds privately, for the
		 * date-times client-java parses timestamps into: an {@code OffsetDateTime} is a
		 * {@code LocalDateTime}, which is a {@code LocalDate} and a {@code LocalTime}, and
		 * a shared offset.
		 * @param type the class
		 * @return the bytes beyond its own
		 */
		long partsOf(Class<?> type) {
			long dateTime = shallow(LocalDateTime.class) + shallow(LocalDate.class) + shallow(LocalTime.class);
			if (type == OffsetDateTime.class || type == ZonedDateTime.class) {
				return dateTime;
			}
			if (type == LocalDateTime.class) {
				return dateTime - shallow(LocalDateTime.class);
			}
			return 0;
		}

		private long align(long bytes) {
			return (bytes + 7) & ~7L;
		}

		static int size(Class<?> primitive) {
			if (primitive == long.class || primitive == double.class) {
				return 8;
			}
			if (primitive == int.class || primitive == float.class) {
				return 4;
			}
			if (primitive == short.class || primitive == char.class) {
				return 2;
			}
			return 1;
		}

	}

}

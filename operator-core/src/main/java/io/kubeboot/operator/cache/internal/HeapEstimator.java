package io.kubeboot.operator.cache.internal;

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
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Estimates the heap objects take on this JVM with everything they reference, from
 * HotSpot's object layout ({@link ObjectLayout}). Classes whose package is open to this
 * one (those of the class path and of automatic modules: client-java's models, the
 * application's, Gson's maps) are read field by field through reflection. The JDK's own
 * classes, closed to reflection by default, are read through their public methods, as are
 * maps and collections of other modules closed to it: a string's length and characters, a
 * map's or collection's size and elements ({@link JdkContainers}), an array's length;
 * other closed classes count their own fields, the date-times client-java parses
 * timestamps into with the objects they hold. Enum constants, booleans, classes, boxed
 * integers from -128 to 127 and empty immutable collections, which the JVM shares, count
 * nothing.
 * <p>
 * A {@link Walk} estimates one or several objects: an object reached twice within it
 * counts once. It visits at most a given number of objects, so that its cost is bounded
 * whatever the objects hold. Thread-safe; a walk is not.
 */
final class HeapEstimator {

	/**
	 * JDK classes that hold no elements of their own: a class extending only these keeps
	 * its elements in fields that reflection reads.
	 */
	private static final Set<Class<?>> SKELETONS = Set.of(Object.class, AbstractMap.class, AbstractCollection.class,
			AbstractList.class, AbstractSet.class, AbstractSequentialList.class, AbstractQueue.class, Number.class,
			Record.class);

	/** How each class is read; of no layout, so one for the JVM. */
	private static final ClassValue<Shape> SHAPES = new ClassValue<>() {

		@Override
		protected Shape computeValue(Class<?> type) {
			return shapeOf(type);
		}

	};

	private final ObjectLayout layout;

	/**
	 * Creates an estimator.
	 * @param layout the object layout of the JVM
	 */
	HeapEstimator(ObjectLayout layout) {
		this.layout = layout;
	}

	ObjectLayout layout() {
		return this.layout;
	}

	/**
	 * Starts a walk.
	 * @param maxVisits the most objects it visits
	 * @return the walk
	 */
	Walk walk(int maxVisits) {
		return new Walk(maxVisits);
	}

	private static Shape shapeOf(Class<?> type) {
		if (type.isEnum() || Enum.class.isAssignableFrom(type) || type == Class.class || type == Boolean.class
				|| type.getName().startsWith("java.util.Collections$Empty")) {
			return Shape.FREE;
		}
		Fields own = Fields.of(type);
		if (type == Integer.class || type == Long.class || type == Short.class || type == Byte.class
				|| type == Character.class) {
			return new Boxed(own);
		}
		if ((Map.class.isAssignableFrom(type) || Collection.class.isAssignableFrom(type))
				&& (keepsElementsInTheJdk(type) || !readable(type))) {
			return JdkContainers.of(type, own);
		}
		if (jdk(type) || !readable(type)) {
			return new Fixed(own.plus(partsOf(type)));
		}
		List<Field> references = new ArrayList<>();
		for (Class<?> declaring = type; declaring != null; declaring = declaring.getSuperclass()) {
			if (jdk(declaring)) {
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
						return new Fixed(own);
					}
					references.add(field);
				}
			}
		}
		return new Reflected(own, references.toArray(Field[]::new));
	}

	/**
	 * Whether reflection may read a class's fields: its package is open to this class, as
	 * every package of the class path and of an automatic module is.
	 */
	private static boolean readable(Class<?> type) {
		return type.getModule().isOpen(type.getPackageName(), HeapEstimator.class.getModule());
	}

	/**
	 * Whether a class is the JDK's, loaded by the bootstrap or the platform class loader.
	 * The JDK's classes are read through their methods even where the JVM was told to
	 * open their packages ({@code --add-opens}), so that an estimate does not depend on
	 * it: the shared empty instances of {@code List.of()} and {@code Map.of()} count
	 * nothing.
	 */
	private static boolean jdk(Class<?> type) {
		ClassLoader loader = type.getClassLoader();
		return loader == null || loader == ClassLoader.getPlatformClassLoader();
	}

	/**
	 * Whether a map or collection keeps its elements in the JDK's fields: a JDK class, or
	 * a class extending one that stores elements.
	 */
	private static boolean keepsElementsInTheJdk(Class<?> type) {
		for (Class<?> declaring = type; declaring != null; declaring = declaring.getSuperclass()) {
			if (jdk(declaring) && !SKELETONS.contains(declaring)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The objects a closed JDK value holds privately, for the date-times client-java
	 * parses timestamps into: an {@code OffsetDateTime} is a {@code LocalDateTime}, which
	 * is a {@code LocalDate} and a {@code LocalTime}, and a shared offset.
	 */
	private static List<Fields> partsOf(Class<?> type) {
		List<Fields> dateAndTime = List.of(Fields.of(LocalDate.class), Fields.of(LocalTime.class));
		if (type == OffsetDateTime.class || type == ZonedDateTime.class) {
			List<Fields> parts = new ArrayList<>(dateAndTime);
			parts.add(Fields.of(LocalDateTime.class));
			return parts;
		}
		return (type == LocalDateTime.class) ? dateAndTime : List.of();
	}

	/**
	 * The fields of one object, without what they reference.
	 *
	 * @param primitives the bytes of its primitive fields
	 * @param references how many reference fields it has
	 * @param parts the fields of the objects it holds privately, counted with it
	 */
	record Fields(long primitives, int references, List<Fields> parts) {

		static Fields of(Class<?> type) {
			long primitives = 0;
			int references = 0;
			for (Class<?> declaring = type; declaring != null; declaring = declaring.getSuperclass()) {
				for (Field field : declaring.getDeclaredFields()) {
					if (!Modifier.isStatic(field.getModifiers())) {
						if (field.getType().isPrimitive()) {
							primitives += ObjectLayout.size(field.getType());
						}
						else {
							references++;
						}
					}
				}
			}
			return new Fields(primitives, references, List.of());
		}

		Fields plus(List<Fields> objects) {
			return new Fields(this.primitives, this.references, objects);
		}

		long bytes(ObjectLayout layout) {
			long bytes = layout.instance(this.primitives + (long) this.references * layout.reference());
			for (Fields part : this.parts) {
				bytes += part.bytes(layout);
			}
			return bytes;
		}

	}

	/**
	 * How the estimate reads one class's instances.
	 */
	interface Shape {

		/** Enum constants, classes and booleans: shared by everything. */
		Shape FREE = (object, layout, pending) -> 0;

		/**
		 * Returns an instance's own bytes, pushing what it references.
		 * @param object the instance
		 * @param layout the layout of the JVM
		 * @param pending where to push the objects it references
		 * @return its own bytes
		 */
		long visit(Object object, ObjectLayout layout, Deque<Object> pending);

	}

	/**
	 * A class counted as its fields, without following them: a closed JDK class other
	 * than a map or a collection, such as {@code BigDecimal}.
	 */
	private record Fixed(Fields fields) implements Shape {

		@Override
		public long visit(Object object, ObjectLayout layout, Deque<Object> pending) {
			return this.fields.bytes(layout);
		}

	}

	/**
	 * A boxed integral number: the JVM shares those from -128 to 127, as JSON parsing
	 * boxes them with {@code valueOf}.
	 */
	private record Boxed(Fields fields) implements Shape {

		@Override
		public long visit(Object object, ObjectLayout layout, Deque<Object> pending) {
			long value = (object instanceof Character character) ? character : ((Number) object).longValue();
			return (value >= -128 && value <= 127) ? 0 : this.fields.bytes(layout);
		}

	}

	/**
	 * A class read field by field.
	 */
	private record Reflected(Fields fields, Field[] references) implements Shape {

		@Override
		public long visit(Object object, ObjectLayout layout, Deque<Object> pending) {
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
			return this.fields.bytes(layout);
		}

	}

	/**
	 * One estimate of one or several objects: an object reached twice within it counts
	 * once, and it visits at most a given number of objects.
	 */
	final class Walk {

		private final Map<Object, Boolean> seen = new IdentityHashMap<>();

		private final Deque<Object> pending = new ArrayDeque<>();

		private final int maxVisits;

		private int visitsLeft;

		private boolean complete = true;

		private Walk(int maxVisits) {
			this.maxVisits = maxVisits;
			this.visitsLeft = maxVisits;
		}

		/**
		 * Counts an object as reached already: what this walk estimates next leaves it
		 * out, not what it references.
		 * @param object the object
		 */
		void exclude(Object object) {
			this.seen.put(object, Boolean.TRUE);
		}

		/**
		 * Estimates an object with what it references, leaving out what this walk reached
		 * before.
		 * @param root the object
		 * @return the bytes counted, short of the object's whole if the walk ran out of
		 * visits before its end ({@link #complete()})
		 * @throws RuntimeException if an object changed while it was read, as a JDK map
		 * does ({@code ConcurrentModificationException})
		 */
		long estimate(Object root) {
			this.pending.clear();
			this.pending.push(root);
			long bytes = 0;
			while (!this.pending.isEmpty() && this.visitsLeft > 0) {
				Object object = this.pending.pop();
				if (this.seen.put(object, Boolean.TRUE) == null) {
					this.visitsLeft--;
					bytes += visit(object);
				}
			}
			this.complete = this.pending.isEmpty();
			return bytes;
		}

		/**
		 * Tells whether the last estimate reached everything its object references.
		 * @return {@code false} if the walk ran out of visits before
		 */
		boolean complete() {
			return this.complete;
		}

		/**
		 * Returns how many objects the walk visited.
		 * @return the visits
		 */
		int visited() {
			return this.maxVisits - this.visitsLeft;
		}

		/**
		 * Tells whether the walk has no visit left.
		 * @return {@code true} if the next estimate would count nothing
		 */
		boolean spent() {
			return this.visitsLeft <= 0;
		}

		private long visit(Object object) {
			ObjectLayout layout = HeapEstimator.this.layout;
			if (object instanceof String string) {
				return layout.string(string);
			}
			Class<?> type = object.getClass();
			if (type.isArray()) {
				Class<?> component = type.getComponentType();
				if (component.isPrimitive()) {
					return layout.array(Array.getLength(object), ObjectLayout.size(component));
				}
				Object[] elements = (Object[]) object;
				for (Object element : elements) {
					if (element != null) {
						this.pending.push(element);
					}
				}
				return layout.references(elements.length);
			}
			return SHAPES.get(type).visit(object, layout, this.pending);
		}

	}

}

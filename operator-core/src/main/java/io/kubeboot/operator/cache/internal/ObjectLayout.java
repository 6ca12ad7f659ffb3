package io.kubeboot.operator.cache.internal;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * HotSpot's object layout, as {@link HeapEstimator} counts it: an object is a header and
 * its fields, each of its type's size, padded to 8 bytes; an array is a header, a 4-byte
 * length and its elements. The gaps HotSpot leaves between fields are not counted.
 *
 * @param header the bytes of an object header: 12 with compressed class pointers (the
 * default), 16 without, 8 with compact object headers
 * @param reference the bytes of a reference: 4 with compressed oops (the default below 32
 * GB of heap), 8 without
 */
record ObjectLayout(int header, int reference) {

	/** The layout of a 64-bit HotSpot JVM with its defaults. */
	static final ObjectLayout DEFAULT = new ObjectLayout(12, 4);

	/** The most characters {@link #string} reads of one string. */
	static final int PROBES = 4096;

	/**
	 * Returns this JVM's layout, read from its options; {@link #DEFAULT} where they
	 * cannot be read.
	 * @return the layout
	 */
	static ObjectLayout current() {
		try {
			HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
			boolean compressedOops = enabled(hotSpot, "UseCompressedOops", true);
			boolean compressedClasses = enabled(hotSpot, "UseCompressedClassPointers", true);
			boolean compactHeaders = enabled(hotSpot, "UseCompactObjectHeaders", false);
			return new ObjectLayout(compactHeaders ? 8 : (compressedClasses ? 12 : 16), compressedOops ? 4 : 8);
		}
		catch (RuntimeException | LinkageError ex) {
			// no HotSpot, or no jdk.management module
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
	 * Returns the bytes of an array of references.
	 * @param length its length
	 * @return the bytes
	 */
	long references(long length) {
		return array(length, this.reference);
	}

	/**
	 * Returns the bytes of a string and its array, of one byte a character if every
	 * character is Latin-1 and two otherwise. Reads at most {@value #PROBES} characters,
	 * spread evenly over a longer string, so that the cost is bounded whatever the
	 * string's length: a long string whose characters beyond Latin-1 all fall between
	 * those read is counted at one byte a character.
	 * @param string the string
	 * @return the bytes
	 */
	long string(String string) {
		int length = string.length();
		int step = Math.max(1, length / PROBES);
		int perCharacter = 1;
		for (int i = 0; i < length; i += step) {
			if (string.charAt(i) > 0xFF) {
				perCharacter = 2;
				break;
			}
		}
		// a String's fields: value, hash, coder, hashIsZero
		return instance(this.reference + 6) + array((long) length * perCharacter, 1);
	}

	private static long align(long bytes) {
		return (bytes + 7) & ~7L;
	}

	/**
	 * Returns the bytes of a primitive type.
	 * @param primitive the type
	 * @return the bytes
	 */
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

package io.kubeboot.operator.maven;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of an edit, for the user to see what a goal changes in a file of theirs.
 * The goals' edits are insertions and replacements in one place, so the diff is one hunk
 * from the first line that differs to the last, with context around it.
 */
final class Diff {

	private static final int CONTEXT = 2;

	private Diff() {
	}

	static List<String> lines(String name, String before, String after) {
		String[] old = before.split("\n", -1);
		String[] now = after.split("\n", -1);
		int prefix = 0;
		while (prefix < old.length && prefix < now.length && old[prefix].equals(now[prefix])) {
			prefix++;
		}
		int suffix = 0;
		while (suffix < old.length - prefix && suffix < now.length - prefix
				&& old[old.length - 1 - suffix].equals(now[now.length - 1 - suffix])) {
			suffix++;
		}
		List<String> lines = new ArrayList<>();
		if (prefix == old.length && prefix == now.length) {
			return lines;
		}
		int start = Math.max(0, prefix - CONTEXT);
		int oldEnd = Math.min(old.length, old.length - suffix + CONTEXT);
		int newEnd = Math.min(now.length, now.length - suffix + CONTEXT);
		lines.add("--- " + name);
		lines.add("+++ " + name);
		lines.add("@@ -" + (start + 1) + "," + (oldEnd - start) + " +" + (start + 1) + "," + (newEnd - start) + " @@");
		for (int i = start; i < prefix; i++) {
			lines.add(" " + old[i]);
		}
		for (int i = prefix; i < old.length - suffix; i++) {
			lines.add("-" + old[i]);
		}
		for (int i = prefix; i < now.length - suffix; i++) {
			lines.add("+" + now[i]);
		}
		for (int i = old.length - suffix; i < oldEnd; i++) {
			lines.add(" " + old[i]);
		}
		return lines;
	}

}

package ${package};

import java.util.ArrayList;
import java.util.List;

/**
 * The lines two texts do not share, as {@code diff} shows them: {@code -} for lines only
 * the first has, {@code +} for lines only the second has, with the line number in the
 * first, from a longest common subsequence of the lines.
 */
final class LineDiff {

	private LineDiff() {
	}

	static String of(List<String> before, List<String> after) {
		int[][] common = new int[before.size() + 1][after.size() + 1];
		for (int i = before.size() - 1; i >= 0; i--) {
			for (int j = after.size() - 1; j >= 0; j--) {
				common[i][j] = before.get(i).equals(after.get(j)) ? common[i + 1][j + 1] + 1
						: Math.max(common[i + 1][j], common[i][j + 1]);
			}
		}
		List<String> lines = new ArrayList<>();
		int i = 0;
		int j = 0;
		while (i < before.size() || j < after.size()) {
			if (i < before.size() && j < after.size() && before.get(i).equals(after.get(j))) {
				i++;
				j++;
			}
			else if (j < after.size() && (i == before.size() || common[i][j + 1] >= common[i + 1][j])) {
				lines.add(String.format("%4d + %s", i + 1, after.get(j++)));
			}
			else {
				lines.add(String.format("%4d - %s", i + 1, before.get(i++)));
			}
		}
		return String.join(System.lineSeparator(), lines);
	}

}

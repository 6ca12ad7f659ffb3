package io.kubeboot.operator.crd;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.lang.model.element.Element;
import javax.lang.model.util.Elements;

/**
 * Descriptions from doc comments: the first paragraph of the main description (up to a
 * blank line, a paragraph tag or the first block tag), with inline tags replaced by their
 * text, HTML tags dropped and whitespace collapsed. Doc comments exist only for classes
 * compiled from source in the same compilation.
 */
final class Javadoc {

	private static final Pattern PARAGRAPH = Pattern.compile("\\n\\s*\\n|<p>|<p |(?m)^\\s*@", Pattern.CASE_INSENSITIVE);

	private static final Pattern HTML_TAG = Pattern.compile("</?[a-zA-Z][^>]*>");

	private final Elements elements;

	Javadoc(Elements elements) {
		this.elements = elements;
	}

	/**
	 * The description of an element.
	 * @param element the element
	 * @return the description, or {@code null} if it has no doc comment
	 */
	String description(Element element) {
		String comment = this.elements.getDocComment(element);
		if (comment == null) {
			return null;
		}
		Matcher end = PARAGRAPH.matcher(comment);
		String first = end.find() ? comment.substring(0, end.start()) : comment;
		return text(first);
	}

	/**
	 * The description of a record component, from the {@code @param} tag of the record's
	 * doc comment.
	 * @param record the record
	 * @param component the component's name
	 * @return the description, or {@code null} if there is none
	 */
	String parameter(Element record, String component) {
		String comment = this.elements.getDocComment(record);
		if (comment == null) {
			return null;
		}
		Matcher tag = Pattern.compile("(?m)^\\s*@param\\s+" + Pattern.quote(component) + "\\s+").matcher(comment);
		if (!tag.find()) {
			return null;
		}
		String rest = comment.substring(tag.end());
		Matcher next = Pattern.compile("(?m)^\\s*@").matcher(rest);
		return text(next.find() ? rest.substring(0, next.start()) : rest);
	}

	/**
	 * Javadoc text as plain text.
	 * @param javadoc the text, with inline tags and HTML
	 * @return the plain text, or {@code null} if nothing is left
	 */
	static String text(String javadoc) {
		StringBuilder out = new StringBuilder();
		int i = 0;
		while (i < javadoc.length()) {
			int start = javadoc.indexOf("{@", i);
			int end = (start < 0) ? -1 : closingBrace(javadoc, start);
			if (end < 0) {
				out.append(html(javadoc.substring(i)));
				break;
			}
			out.append(html(javadoc.substring(i, start)));
			out.append(tagText(javadoc.substring(start + 2, end)));
			i = end + 1;
		}
		String text = out.toString().replaceAll("\\s+", " ").trim();
		return text.isEmpty() ? null : text;
	}

	/** Text outside inline tags, without HTML tags and with entities decoded. */
	private static String html(String text) {
		return HTML_TAG.matcher(text)
			.replaceAll("")
			.replace("&lt;", "<")
			.replace("&gt;", ">")
			.replace("&quot;", "\"")
			.replace("&#64;", "@")
			.replace("&nbsp;", " ")
			.replace("&amp;", "&");
	}

	private static int closingBrace(String javadoc, int start) {
		int depth = 0;
		for (int i = start; i < javadoc.length(); i++) {
			char c = javadoc.charAt(i);
			if (c == '{') {
				depth++;
			}
			else if (c == '}' && --depth == 0) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * The text of an inline tag: the content of {@code code} and {@code literal}, the
	 * label of a link, else the referenced member or class by its simple name.
	 */
	private static String tagText(String tag) {
		String[] parts = tag.split("\\s+", 2);
		String name = parts[0];
		String content = (parts.length > 1) ? parts[1] : "";
		if (name.equals("link") || name.equals("linkplain") || name.equals("value")) {
			String[] reference = content.trim().split("\\s+", 2);
			if (reference.length > 1) {
				return reference[1];
			}
			return simpleName(reference[0]);
		}
		return content.strip();
	}

	private static String simpleName(String reference) {
		String withoutArguments = reference.replaceAll("\\(.*\\)", "");
		int hash = withoutArguments.indexOf('#');
		if (hash == 0) {
			return withoutArguments.substring(1);
		}
		String type = (hash > 0) ? withoutArguments.substring(0, hash) : withoutArguments;
		type = type.substring(type.lastIndexOf('.') + 1);
		return (hash > 0) ? type + "." + withoutArguments.substring(hash + 1) : type;
	}

}

#!/usr/bin/env python3
"""Checks the relative links of the documentation.

Every relative markdown link of README.md, ARCHITECTURE.md, RELIABILITY.md and
docs/**/*.md (or of the files given as arguments) must name a file or directory of the
repository, and a #fragment into a markdown file must be the anchor GitHub gives one of
its headings: lower case, spaces turned into '-', punctuation other than '-' and '_'
dropped, '-1', '-2', ... added to repeated ones. Links outside code blocks and code spans
count; absolute URLs (https:, mailto:, ...) are not checked.

Prints every broken link as file:line: target: reason and exits with status 1 if there
is one, else prints nothing and exits with status 0.

    scripts/check-doc-links.py
    scripts/check-doc-links.py sample-operator/deploy/README.md benchmarks/BENCHMARKS.md
"""

import os
import re
import sys
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DEFAULT_FILES = ['README.md', 'ARCHITECTURE.md', 'RELIABILITY.md']

FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')
ATX_HEADING = re.compile(r'^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$')
SETEXT_UNDERLINE = re.compile(r'^ {0,3}(=+|-+)[ \t]*$')
CODE_SPAN = re.compile(r'(`+)(.+?)\1')
INLINE_LINK = re.compile(r'\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|\'[^\']*\'|\([^)]*\)))?\s*\)')
REFERENCE_LINK = re.compile(r'^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)')
HTML_ANCHOR = re.compile(r'<a\s[^>]*(?:name|id)\s*=\s*["\']([^"\']+)["\']', re.IGNORECASE)
SCHEME = re.compile(r'^[A-Za-z][A-Za-z0-9+.-]*:')


def documentation_files():
    files = [f for f in DEFAULT_FILES if os.path.isfile(os.path.join(ROOT, f))]
    for directory, _, names in os.walk(os.path.join(ROOT, 'docs')):
        for name in names:
            if name.endswith('.md'):
                files.append(os.path.relpath(os.path.join(directory, name), ROOT))
    return sorted(files, key=lambda f: (f.count(os.sep), f))


def lines_outside_code(text):
    """Yields (line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split('\n'), start=1):
        match = FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)
                continue
            yield number, line
        elif match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                and line.strip() == match.group(1):
            fence = None


def heading_text_to_anchor(text):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)  # a link's text only
    text = re.sub(r'<[^>]+>', '', text)  # inline HTML
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(text):
    """The anchors GitHub gives the headings (and HTML anchors) of a markdown text."""
    found = set()
    seen = {}
    previous = None
    for _, line in lines_outside_code(text):
        heading = None
        match = ATX_HEADING.match(line)
        if match:
            heading = match.group(2) or ''
        elif previous and previous.strip() and SETEXT_UNDERLINE.match(line) \
                and not ATX_HEADING.match(previous) and not previous.lstrip().startswith(('|', '-', '*', '>')):
            heading = previous
        if heading is not None:
            anchor = heading_text_to_anchor(heading)
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            found.add(anchor if count == 0 else '%s-%d' % (anchor, count))
        for name in HTML_ANCHOR.findall(line):
            found.add(name)
        previous = line
    return found


def link_targets(text):
    """Yields (line number, target) of every link outside code."""
    for number, line in lines_outside_code(text):
        line = CODE_SPAN.sub(lambda m: m.group(1) + 'x' * len(m.group(2)) + m.group(1), line)
        for match in INLINE_LINK.finditer(line):
            yield number, match.group(1)
        match = REFERENCE_LINK.match(line)
        if match:
            yield number, match.group(1)


def check(files):
    problems = []
    anchor_cache = {}

    def anchors_of(path):
        if path not in anchor_cache:
            with open(path, encoding='utf-8') as f:
                anchor_cache[path] = anchors(f.read())
        return anchor_cache[path]

    for name in files:
        source = os.path.join(ROOT, name)
        with open(source, encoding='utf-8') as f:
            text = f.read()
        for number, target in link_targets(text):
            if target.startswith('<') and target.endswith('>'):
                target = target[1:-1]
            if SCHEME.match(target) or target.startswith('//'):
                continue
            path, _, fragment = target.partition('#')
            path = urllib.parse.unquote(path)
            fragment = urllib.parse.unquote(fragment)
            where = '%s:%d: %s' % (name, number, target)
            if path.startswith('/'):
                problems.append('%s: an absolute path; link relative to the file' % where)
                continue
            resolved = os.path.normpath(os.path.join(os.path.dirname(source), path)) if path else source
            if os.path.commonpath([ROOT, resolved]) != ROOT:
                problems.append('%s: points outside the repository' % where)
                continue
            if not os.path.exists(resolved):
                problems.append('%s: %s does not exist' % (where, os.path.relpath(resolved, ROOT)))
                continue
            if fragment and resolved.endswith('.md') and os.path.isfile(resolved):
                if fragment not in anchors_of(resolved):
                    problems.append('%s: %s has no heading with the anchor #%s'
                                    % (where, os.path.relpath(resolved, ROOT), fragment))
    return problems


def main(arguments):
    files = [os.path.relpath(os.path.abspath(a), ROOT) for a in arguments] or documentation_files()
    problems = check(files)
    for problem in problems:
        print(problem)
    if problems:
        print('%d broken link(s) in %d file(s) checked' % (len(problems), len(files)), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

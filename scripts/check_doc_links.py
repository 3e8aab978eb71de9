#!/usr/bin/env python3
"""Check that every relative Markdown link in README.md and docs/ resolves.

The guide is many pages that link to each other, to anchors, to configs/ and to scripts/; pages
move (measured findings go to docs/results/) and headings change, and a dead link is only
noticed by a reader. This checks each [text](target) and ![alt](target) whose target is not a URL:
the file (or directory) must exist, and a #fragment must be a heading of the target page, by
GitHub's rule (lowercase, punctuation other than - and _ dropped, spaces to -, duplicates -1, -2).
Links inside code blocks and inline code are ignored. Exit 1 and one line per broken link.

    python3 scripts/check_doc_links.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+(?:\([^()]*\))?)(?:\s+\"[^\"]*\")?\)")


def strip_code(text):
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(path):
    seen, out = {}, set()
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def pages():
    yield os.path.join(ROOT, "README.md")
    for d, _, files in os.walk(os.path.join(ROOT, "docs")):
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.join(d, f)


def main():
    bad = checked = 0
    for page in pages():
        text = strip_code(open(page, encoding="utf-8").read())
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            checked += 1
            path, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            rel = os.path.relpath(page, ROOT)
            if not os.path.exists(dest):
                print(f"{rel}: {target}: no such file")
                bad += 1
            elif frag and dest.endswith(".md") and frag not in anchors(dest):
                print(f"{rel}: {target}: no heading #{frag}")
                bad += 1
    print(f"{checked} relative links checked, {bad} broken")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

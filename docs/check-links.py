#!/usr/bin/env python3
"""Checks every relative Markdown link of README.md and docs/*.md: the file exists relative to
the linking file, and a #fragment names a heading of the target (GitHub's anchor rules)."""
import re, sys, os, glob

def slug(heading):
    h = heading.strip().lower()
    h = re.sub(r'[^\w\- ]', '', h)   # drop punctuation (backticks, colons, dots, quotes...)
    return h.replace(' ', '-')

def anchors(path):
    out, seen, fence = set(), {}, False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
            continue
        m = None if fence else re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if m:
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f'{s}-{n}')
    return out

def links(path):
    text, fence = [], False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
            continue
        if not fence:
            text.append(re.sub(r'`[^`]*`', '', line))
    return re.findall(r'\]\(([^)\s]+)\)', ''.join(text))

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
files = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
bad = n = 0
for f in files:
    for target in links(f):
        if re.match(r'^[a-z]+:', target):
            continue
        n += 1
        path, _, frag = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(dest):
            print(f'{f}: {target}: no such file {dest}'); bad += 1; continue
        if frag and dest.endswith('.md') and frag not in anchors(dest):
            print(f'{f}: {target}: no heading #{frag} in {dest}'); bad += 1
print(f'{n} relative links in {len(files)} files, {bad} broken')
sys.exit(1 if bad else 0)

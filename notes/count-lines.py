#!/usr/bin/env python3
"""Count the comparison code's lines (issue 25): code lines only, without `#[cfg(test)]` items,
comments (`//`, `//!`, `///`, `/* */`) and blank lines.

Usage: python3 notes/count-lines.py [--each]   (run from the repository root)
"""
import glob
import os
import sys

# The list: crosscheck, reconcile, diff, merge, conflicts and their CLI front ends, plus the core.
PATTERNS = [
    "src/compare/**/*.rs", "src/compare.rs",
    "src/crosscheck/**/*.rs", "src/crosscheck.rs",
    "src/reconcile/**/*.rs", "src/reconcile.rs",
    "src/diff/**/*.rs", "src/diff.rs",
    "src/merge.rs", "src/merge/**/*.rs",
    "src/conflict.rs",
    "src/cli/crosscheck.rs", "src/cli/diff.rs",
]


def strip_comments(text):
    out, i, n, depth = [], 0, len(text), 0
    in_str = False
    while i < n:
        c = text[i]
        if depth:
            if text.startswith("*/", i):
                depth -= 1
                i += 2
            elif text.startswith("/*", i):
                depth += 1
                i += 2
            else:
                if c == "\n":
                    out.append(c)
                i += 1
            continue
        if in_str:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1 : i + 2])
                i += 2
                continue
            if c == '"':
                in_str = False
            i += 1
            continue
        if c == '"':
            in_str = True
            out.append(c)
            i += 1
        elif c == "'" and i + 2 < n and (text[i + 2] == "'" or (text[i + 1] == "\\" and "'" in text[i + 2 : i + 5])):
            j = text.index("'", i + 2) if text[i + 1] == "\\" else i + 2
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth = 1
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_cfg_test(lines):
    """Drop every item after a `#[cfg(test)]` attribute (a `mod tests { .. }` or a single fn)."""
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]":
            depth, started = 0, False
            i += 1
            while i < len(lines):
                depth += lines[i].count("{") - lines[i].count("}")
                if "{" in lines[i]:
                    started = True
                i += 1
                if (started and depth <= 0) or (not started and lines[i - 1].rstrip().endswith(";")):
                    break
            continue
        out.append(lines[i])
        i += 1
    return out


def count(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = drop_cfg_test(strip_comments(text).split("\n"))
    return sum(1 for l in lines if l.strip())


def main():
    files = sorted({p for pat in PATTERNS for p in glob.glob(pat, recursive=True) if os.path.isfile(p)})
    total = 0
    for p in files:
        c = count(p)
        total += c
        if "--each" in sys.argv:
            print(f"{c:6} {p}")
    print(f"{total:6} total ({len(files)} files)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Independent reading of a GW errata PDF (issue 27, package D): entries and instructions.

Reads `pdftotext -layout` of each page cropped to each column (left: x < 290 pt, right:
x >= 290 pt), in reading order (page by page, left column then right). An entry is a header
line `TARGET – SECTION` (en dash; a header may wrap onto a second line) after a blank line or
a faction heading; an instruction is a line starting with an instruction verb (Change, Add,
Delete, Remove) outside a quoted block. Looking only: pdftotext is never in the pipeline.

usage: python3 notes/errata-read.py FILE.pdf [--list]
"""
import re
import subprocess
import sys

VERB = re.compile(r"^(Change|Add|Delete|Remove)\b")
HEADING = re.compile(r"^[A-Z’'\- ]{3,}$")
# a mini table's header or value row (`RANGE A WS S AP D`, `M T SV W LD OC`, `Melee 1 4+ 3 0 1`)
TABLE = re.compile(r"^(RANGE|M)\s+(A|T)\s|^(\S.*?\s{3,})?(Melee|\d+\")\s{2,}\S+\s{2,}|^\d+\"\s+\d+\s+\d\+")


def quote_depth(line):
    """Opening quotes minus closing ones: a ’ followed by a letter is an apostrophe."""
    return line.count("‘") - len(re.findall(r"’(?![A-Za-z])", line))


def pages(path):
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True).stdout
    n = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    w, h = (float(v) for v in re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", info).groups())
    return n, w, h


def column(path, page, x, width, height):
    out = subprocess.run(
        ["pdftotext", "-layout", "-f", str(page), "-l", str(page), "-x", str(x), "-y", "0",
         "-W", str(width), "-H", str(int(height) - 45), path, "-"],
        capture_output=True, text=True).stdout
    return [l.strip() for l in out.splitlines()]


def read(path):
    n, w, h = pages(path)
    lines = []
    for p in range(1, n + 1):
        for x, width in ((0, 290), (290, int(w) - 290)):
            lines.append("")  # a column starts a new paragraph
            lines.extend(column(path, p, x, width, h))
    entries = []
    depth = 0
    blank = True
    cur = None
    for line in lines:
        if not line:
            blank = True
            continue
        starts_para = blank
        blank = False
        if depth > 0 or TABLE.match(line):
            if cur is not None:
                cur["text"].append(line)
            depth = max(0, depth + quote_depth(line))
            continue
        if HEADING.match(line):
            cur = None
            starts_para = True
            blank = True
            continue
        if VERB.match(line) and cur is not None:
            cur["instructions"].append(line)
            cur["text"].append(line)
            depth = max(0, quote_depth(line))
            continue
        if line.startswith("‘"):
            if cur is not None:
                cur["text"].append(line)
            depth = max(0, quote_depth(line))
            continue
        if starts_para and cur is not None and not cur["instructions"]:
            cur["header"] += " " + line  # header wraps over a blank? (never seen)
            continue
        if starts_para:
            cur = {"header": line, "instructions": [], "text": []}
            entries.append(cur)
            continue
        if cur is not None and not cur["instructions"]:
            cur["header"] += " " + line  # wrapped header
        elif cur is not None:
            cur["text"].append(line)
    entries = [e for e in entries if " – " in e["header"]]
    return entries


def main():
    path = sys.argv[1]
    entries = read(path)
    if "--list" in sys.argv:
        for e in entries:
            print(f"{e['header']}  ||  {len(e['instructions'])}: {' / '.join(e['instructions'])}")
    print(f"{path}: {len(entries)} entries, {sum(len(e['instructions']) for e in entries)} instructions")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""long_functions.py — lists the C functions longer than a limit (default 100 lines), so that a long function is
either split or carries its reason (#23: "no function over about 100 lines without a reason written beside it").

A function's length is the line of its closing brace minus the line of its opening one (both at column 0, the
house style: a definition's `{` and `}` stand alone on their lines). A function whose comment just above its
signature holds `long:` followed by the reason, e.g.

    /* long: one case per opcode; splitting the switch would only move it */
    static void run(...)

is listed as explained and does not fail. --known FILE names long functions not split yet ("PATH FUNCTION" per
line, # comments): they are listed as known and do not fail, but an entry that is no longer long (or gone) fails
as stale, so the list only shrinks; a new long function anywhere fails. Exit 1 when an unexplained or stale one is
found (0 with --report), 2 for a bad command line or an unreadable file.

    python3 tools/long_functions.py [--max N] [--report] [--known FILE] [PATH ...]    (default PATH: src/;
                                                                        folders are searched for *.c and *.h)
"""
import argparse
import os
import re
import sys

SIGNATURE_NAME = re.compile(r"([A-Za-z_]\w*)\s*\(")
REASON = re.compile(r"\blong:\s*\S")


def sources(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith((".c", ".h")):
                        yield os.path.join(root, f)
        else:
            yield path


def functions(lines):
    """(name, first line of the signature, length, reason or None) per definition; lines are 0-based inside."""
    for i, line in enumerate(lines):
        if line.rstrip("\n") != "{":
            continue
        # The signature: back from the `{` to the line that starts at column 0 (continuations are indented).
        start = i - 1
        while start > 0 and lines[start][:1] in (" ", "\t") and lines[start].strip():
            start -= 1
        signature = "".join(lines[start:i])
        m = SIGNATURE_NAME.search(signature)
        if start < 0 or not m or signature.lstrip().startswith(("#", "/", "*")):
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip("\n") == "}"), None)
        if end is None:
            continue
        # The comment block directly above the signature.
        reason = None
        k = start - 1
        while k >= 0 and lines[k].strip().startswith(("/*", "*", "//")):
            hit = REASON.search(lines[k])
            if hit:
                reason = lines[k][hit.start():].strip().rstrip("*/").strip()
            k -= 1
        yield m.group(1), start + 1, end - i, reason


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", default=["src"])
    ap.add_argument("--max", type=int, default=100, help="longest length that needs no reason (default 100)")
    ap.add_argument("--report", action="store_true", help="list only: exit 0 even when one has no reason")
    ap.add_argument("--known", help="file of 'PATH FUNCTION' lines: long functions not split yet")
    a = ap.parse_args()
    known = set()
    if a.known:
        try:
            with open(a.known, encoding="utf-8") as f:
                for line in f:
                    words = line.split("#", 1)[0].split()
                    if len(words) == 2:
                        known.add((os.path.normpath(words[0]), words[1]))
                    elif words:
                        print("%s: expected 'PATH FUNCTION': %s" % (a.known, line.strip()), file=sys.stderr)
                        return 2
        except OSError as e:
            print("long_functions.py: %s" % e, file=sys.stderr)
            return 2
    unexplained = explained = 0
    seen_known = set()
    for path in sources(a.paths):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
        except OSError as e:
            print("long_functions.py: %s" % e, file=sys.stderr)
            return 2
        for name, line, length, reason in functions(lines):
            if length <= a.max:
                continue
            key = (os.path.normpath(path), name)
            if key in known:
                seen_known.add(key)
                print("%s:%d: %s is %d lines (known: not split yet, %s)" % (path, line, name, length, a.known))
            elif reason:
                explained += 1
                print("%s:%d: %s is %d lines (%s)" % (path, line, name, length, reason))
            else:
                unexplained += 1
                print("%s:%d: %s is %d lines, over %d, with no '/* long: why */' above it"
                      % (path, line, name, length, a.max))
    stale = sorted(known - seen_known)
    for path, name in stale:
        print("%s: '%s %s' is no longer over %d lines (or gone): remove it from the list"
              % (a.known, path, name, a.max))
    print("%d function(s) over %d lines without a reason, %d with one, %d known, %d stale entries"
          % (unexplained, a.max, explained, len(seen_known), len(stale)))
    return 1 if (unexplained or stale) and not a.report else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes strokes.bin: the total stroke count (Unihan kTotalStrokes, the first value, which is
the one for simplified Chinese) of every code point of CJK Unified Ideographs Extension A
(U+3400..U+4DBF) and the basic block (U+4E00..U+9FFF), one byte each, 0 where Unihan has none.

Source: Debian's package unicode-data (Unicode 15.0), file
/usr/share/unicode/Unihan_IRGSources.txt.bz2. Usage:
    apt-get download unicode-data && dpkg-deb -x unicode-data_*.deb ud
    python3 gen_strokes.py ud/usr/share/unicode/Unihan_IRGSources.txt.bz2 > strokes.bin
"""
import bz2
import sys

RANGES = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF)]


def main(path):
    counts = {}
    with bz2.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or "\tkTotalStrokes\t" not in line:
                continue
            cp, _, value = line.rstrip("\n").split("\t")
            counts[int(cp[2:], 16)] = int(value.split()[0])
    out = bytearray()
    for lo, hi in RANGES:
        for cp in range(lo, hi + 1):
            out.append(min(counts.get(cp, 0), 255))
    sys.stdout.buffer.write(bytes(out))


if __name__ == "__main__":
    main(sys.argv[1])

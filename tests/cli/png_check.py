#!/usr/bin/env python3
"""Prints "COLOURS NONWHITE_PERMILLE" for a PNG: the number of distinct
pixel colours and how many pixels in a thousand are not white.  With
--count X0,Y0,X1,Y1 RRGGBB... it prints instead, for each colour, how many
pixels of the box [X0,X1) x [Y0,Y1) have it.  Standard library only (zlib):
decodes 8-bit RGB/RGBA (Chromium's screenshots) and 8-bit palette (gnuplot's
png terminal) non-interlaced PNGs."""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, hdr, plte = 8, b"", None, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            plte = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 3, 6) or interlace:
        raise SystemExit(f"{path}: unsupported PNG (depth {depth}, colour type {ctype})")
    bpp = {2: 3, 3: 1, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 255
        rows.append(bytes(line))
        prev = line
    if ctype == 3:  # palette: expand to RGB
        rows = [b"".join(plte[3 * i:3 * i + 3] for i in r) for r in rows]
        bpp = 3
    return width, height, bpp, rows


def count(rows, bpp, box, colours):
    x0, y0, x1, y1 = box
    want = [bytes.fromhex(c) for c in colours]
    n = [0] * len(want)
    for line in rows[y0:y1]:
        for x in range(x0 * bpp, x1 * bpp, bpp):
            px = line[x:x + 3]
            for i, c in enumerate(want):
                n[i] += px == c
    print(*n)


def main():
    width, height, bpp, rows = decode(sys.argv[1])
    if len(sys.argv) > 3 and sys.argv[2] == "--count":
        count(rows, bpp, [int(v) for v in sys.argv[3].split(",")], sys.argv[4:])
        return
    colours, nonwhite, total = set(), 0, 0
    for line in rows[::4]:
        for x in range(0, width * bpp, bpp * 4):
            px = line[x:x + 3]
            colours.add(px)
            total += 1
            nonwhite += px != b"\xff\xff\xff"
    print(len(colours), nonwhite * 1000 // max(total, 1))


main()

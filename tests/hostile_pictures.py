"""Hostile pictures for ``make``, run by tests/test_hostile_matrix.py: each refused in one
line naming the file, exit status 2, in a child bound to 1 GB of address space and 10 s of
CPU (issue 34, items 3 and 4).

Pictures are checked by their header (pixels, aspect) before decoding, decoded in 8-bit at
the working size, and read through the capped reader, so a FIFO does not hang.
"""

from __future__ import annotations

import io
import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

from PIL import Image


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(
        ">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height (1-bit grey) over a few bytes of data."""
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(b"\x00\xff" * 64)) + _chunk(b"IEND", b""))


def blank_bilevel(side: int) -> bytes:
    """A real 1-bit PNG, side x side, all white: a few KB that decode to side**2 pixels."""
    out = io.BytesIO()
    Image.new("1", (side, side), 1).save(out, format="PNG", optimize=True)
    return out.getvalue()


def write(content: bytes) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_bytes(content)
    return make


def fifo(path: Path) -> None:
    os.mkfifo(path)


#: name -> (file name, how to make it, what the one line says)
CASES: dict[str, tuple[str, Callable[[Path], None], str]] = {
    "bilevel 6300x6300 (5 KB, decodes to 40 M pixels)": (
        "big.png", write(blank_bilevel(6300)), "no cell is filled"),
    "1x39,000,000": ("thin.png", write(png_header_only(1, 39_000_000)), "longer than"),
    "100,000 x 100,000 claimed": ("huge.png", write(png_header_only(100_000, 100_000)),
                                  "over the limit"),
    "a FIFO nobody writes to": ("f.png", fifo, "FIFO"),
    "not a picture": ("text.png", write(b"just some text\n" * 10), "not a picture"),
    "truncated PNG": ("cut.png", write(blank_bilevel(64)[:45]), "picture"),
}

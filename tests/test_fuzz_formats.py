"""Hostile, truncated and garbled input: every reader ends in a FormatError with a message.

A reader may accept a truncated or garbled file when what is left is still a puzzle; it
may never fail any other way (no other exception, no "reader failed" safety net, no hang).
"""

from __future__ import annotations

import io
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader import formats
from grader.errors import FormatError
from grader.model import Metadata, Puzzle

READERS = sorted(formats.FORMATS)
WRITERS = sorted(name for name, spec in formats.FORMATS.items() if spec.can_write)
SAMPLE = Puzzle.from_picture(
    [".##.##.", "#######", ".#####.", "..###..", "...#..."],
    Metadata(title="Heart", author="Nonopress", license="MIT"),
)
VALID = {name: formats.write(SAMPLE, name) for name in WRITERS if name != "taai"}
VALID["taai"] = formats.write(Puzzle.from_picture(["#.", "##"]), "taai")


def assert_clean_outcome(data: bytes, format: str | None) -> None:
    """Puzzles, or a FormatError with a real message; nothing else."""
    try:
        puzzles = formats.read(data, format=format, name="fuzz")
    except FormatError as exc:
        assert exc.message.strip()
        assert "reader failed" not in exc.message, exc.message
        assert str(exc).startswith("fuzz")
        return
    assert puzzles and all(isinstance(p, Puzzle) for p in puzzles)


def assert_refused(data: bytes, format: str | None, *words: str) -> FormatError:
    with pytest.raises(FormatError) as info:
        formats.read(data, format=format, name="hostile")
    message = info.value.message
    assert "reader failed" not in message, message
    for word in words:
        assert word in str(info.value)
    return info.value


# -- empty and junk -------------------------------------------------------------------------
@pytest.mark.parametrize("format", [*READERS, None])
@pytest.mark.parametrize("data", [b"", b"\n\n  \n", b"\x00" * 64, bytes(range(256)) * 4,
                                  b"\xff\xfe\xfa\x00junk", b"hello world\n"])
def test_junk_is_refused(format: str | None, data: bytes) -> None:
    assert_refused(data, format)


# -- truncation -----------------------------------------------------------------------------
@pytest.mark.parametrize("format", sorted(VALID))
def test_every_truncation_is_clean(format: str) -> None:
    data = VALID[format]
    step = max(1, len(data) // 60)
    for cut in range(0, len(data), step):
        assert_clean_outcome(data[:cut], format)
        assert_clean_outcome(data[:cut], None)


# -- garbling -------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(VALID)),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=6),
    st.booleans(),
)
def test_garbled_files_are_clean(format: str, flips: list[tuple[int, int]], detect: bool) -> None:
    data = bytearray(VALID[format])
    for position, value in flips:
        data[position % len(data)] = value
    assert_clean_outcome(bytes(data), None if detect else format)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.sampled_from([*READERS, None]))
def test_random_bytes_are_clean(data: bytes, format: str | None) -> None:
    assert_clean_outcome(data, format)


# -- hostile XML ----------------------------------------------------------------------------
BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<puzzleset><puzzle><title>&lol9;</title></puzzle></puzzleset>
"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE puzzleset [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<puzzleset><puzzle><title>&secret;</title></puzzle></puzzleset>
"""
EXTERNAL_PARAMETER = b"""<?xml version="1.0"?>
<!DOCTYPE puzzleset [<!ENTITY % remote SYSTEM "http://127.0.0.1:1/evil.dtd"> %remote;]>
<puzzleset/>
"""


@pytest.mark.parametrize("data", [BILLION_LAUGHS, EXTERNAL_ENTITY, EXTERNAL_PARAMETER])
@pytest.mark.parametrize("format", ["xml", None])
def test_hostile_xml_is_refused(data: bytes, format: str | None) -> None:
    assert_refused(data, format, "hostile")


def test_colour_xml_is_refused_clearly() -> None:
    data = b"""<puzzleset><puzzle defaultcolor="black">
    <color name="white" char=".">fff</color><color name="black" char="X">000</color>
    <color name="red" char="r">f00</color>
    <clues type="rows"><line><count color="red">1</count></line></clues>
    <clues type="columns"><line><count color="red">1</count></line></clues>
    </puzzle></puzzleset>"""
    assert_refused(data, "xml", "colour puzzles are not supported")


def test_deep_xml_nesting() -> None:
    data = b"<puzzleset>" + b"<a>" * 50_000 + b"</a>" * 50_000 + b"</puzzleset>"
    assert_clean_outcome(data, "xml")


# -- huge numbers and sizes: refused before anything is allocated ---------------------------
HUGE = [
    ("non", b"width 1000000000\nheight 1000000000\nrows\n"),
    ("non", b"width 99999999999999999999999\nheight 5\n"),
    ("non", b"width 5000\nheight 5000\n"),
    ("nin", b"1000000000 1000000000\n1\n"),
    ("mk", b"1000000 3\n1\n#\n1\n"),
    ("tatham", b"1000000000x1000000000:1/1\n"),
    ("pbm", b"P4\n1000000000 1000000000\n\xff"),
    ("pbm", b"P1\n4097 1\n" + b"0" * 4097),
    ("yaml", b"rows: [[1]]\ncolumns: [[100000000000000000000000000]]\n"),
    ("yaml", b"rows: [[1]]\ncolumns: [[" + b"9" * 5000 + b"]]\n"),
    ("json", b'{"rows": [[1]], "columns": [[' + b"9" * 5000 + b"]]}"),
    ("json", b'{"rows": [[1e999]], "columns": [[1]]}'),
    ("xml", b"<puzzleset><puzzle><clues type='rows'><line><count>"
     + b"9" * 400 + b"</count></line></clues></puzzle></puzzleset>"),
    ("picross", b"GRID a\nROWS\n[ 123456789012345 ]\nCOLUMNS\n[ 1 ]\n"),
    ("taai", b"$1\n" + b"1\n" * 10_000),
    ("picture", b"#" * 5000 + b"\n"),
    ("pynogram", b"[clues]\ncolumns = 1\nrows = 99999999999\n"),
    ("g", b": rows\n1\n: columns\n" + b"9" * 30 + b"\n"),
]


@pytest.mark.parametrize(("format", "data"), HUGE, ids=[f"{f}-{i}" for i, (f, _) in
                                                         enumerate(HUGE)])
def test_huge_numbers_are_refused(format: str, data: bytes) -> None:
    assert_refused(data, format)
    assert_refused(data, None)


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(kind + body).to_bytes(4, "big")
    return len(body).to_bytes(4, "big") + kind + body + crc


def _png_header(width: int, height: int) -> bytes:
    """A 1-bit PNG claiming a size, with (far too little) pixel data."""
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([1, 0, 0, 0, 0])
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
            + _chunk(b"IDAT", zlib.compress(b"\x00\xff")) + _chunk(b"IEND", b""))


def test_huge_png_is_refused_before_decoding() -> None:
    error = assert_refused(_png_header(5000, 5000), "png")
    assert "larger than the limit" in error.message
    assert_refused(_png_header(100_000, 100_000), "png", "not a readable image")


def test_short_pixel_data_is_clean() -> None:
    assert_clean_outcome(_png_header(5, 5), "png")


@pytest.mark.parametrize("format", ["png", "gif", "bmp"])
def test_truncated_image_is_refused(format: str) -> None:
    data = VALID[format]
    assert_refused(data[: len(data) // 2], format, "not a readable image")


def test_gif_bomb_sized_header_is_refused() -> None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("1", (3, 3)).save(buffer, format="GIF")
    data = bytearray(buffer.getvalue())
    data[6:10] = (65535).to_bytes(2, "little") * 2  # logical screen 65535 x 65535
    assert_clean_outcome(bytes(data), "gif")


# -- hostile YAML and JSON ------------------------------------------------------------------
YAML_LAUGHS = b"""a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
rows: [*e, *e]
columns: [*e]
"""


ALIASED_CLUES = (
    b"rows: [&a [" + b"1, " * 2047 + b"1], " + b", ".join([b"*a"] * 2047) + b"]\n"
    b"columns: [" + b", ".join([b"[1]"] * 2048) + b"]\n"
)


@pytest.mark.parametrize(
    "data",
    [
        YAML_LAUGHS,
        ALIASED_CLUES,
        b"!!python/object/apply:os.system ['echo hi']\n",
        b"rows: " + b"[" * 20_000 + b"]" * 20_000 + b"\ncolumns: [[1]]\n",
        b"rows: [[1]]\ncolumns: [[1]]\nsolution: 42\n",
        b"puzzles: 3\n",
        b"- 1\n- 2\n",
    ],
)
def test_hostile_yaml_is_refused(data: bytes) -> None:
    assert_refused(data, "yaml")


@pytest.mark.parametrize(
    "data",
    [b"[" * 100_000 + b"]" * 100_000, b'{"rows": "x"}', b"[1, 2]", b'{"puzzles": {}}', b"{"],
)
def test_hostile_json_is_refused(data: bytes) -> None:
    assert_refused(data, "json")


def test_xml_with_unknown_encoding_is_refused() -> None:
    assert_refused(b'<?xml version="1.0" encoding="U-TF-8"?><puzzleset/>', "xml", "XML")

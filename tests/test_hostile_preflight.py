"""Hostile PDFs against ``nonopress preflight``: each made here, each checked in a child under
the README's bound (1 GB of address space, 10 s of CPU). The preflight must answer with exit
status 2 and one line naming the file (or its usual report, for a file it can check), never a
traceback, a MemoryError or a hang.

The cases are the PDF ones of the hostile-input issue: streams that decode to hundreds of
megabytes, millions of operators, a Flate bomb, a hundred thousand pages sharing one stream,
forms fanning out, a form calling an empty form millions of times, 400-digit numbers.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from bench_support import bench_module

MEMORY_BOUND = 1 << 30
CPU_BOUND_S = 10
HUGE = "1" * 400

DRIVER = r"""
import contextlib, io, json, sys
from nonopress.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = main(argv)
    results.append([status, err.getvalue(), out.getvalue()])
print(json.dumps(results))
"""


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_BOUND_S, CPU_BOUND_S))


def preflight_bounded(path: Path, profiles: Iterable[str] = ("kdp", "pdfx")
                      ) -> list[tuple[int, str, str]]:
    """(status, stderr, stdout) of ``preflight`` on ``path`` under each profile, each run as
    a user would run it: a child of its own under the bound."""
    results = []
    for profile in profiles:
        calls = [["preflight", str(path), "--profile", profile]]
        child = subprocess.run(
            [sys.executable, "-c", DRIVER, json.dumps(calls)], cwd=path.parent,
            capture_output=True, text=True, preexec_fn=_limits, timeout=300, check=False,
        )
        assert child.returncode == 0, (profile, child.returncode, child.stderr[-3000:])
        results.extend((status, err, out) for status, err, out in json.loads(child.stdout))
    return results


# -- a PDF written byte by byte (pikepdf would take minutes over a hundred thousand pages) ----

def raw_pdf(path: Path, objects: list[bytes], root: int = 1) -> Path:
    """A PDF of ``objects`` (object n is objects[n - 1]) with a right cross-reference table."""
    with path.open("wb") as out:
        out.write(b"%PDF-1.3\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(objects, start=1):
            offsets.append(out.tell())
            out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
        xref = out.tell()
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
        out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
        out.write(b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
                  % (len(objects) + 1, root, xref))
    return path


def stream(data: bytes, extra: bytes = b"", compressed: bool = False) -> bytes:
    head = b"<< /Length %d " % len(data) + extra
    if compressed:
        head += b" /Filter /FlateDecode"
    return head + b" >>\nstream\n" + data + b"\nendstream"


def deflated(piece: bytes, times: int) -> bytes:
    """``piece`` repeated ``times`` times, deflated without ever holding the whole."""
    packer = zlib.compressobj(9)
    block = piece * max(1, (1 << 20) // len(piece))
    per_block = (1 << 20) // len(piece)
    parts = []
    left = times
    while left > 0:
        count = min(per_block, left)
        parts.append(packer.compress(block if count == per_block else piece * count))
        left -= count
    parts.append(packer.flush())
    return b"".join(parts)


def one_page(content: bytes, *, resources: bytes = b"<< >>", extra_objects: list[bytes] = (),
             media: bytes = b"[0 0 612 792]", compressed: bool = False) -> list[bytes]:
    """Catalog, pages, one page (object 3), its content (object 4), then ``extra_objects``
    (numbered from 5)."""
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + media + b" /Resources " + resources
        + b" /Contents 4 0 R >>",
        stream(content, compressed=compressed),
        *extra_objects,
    ]


def form(content: bytes, resources: bytes = b"<< >>") -> bytes:
    return stream(content, b"/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources "
                  + resources)


# -- the cases ---------------------------------------------------------------------------------

def big_stream(path: Path) -> Path:
    """About 200 MB of '0 0 m 1 1 l S' (14 M operators), deflated to a few hundred KB."""
    return raw_pdf(path, one_page(deflated(b"0 0 m 1 1 l S\n", 14_300_000), compressed=True))


def six_million_operators(path: Path) -> Path:
    return raw_pdf(path, one_page(deflated(b"0 0 m 1 1 l S\n", 2_000_000), compressed=True))


def flate_bomb(path: Path) -> Path:
    """1 MB that inflates to 1 GB of spaces: no operator in it, only bytes to decode."""
    return raw_pdf(path, one_page(deflated(b" " * 4096, 1 << 18), compressed=True))


def hundred_thousand_pages(path: Path) -> Path:
    pages = 100_000
    kids = b" ".join(b"%d 0 R" % (4 + k) for k in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages,
        stream(b"0 g 10 10 100 100 re f 1 w 0 0 m 100 100 l S"),
    ]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> "
                b"/Contents 3 0 R >>"] * pages
    return raw_pdf(path, objects)


def fan_out(path: Path) -> Path:
    """Forms calling the next form 50 times, 11 deep: 50^11 calls if followed."""
    depth, ways = 11, 50
    calls = b" ".join([b"/F Do"] * ways)
    objects = one_page(b"/F Do", resources=b"<< /XObject << /F 5 0 R >> >>")
    for level in range(depth):
        inner = 5 + level + 1
        if level == depth - 1:
            objects.append(form(b"0 0 m 1 1 l S"))
        else:
            objects.append(form(calls, b"<< /XObject << /F %d 0 R >> >>" % inner))
    return raw_pdf(path, objects)


def empty_form_calls(path: Path) -> Path:
    """A page calling a form 2,000 times that calls an empty form 2,000 times."""
    calls = b" ".join([b"/F Do"] * 2000)
    return raw_pdf(path, one_page(calls, resources=b"<< /XObject << /F 5 0 R >> >>",
                                  extra_objects=[
                                      form(calls, b"<< /XObject << /F 6 0 R >> >>"),
                                      form(b""),
                                  ]))


def huge_first_char(path: Path) -> Path:
    font = (b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar "
            + HUGE.encode() + b" /Widths [500 500] >>")
    return raw_pdf(path, one_page(b"BT /F1 12 Tf 100 100 Td (ab) Tj ET",
                                  resources=b"<< /Font << /F1 5 0 R >> >>",
                                  extra_objects=[font]))


def huge_media_box(path: Path) -> Path:
    return raw_pdf(path, one_page(b"0 g 10 10 100 100 re f",
                                  media=b"[0 0 " + HUGE.encode() + b" 792]"))


def huge_number_in_content(path: Path) -> Path:
    return raw_pdf(path, one_page(HUGE.encode() + b" w 0 0 m 1 1 l S"))


def fuzz_input(index: int, seed: int) -> Callable[[Path], Path]:
    """Input ``index`` of the fuzz run ``seed`` (bench/fuzz_hostile.py remakes any input)."""
    def make(path: Path) -> Path:
        fuzz = bench_module("fuzz_hostile")
        with tempfile.TemporaryDirectory() as work:
            _, data = fuzz.input_of(index, seed, fuzz.make_seeds(Path(work)))
        path.write_bytes(data)
        return path
    return make


def hostile_inline_image(path: Path) -> Path:
    """An inline image whose data never ends (no EI): read to the end of the stream only."""
    return raw_pdf(path, one_page(b"q 10 0 0 10 0 0 cm BI /W 4 /H 4 /BPC 8 /CS /G ID "
                                  + b"\x00" * 100_000))


def unclosed_string(path: Path) -> Path:
    return raw_pdf(path, one_page(b"BT /F1 12 Tf (" + b"((((" * 50_000))


REFUSED: dict[str, tuple[Callable[[Path], Path], str]] = {
    # name: (maker, words the one error line holds)
    "200 MB stream": (big_stream, "too complex to check"),
    "6 M operators": (six_million_operators, "too complex to check"),
    "Flate bomb": (flate_bomb, "decode to more"),
    "100,000 pages": (hundred_thousand_pages, "pages"),
    "forms 50 ways 11 deep": (fan_out, "form calls: too complex"),
    "empty form called 4 M times": (empty_form_calls, "form calls: too complex"),
    "400-digit FirstChar": (huge_first_char, "damaged PDF"),
    "400-digit MediaBox": (huge_media_box, "damaged PDF"),
    "400-digit line width": (huge_number_in_content, "number"),
    # the PDF library (qpdf) printed "Pages tree includes non-dictionary object" itself
    "fuzz seed 35 input 9792": (fuzz_input(9792, 35), "damaged PDF"),
}


@pytest.mark.parametrize("make", [hostile_inline_image, unclosed_string])
def test_damaged_content_is_reported_or_refused_not_crashed(tmp_path: Path,
                                                            make: Callable[[Path], Path]) -> None:
    path = make(tmp_path / "damaged.pdf")
    for status, err, out in preflight_bounded(path):
        assert status in (0, 1, 2), (status, err)
        assert "Traceback" not in err and err.count("\n") <= 1, err
        if status == 2:
            assert str(path) in err
        else:
            assert "hostile.pdf" not in out and "damaged.pdf" in out


def test_a_legitimate_stream_of_a_million_operators_is_checked(tmp_path: Path) -> None:
    """Under the budget, a big but honest page is read to the end and judged: half a million
    operators of 0.1 pt strokes give a line-width finding, not a refusal."""
    content = b"0.1 w " + b"100 100 m 200 200 l S\n" * 165_000
    path = raw_pdf(tmp_path / "busy.pdf", one_page(zlib.compress(content), compressed=True))
    (status, err, out), = preflight_bounded(path, ["pdfx"])
    assert status == 1, err
    assert "line-widths" in out and "0.10 pt wide" in out


def test_a_bigger_budget_is_asked_for_not_assumed(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``--seconds`` grows every count with the time; the default answers within 10 s."""
    from layout.preflight import Budget
    from nonopress.cli import main

    default, big = Budget(), Budget.scaled(60)
    assert big.cpu_seconds == 60 and big.operators == default.operators * 10
    assert big.form_calls == default.form_calls * 10 and big.pages == default.pages * 10
    path = empty_form_calls(tmp_path / "forms.pdf")  # 4 M form calls: over any budget here
    assert main(["preflight", str(path), "--profile", "kdp", "--seconds", "0"]) == 2
    assert "--seconds" in capsys.readouterr().err

"""Fuzz the readers and commands with mutated seed inputs, each run under the README's bound.

    nice python bench/fuzz_hostile.py --count 10000 [--seed 34] [--start 0] [--jobs 1]
    python bench/fuzz_hostile.py --replay 1234 [--seed 34]      # one input again, kept

Seeds (made here, from the project's own writers): PDFs for ``preflight``, pictures for
``make``, ipuz / puz / text grids for ``fill``, and YAML / JSON / webpbn XML / .non / Olsak
.g puzzles (black-and-white and colour) for the puzzle readers (``check``). Input ``i`` is
the seed ``i mod seeds`` mutated by a generator seeded with ``(--seed, i)``: byte flips,
insertions, deletions, duplicated chunks, truncation, and splices of hostile tokens (long
numbers, deep brackets, control and bidi characters, NaN, huge exponents). So a run is
reproducible and resumable (``--start``), and any input can be made again (``--replay``).

Each input runs in a child forked from this process (the modules and the solvers' kernels
are loaded once, here) with 1 GB of address space and 10 s of CPU, as the README promises;
a wall-clock limit catches a hang that spends no CPU. Counted per command: clean outcomes
(exit status 0, 1 or 2 of the table, an error as one line), tracebacks, hangs, runs over
the bound (killed by the CPU limit, MemoryError), crashes (a signal), errors of more than
one line, and other exit statuses. Every finding is written to ``--keep`` (input and
stderr) and listed at the end; the exit status is 1 when there was any.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import resource
import signal
import statistics
import struct
import sys
import tempfile
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MEMORY_BOUND = 1 << 30
CPU_BOUND_S = 10
#: a child that spends no CPU (blocked) is a hang after this long
WALL_LIMIT_S = 60.0
TRACEBACK_STATUS = 70
KINDS = ("ok", "traceback", "hang", "over_bound", "crash", "not_one_line", "other_status")

#: hostile tokens spliced into seeds
TOKENS = (
    b"9" * 400, b"9" * 5000, b"-1", b"0", b"4294967296", b"1e308", b"1e99999", b"NaN",
    b"Infinity", b"-0", b"[" * 2000, b"{" * 2000, b"<a>" * 2000, b"- " * 2000,
    b"\x1b]0;pwned\x07", b"\x1b[2J", b"\xe2\x80\xae", b"\x00", b"\xff\xfe", b"&a",
    b"*a", b"!!python/object:os.system", b"<<" * 500,
    b"/FirstChar " + b"9" * 400, b"/MediaBox [0 0 " + b"9" * 400 + b" 1e300]",
    b"/Width 100000000 /Height 100000000", b"999999x999999", b"\r\n", b"\t" * 100,
)


@dataclass(frozen=True)
class Seed:
    name: str  #: the file name the mutated input gets (its suffix picks the reader)
    data: bytes
    argv: Callable[[str], list[str]]  #: the command for a file name


# -- seeds -------------------------------------------------------------------------------
def _puzzle_seeds() -> list[Seed]:
    from grader import formats
    from grader.formats import read_any, write_any

    heart = formats.read(ROOT / "puzzles" / "heart.yaml")[0]
    ladybird = read_any(ROOT / "puzzles" / "colour" / "ladybird.yaml")[0]

    def check(name: str) -> list[str]:
        return ["check", name, "--timeout", "3"]

    seeds = [Seed(f"heart.{suffix}", formats.write(heart, fmt), check)
             for suffix, fmt in (("yaml", "yaml"), ("json", "json"), ("xml", "xml"),
                                 ("non", "non"), ("g", "g"))]
    seeds += [Seed(f"ladybird.{suffix}", write_any([ladybird], fmt), check)
              for suffix, fmt in (("yaml", "yaml"), ("xml", "xml"), ("g", "g"))]
    return seeds


def _grid_seeds() -> list[Seed]:
    from grader.results import Budget
    from words.fill import fill as fill_grid
    from words.formats import read_grid_file, write_grid
    from words.wordlist import default_word_list

    blank = read_grid_file(ROOT / "puzzles" / "fillins" / "diamond-9.txt").grid
    filled = fill_grid(blank, default_word_list(), seed=0, budget=Budget(seconds=30))
    grid = filled.grid if filled.grid is not None else blank

    def fill(name: str) -> list[str]:
        return ["fill", name, "--timeout", "3"]

    return [Seed("grid.ipuz", write_grid(grid, "ipuz", title="Fuzz"), fill),
            Seed("grid.puz", write_grid(grid, "puz", title="Fuzz"), fill),
            Seed("grid.txt", (ROOT / "puzzles" / "fillins" / "diamond-9.txt").read_bytes(),
                 fill)]


def _picture_seeds() -> list[Seed]:
    import io

    from PIL import Image

    image = Image.new("L", (40, 40), 255)
    image.paste(0, (8, 4, 32, 36))
    image.paste(255, (14, 10, 26, 30))
    seeds = []
    for fmt, suffix in (("PNG", "png"), ("GIF", "gif"), ("BMP", "bmp"), ("JPEG", "jpg")):
        buffer = io.BytesIO()
        image.save(buffer, format=fmt)
        seeds.append(Seed(f"picture.{suffix}", buffer.getvalue(), lambda name: [
            "make", name, "--size", "12x12", "--seconds", "3", "-q", "-o", "made.non"]))
    return seeds


def _pdf_seeds(folder: Path) -> list[Seed]:
    from nonopress.cli import main

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "heart.yaml").write_bytes((ROOT / "puzzles" / "heart.yaml").read_bytes())
    seeds = []
    for profile in ("kdp", "pdfx"):
        manifest = folder / f"{profile}.yaml"
        manifest.write_text(f"title: Fuzz\nprofile: {profile}\npuzzles: [heart.yaml]\n")
        pdf = folder / f"{profile}.pdf"
        with contextlib.redirect_stderr(open(os.devnull, "w")):
            main(["issue", str(manifest), "-o", str(pdf), "--no-cache", "-q"])
        seeds.append(Seed(f"issue-{profile}.pdf", pdf.read_bytes(), lambda name, p=profile: [
            "preflight", name, "--profile", p]))
    return seeds


def make_seeds(folder: Path) -> list[Seed]:
    return [*_pdf_seeds(folder), *_picture_seeds(), *_grid_seeds(), *_puzzle_seeds()]


# -- mutation ----------------------------------------------------------------------------
TEXT_SUFFIXES = (".yaml", ".json", ".xml", ".non", ".g", ".txt", ".ipuz")
PICTURE_SUFFIXES = (".png", ".gif", ".bmp", ".jpg")
_NUMBER = re.compile(rb"[0-9]+(?:\.[0-9]+)?")


def _token_for_number(out: bytearray, rng: random.Random) -> None:
    numbers = list(_NUMBER.finditer(out))
    token = rng.choice(TOKENS)
    if numbers:
        match = rng.choice(numbers)
        out[match.start():match.end()] = rng.choice((token, b"9" * rng.choice((7, 41, 400)),
                                                     b"-" + match.group(), b"0",
                                                     str(rng.randrange(1 << 31)).encode()))
    else:
        where = rng.randrange(len(out) + 1)
        out[where:where] = token


def _lines_edit(out: bytearray, rng: random.Random) -> None:
    lines = bytes(out).split(b"\n")
    if len(lines) < 2:
        return
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    edit = rng.randrange(3)
    if edit == 0:  # a line many times over
        lines[a:a + 1] = [lines[a]] * rng.choice((2, 50, 5000))
    elif edit == 1:
        del lines[a]
    else:
        lines[a], lines[b] = lines[b], lines[a]
    out[:] = b"\n".join(lines)


def _byte_edit(out: bytearray, rng: random.Random) -> None:
    where = rng.randrange(len(out) + 1)
    edit = rng.randrange(5)
    if edit == 0 and out:  # flip bits
        for _ in range(rng.randint(1, 8)):
            spot = rng.randrange(len(out))
            out[spot] ^= 1 << rng.randrange(8)
    elif edit == 1:  # random bytes
        out[where:where] = rng.randbytes(rng.randint(1, 32))
    elif edit == 2:  # delete a chunk
        del out[where:where + rng.randint(1, 64)]
    elif edit == 3 and out:  # a chunk duplicated, maybe many times
        start = rng.randrange(len(out))
        chunk = out[start:start + rng.randint(1, 256)]
        out[where:where] = chunk * rng.choice((1, 2, 10, 1000))
    else:  # truncated
        del out[where:]


def _png_header(out: bytearray, rng: random.Random) -> None:
    """A PNG whose IHDR claims another size (its checksum made right): decoders trust it."""
    if out[:8] != b"\x89PNG\r\n\x1a\n" or len(out) < 33:
        return
    width = rng.choice((1, 7, 6300, 100_000, 39_000_000, (1 << 31) - 1))
    height = rng.choice((1, 7, 6300, 100_000, 39_000_000, (1 << 31) - 1))
    out[16:24] = struct.pack(">II", width, height)
    out[29:33] = struct.pack(">I", zlib.crc32(bytes(out[12:29])) & 0xFFFFFFFF)


#: picture sizes a decoder may be asked for: honest, tiny, and big but cheap to store
PICTURE_SIDES = (1, 2, 40, 640, 6300, 20_000, 1_000_000, 39_000_000)


def _new_picture(out: bytearray, rng: random.Random) -> None:
    """A well-formed picture of an extreme size or mode in place of the seed: byte edits
    rarely make one a decoder accepts. At most 40 M pixels, mostly one colour, so its
    file stays small (a 6300x6300 1-bit PNG is 15 KB) while its pixels are many."""
    import io

    from PIL import Image

    width, height = rng.choice(PICTURE_SIDES), rng.choice(PICTURE_SIDES)
    while width * height > 40_000_000:
        height = max(height // 10, 1)
    mode = rng.choice(("1", "L", "P", "RGB", "RGBA", "I;16", "LA"))
    image = Image.new(mode, (width, height), 0)
    if width > 4 and height > 4:
        image.paste(255 if mode in ("1", "L", "P", "I;16") else (255,) * len(mode),
                    (width // 4, height // 4, width // 2, height // 2))
    fmt = rng.choice(("PNG", "GIF", "TIFF", "BMP")) if mode in ("1", "L", "P") else "PNG"
    buffer = io.BytesIO()
    try:
        image.save(buffer, format=fmt, optimize=False)
    except (OSError, ValueError, OverflowError, struct.error):  # a size or mode the
        buffer = io.BytesIO()  # format cannot hold (GIF and BMP sides are 16 bits)
        image.convert("L").save(buffer, format="PNG")
    out[:] = buffer.getvalue()


def _deflated(unit: bytes, times: int) -> bytes:
    """``unit * times`` Flate-compressed, without holding it whole."""
    packer = zlib.compressobj(9)
    block = unit * max(1, (1 << 20) // len(unit))
    parts, left = [], times * len(unit)
    while left > 0:
        piece = block[:left]
        parts.append(packer.compress(piece))
        left -= len(piece)
    parts.append(packer.flush())
    return b"".join(parts)


def _new_pdf(out: bytearray, rng: random.Random) -> None:
    """A well-formed PDF shaped to cost: one long content stream (up to 20 M operators,
    Flate-compressed), thousands of pages sharing a stream, forms calling forms (fan-out
    and depth), or odd page boxes. Byte edits of a seed rarely keep a PDF readable."""
    import io

    import pikepdf

    pdf = pikepdf.new()
    kind = rng.randrange(4)
    box = [0, 0, 612, 792]
    if kind == 3:
        box = [rng.choice((0, -1e30, 1e30, 0.0001)), 0, rng.choice((612, 1e38, 0, -612)),
               rng.choice((792, 1e38, 1))]
    if kind == 0:
        count = rng.choice((1_000, 1_000_000, 20_000_000))
        stream = pikepdf.Stream(pdf, _deflated(b"0 0 m 1 1 l S\n", count))
        stream.Filter = pikepdf.Name.FlateDecode
        pages, content = 1, stream
    else:
        pages = rng.choice((1, 100, 5_000)) if kind == 1 else 1
        content = pdf.make_stream(b"0 0 m 1 1 l S\n")
    resources = pikepdf.Dictionary()
    if kind == 2:
        fanout, depth = rng.choice(((50, 4), (2_000, 2), (3, 12)))
        inner: pikepdf.Object | None = None
        for _ in range(depth):
            body = b"" if inner is None else b"/F Do\n" * fanout
            form = pdf.make_stream(body)
            form.Type, form.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
            form.BBox = [0, 0, 10, 10]
            if inner is not None:
                form.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=inner))
            inner = form
        content = pdf.make_stream(b"/F Do\n" * fanout)
        resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=inner))
    for _ in range(pages):
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=box, Contents=content,
                                  Resources=resources)
        pdf.pages.append(pikepdf.Page(page))
    buffer = io.BytesIO()
    pdf.save(buffer)
    out[:] = buffer.getvalue()


def mutate(data: bytes, rng: random.Random, text: bool, picture: bool = False) -> bytes:
    """``data`` changed by one to three random edits; text seeds mostly keep their
    encoding and shape (numbers, lines), so the edits reach past the parser's first check;
    a picture seed is often replaced by a well-formed picture of an extreme size."""
    out = bytearray(data)
    edits = ((_token_for_number, 5), (_lines_edit, 3), (_byte_edit, 2)) if text else \
        ((_byte_edit, 5), (_token_for_number, 3), (_png_header, 2))
    if data[:5] == b"%PDF-" and rng.random() < 0.3:  # a PDF shaped to cost, as it is
        _new_pdf(out, rng)
        return bytes(out)
    if picture and rng.random() < 0.3:  # a new picture, maybe then edited
        _new_picture(out, rng)
        edits = ((_png_header, 1),) if rng.random() < 0.3 else ()
        if not edits:
            return bytes(out)
    functions, weights = zip(*edits, strict=True)
    for edit in rng.choices(functions, weights, k=rng.randint(1, 3)):
        edit(out, rng)
    return bytes(out)


def input_of(index: int, seed: int, seeds: list[Seed]) -> tuple[Seed, bytes]:
    rng = random.Random(f"{seed}:{index}")
    base = seeds[index % len(seeds)]
    return base, mutate(base.data, rng, base.name.endswith(TEXT_SUFFIXES),
                        base.name.endswith(PICTURE_SUFFIXES))


# -- running -----------------------------------------------------------------------------
@dataclass
class Running:
    index: int
    seed: Seed
    folder: Path
    pid: int
    started: float
    cpu: float = 0.0


def start_child(index: int, base: Seed, data: bytes, workroot: Path) -> Running:
    folder = workroot / f"input-{index}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / base.name).write_bytes(data)
    argv = base.argv(base.name)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: bounded, its output in files, never returns
        status = TRACEBACK_STATUS
        try:
            os.chdir(folder)
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))
            resource.setrlimit(resource.RLIMIT_CPU, (CPU_BOUND_S, CPU_BOUND_S + 1))
            for fd, name in ((1, "stdout"), (2, "stderr")):
                target = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(target, fd)
                os.close(target)
            from grader import inputs
            from nonopress.cli import main

            inputs.WAIT_SECONDS = 0.3
            status = main(argv)
        except BaseException:
            traceback.print_exc()
            status = TRACEBACK_STATUS
        finally:
            with contextlib.suppress(BaseException):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(status if 0 <= status < 256 else TRACEBACK_STATUS)
    return Running(index, base, folder, pid, time.monotonic())


def classify(status: int, err: str) -> str:
    if os.WIFSIGNALED(status):
        if os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL) or "bad_alloc" in err:
            return "over_bound"  # the CPU limit, or C++ code (qpdf) out of memory
        return "crash"
    code = os.WEXITSTATUS(status)
    if "MemoryError" in err:
        return "over_bound"
    if "Traceback" in err or code == TRACEBACK_STATUS:
        return "traceback"
    if code not in (0, 1, 2):
        return "other_status"
    errors = [line for line in err.splitlines() if line.strip()
              and "warning" not in line]
    if code == 2 and len(errors) != 1:
        return "not_one_line"
    return "ok"


@dataclass
class Finding:
    index: int
    command: str
    kind: str
    detail: str


def run(args: argparse.Namespace) -> int:
    from grader.colour.solver import warm_up
    from grader.solver import ensure_compiled
    from nonopress.cli import build_parser
    from words.wordlist import default_word_list

    ensure_compiled()  # loaded once here, inherited by every child
    warm_up()
    default_word_list()
    build_parser()  # every command module imported here too, not by each child
    workroot = Path(tempfile.mkdtemp(prefix="nonopress-fuzz-"))
    seeds = make_seeds(workroot / "seeds")
    keep = Path(args.keep)
    keep.mkdir(parents=True, exist_ok=True)
    counts: dict[str, Counter[str]] = {}
    findings: list[Finding] = []
    cpu_times: list[float] = []
    exits: dict[str, Counter[int]] = {}  # command -> exit status -> inputs
    running: dict[int, Running] = {}
    pending = iter(range(args.start, args.start + args.count))
    done = 0
    started = time.monotonic()
    log = open(keep / "findings.jsonl", "a", encoding="utf-8")  # noqa: SIM115
    while True:
        while len(running) < args.jobs:
            index = next(pending, None)
            if index is None:
                break
            base, data = input_of(index, args.seed, seeds)
            child = start_child(index, base, data, workroot)
            running[child.pid] = child
        if not running:
            break
        pid, status, usage = os.wait4(-1, os.WNOHANG)
        if pid == 0:
            now = time.monotonic()
            for child in list(running.values()):
                if now - child.started > WALL_LIMIT_S:
                    os.kill(child.pid, signal.SIGKILL)
                    os.waitpid(child.pid, 0)
                    del running[child.pid]
                    done += 1
                    _record(child, "hang", "", counts, findings, keep, log)
            time.sleep(0.005)
            continue
        child = running.pop(pid)
        done += 1
        cpu_times.append(usage.ru_utime + usage.ru_stime)
        err = (child.folder / "stderr").read_text("utf-8", "replace")
        kind = classify(status, err)
        if os.WIFEXITED(status):
            exits.setdefault(child.seed.argv("")[0], Counter())[os.WEXITSTATUS(status)] += 1
        _record(child, kind, err, counts, findings, keep, log)
        if kind == "ok":
            _remove(child.folder)
        if args.progress and done % args.progress == 0:
            print(f"{done}/{args.count} inputs, {len(findings)} findings, "
                  f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    log.close()
    _remove(workroot)
    _summary(counts, findings, cpu_times, time.monotonic() - started, args)
    print("exit statuses: " + "; ".join(
        f"{command} " + " ".join(f"{code}:{n}" for code, n in sorted(counter.items()))
        for command, counter in sorted(exits.items())))
    return 1 if findings else 0


def _record(child: Running, kind: str, err: str, counts: dict[str, Counter[str]],
            findings: list[Finding], keep: Path, log: object) -> None:
    command = child.seed.argv(child.seed.name)[0]
    counts.setdefault(command, Counter())[kind] += 1
    if kind == "ok":
        return
    lines = [line for line in err.strip().splitlines() if line.strip()]
    detail = lines[-1][:200] if lines else ""
    finding = Finding(child.index, command, kind, detail)
    findings.append(finding)
    target = keep / f"{child.index}-{kind}-{child.seed.name}"
    with contextlib.suppress(OSError):
        target.write_bytes((child.folder / child.seed.name).read_bytes())
        target.with_name(target.name + ".stderr").write_text(err, encoding="utf-8")
    print(json.dumps(finding.__dict__), file=log, flush=True)  # type: ignore[call-overload]


def _remove(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def _summary(counts: dict[str, Counter[str]], findings: list[Finding],
             cpu_times: list[float], wall: float, args: argparse.Namespace) -> None:
    total = Counter[str]()
    for counter in counts.values():
        total.update(counter)
    print(f"fuzz_hostile: {sum(total.values())} inputs (seed {args.seed}, from {args.start}) "
          f"in {wall:.0f} s; median child CPU "
          f"{statistics.median(cpu_times) if cpu_times else 0:.2f} s, "
          f"max {max(cpu_times, default=0):.2f} s")
    print("command     " + " ".join(f"{kind:>12}" for kind in KINDS))
    for command, counter in sorted(counts.items()):
        print(f"{command:<12}" + " ".join(f"{counter[kind]:>12}" for kind in KINDS))
    print("total       " + " ".join(f"{total[kind]:>12}" for kind in KINDS))
    for finding in findings[:50]:
        print(f"  #{finding.index} {finding.command} {finding.kind}: {finding.detail}")
    if findings:
        print(f"inputs and their stderr kept in {args.keep}")


def replay(args: argparse.Namespace) -> int:
    """Write input ``--replay`` into ``--keep`` and print the command that runs it."""
    workroot = Path(tempfile.mkdtemp(prefix="nonopress-fuzz-seeds-"))
    seeds = make_seeds(workroot)
    base, data = input_of(args.replay, args.seed, seeds)
    keep = Path(args.keep)
    keep.mkdir(parents=True, exist_ok=True)
    path = keep / f"replay-{args.replay}-{base.name}"
    path.write_bytes(data)
    print(" ".join(["nonopress", *base.argv(str(path))]))
    _remove(workroot)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="inputs to run (default 300)")
    parser.add_argument("--seed", type=int, default=34, help="the run's seed (default 34)")
    parser.add_argument("--start", type=int, default=0,
                        help="first input's number: resume a run where it stopped")
    parser.add_argument("--jobs", type=int, default=1, help="children at a time (default 1)")
    parser.add_argument("--keep", default=os.path.join(tempfile.gettempdir(),
                                                       "nonopress-fuzz-findings"),
                        help="folder for the inputs that found something")
    parser.add_argument("--progress", type=int, default=100, metavar="N",
                        help="a progress line every N inputs (0: none)")
    parser.add_argument("--replay", type=int, metavar="I",
                        help="write input I (of --seed) and print its command; run nothing")
    args = parser.parse_args()
    if args.replay is not None:
        return replay(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())

"""Content streams read as a stream: decoded chunk by chunk and split into operators as they
arrive, so that no stream is ever held whole in memory (a Flate bomb or a 200 MB stream is
counted against the budget as it decodes, never allocated first).

    for op, operands in operations(decoded(stream, budget), budget):
        ...

Operands come back as plain Python values: ``float`` numbers, :class:`Name` names, ``bytes``
strings, ``list`` arrays and ``dict`` dictionaries. An inline image comes back as the one
operator ``BI`` with its dictionary and the length of its data.
"""

from __future__ import annotations

import base64
import binascii
import re
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pikepdf

#: Decoded bytes handed to the tokenizer at a time.
CHUNK = 1 << 18
#: A single token (a string, an inline image) longer than this is refused.
MAX_TOKEN = 8 << 20
#: Streams with a filter this reader does not stream (LZW, run length, predictors) are decoded
#: whole by the PDF library, but only when so small that no expansion can hurt.
MAX_WHOLE_RAW = 64 << 10
#: Digits (and sign and point) a number may have: more is a hostile file, not a coordinate.
MAX_NUMBER_CHARS = 32
#: Nesting of arrays and dictionaries inside one operand.
MAX_NESTING = 32


class ContentError(Exception):
    """The content cannot be read to the end: damaged, hostile, or over the budget."""


class Name(str):
    """A PDF name, without its slash."""


@dataclass
class Budget:
    """What one preflight may spend: operators, form calls, pages, decoded bytes and CPU time.

    Every form call counts, an empty one too: a page calling an empty form millions of times
    costs time even though it paints nothing.
    """

    operators: int = 2_000_000
    form_calls: int = 20_000
    pages: int = 5_000
    decoded_bytes: int = 512 << 20
    cpu_seconds: float = 6.0
    started: float = 0.0

    @classmethod
    def scaled(cls, seconds: float) -> Budget:
        """A budget of ``seconds`` of CPU, the counts grown in proportion (the default is
        6 s: any file answered within the README's 10 s; a book of 800 busy pages may need
        more, given by ``preflight --seconds`` or by ``issue`` for the file it wrote)."""
        base = cls()
        factor = max(seconds / base.cpu_seconds, 1.0)
        return cls(operators=int(base.operators * factor),
                   form_calls=int(base.form_calls * factor),
                   pages=int(base.pages * factor),
                   decoded_bytes=int(base.decoded_bytes * factor),
                   cpu_seconds=seconds)

    def __post_init__(self) -> None:
        self.limits = (self.operators, self.form_calls)

    def start(self) -> None:
        self.started = time.process_time()

    def spend_operators(self, count: int) -> None:
        self.operators -= count
        if self.operators < 0:
            raise ContentError(f"over {self.limits[0]:,} operators: too complex to check")
        self.check_time()

    def spend_form_call(self) -> None:
        self.form_calls -= 1
        if self.form_calls < 0:
            raise ContentError(f"over {self.limits[1]:,} form calls: too complex to check")

    def spend_bytes(self, count: int) -> None:
        self.decoded_bytes -= count
        if self.decoded_bytes < 0:
            raise ContentError("content streams decode to more than the preflight reads")
        self.check_time()

    def check_time(self) -> None:
        if self.started and time.process_time() - self.started > self.cpu_seconds:
            raise ContentError(f"over {self.cpu_seconds:g} s of CPU: too complex to check")


def _filters(stream: Any) -> tuple[list[str], list[Any]]:
    filters = stream.get("/Filter")
    parms = stream.get("/DecodeParms")
    names = ([] if filters is None else
             [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)])
    if parms is None:
        params: list[Any] = [None] * len(names)
    elif isinstance(parms, pikepdf.Array):
        params = [None if p is None or isinstance(p, type(None)) else p for p in parms]
    else:
        params = [parms]
    params += [None] * (len(names) - len(params))
    return names, params


def _flate(chunks: Iterable[bytes]) -> Iterator[bytes]:
    inflater = zlib.decompressobj()
    try:
        for chunk in chunks:
            data = inflater.decompress(chunk, CHUNK)
            while True:
                if data:
                    yield data
                if not inflater.unconsumed_tail:
                    break
                data = inflater.decompress(inflater.unconsumed_tail, CHUNK)
            if inflater.eof:
                return
        rest = inflater.flush()
        if rest:
            yield rest
    except zlib.error as exc:
        raise ContentError(f"a content stream cannot be decompressed ({exc})") from None


def _ascii_hex(chunks: Iterable[bytes]) -> Iterator[bytes]:
    pending = b""
    for chunk in chunks:
        end = chunk.find(b">")
        digits = pending + re.sub(rb"[\s\x00]", b"", chunk if end < 0 else chunk[:end])
        even = len(digits) - len(digits) % 2
        try:
            yield binascii.unhexlify(digits[:even])
        except binascii.Error:
            raise ContentError("a content stream's ASCIIHex data is damaged") from None
        pending = digits[even:]
        if end >= 0:
            break
    if pending:
        yield binascii.unhexlify(pending + b"0")


def _ascii85(chunks: Iterable[bytes]) -> Iterator[bytes]:
    pending = b""
    for chunk in chunks:
        end = chunk.find(b"~>")
        text = pending + re.sub(rb"[\s\x00]", b"", chunk if end < 0 else chunk[:end])
        # decode whole groups only ('z' stands for a group of its own)
        cut = len(text)
        if end < 0:
            count = 0
            cut = 0
            for i, byte in enumerate(text):
                count = 0 if byte == 0x7A and count == 0 else count + 1
                if count in (0, 5):
                    count = 0
                    cut = i + 1
        try:
            yield base64.a85decode(text[:cut])
        except ValueError:
            raise ContentError("a content stream's ASCII85 data is damaged") from None
        pending = text[cut:]
        if end >= 0:
            return


def _raw_chunks(raw: bytes) -> Iterator[bytes]:
    view = memoryview(raw)
    for start in range(0, len(raw), CHUNK):
        yield bytes(view[start:start + CHUNK])


def _ascii_decoded(owner: pikepdf.Pdf, raw: bytes, filters: list[str]) -> bytes:
    holder = pikepdf.Stream(owner, b"")
    holder.write(raw, filter=pikepdf.Array([pikepdf.Name(name) for name in filters]))
    try:
        return bytes(holder.read_bytes())
    except pikepdf.PdfError as exc:
        raise ContentError(f"a content stream's ASCII data is damaged ({exc})") from None


def decoded(stream: Any, budget: Budget, owner: pikepdf.Pdf | None = None) -> Iterator[bytes]:
    """The decoded bytes of one stream, chunk by chunk, each counted against ``budget``
    (``owner``, the file of the stream, lets the PDF library decode its ASCII filters)."""
    names, params = _filters(stream)
    streamable = all(n in ("/FlateDecode", "/Fl", "/ASCIIHexDecode", "/AHx", "/ASCII85Decode",
                           "/A85") for n in names)
    predictor = any(p is not None and "/Predictor" in p and int(p.Predictor) > 1
                    for p in params if isinstance(p, pikepdf.Dictionary))
    raw = stream.read_raw_bytes()
    chunks: Iterable[bytes]
    if streamable and not predictor:
        # ASCII filters only shrink their data: the PDF library's C++ decodes them at once
        # (Python's a85decode is slow); Flate, which can grow a thousandfold, streams here
        ascii_filters = ("/ASCIIHexDecode", "/AHx", "/ASCII85Decode", "/A85")
        leading = 0
        while leading < len(names) and names[leading] in ascii_filters:
            leading += 1
        if leading and owner is not None:
            raw = _ascii_decoded(owner, raw, names[:leading])
            names = names[leading:]
        chunks = _raw_chunks(raw)
        for name in names:
            chunks = (_flate(chunks) if name in ("/FlateDecode", "/Fl") else
                      _ascii_hex(chunks) if name in ("/ASCIIHexDecode", "/AHx") else
                      _ascii85(chunks))
    elif len(raw) <= MAX_WHOLE_RAW:
        del raw
        try:
            chunks = _raw_chunks(stream.read_bytes())
        except pikepdf.PdfError as exc:
            raise ContentError(f"a content stream cannot be decoded ({exc})") from None
    else:
        raise ContentError(f"a content stream of {len(raw):,} bytes with filters "
                           f"{' '.join(names)} is more than this preflight decodes")
    for chunk in chunks:
        budget.spend_bytes(len(chunk))
        yield chunk


# -- tokens -------------------------------------------------------------------------------------

_TOKEN = re.compile(
    rb"[ \t\r\n\f\x00]*+(?:"
    rb"(?P<space>%[^\r\n]*)"
    rb"|(?P<number>[+-]?(?:\d+\.?\d*|\.\d+))(?=[^0-9A-Za-z.]|\Z)"
    rb"|(?P<name>/[^ \t\r\n\f\x00()<>\[\]{}/%]*)"
    rb"|(?P<string>\((?:[^()\\]|\\.)*\))"
    rb"|(?P<hex><[0-9A-Fa-f \t\r\n\f\x00]*(?:>|\Z))"
    rb"|(?P<open><<|\[)"
    rb"|(?P<close>>>|\])"
    rb"|(?P<paren>\()"
    rb"|(?P<word>[^ \t\r\n\f\x00()<>\[\]{}/%]+)"
    rb"|(?P<junk>[^ \t\r\n\f\x00]))",
    re.DOTALL,
)
#: The common case, matched in one step: numbers, then the operator they belong to.
_FAST = re.compile(
    rb"[ \t\r\n\f\x00]*+((?:[+-]?(?:\d+\.?\d*|\.\d+)[ \t\r\n\f\x00]++)*+)"
    rb"([A-Za-z'\"*][A-Za-z0-9'\"*]*)(?=[ \t\r\n\f\x00/\[<(%]|\Z)"
)
#: The operators of PDF as text, looked up rather than decoded a million times.
_OPERATOR_NAMES = (
    "b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K "
    "k l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w "
    "W W* y")
_OPERATORS = {op.encode(): op for op in _OPERATOR_NAMES.split()}
_NOT_FAST = frozenset((b"BI", b"ID", b"true", b"false", b"null"))
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f", b"(": b"(",
            b")": b")", b"\\": b"\\"}
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\r\n|.)", re.DOTALL)


def _unescape(body: bytes) -> bytes:
    if b"\\" not in body:
        return body

    def one(match: re.Match[bytes]) -> bytes:
        code = match.group(1)
        if code[:1].isdigit():
            return bytes([int(code, 8) & 0xFF])
        if code in (b"\n", b"\r", b"\r\n"):
            return b""
        return _ESCAPES.get(code, code)

    return _ESCAPE.sub(one, body)


def _balanced_string(buf: bytes, start: int) -> int:
    """The end (exclusive) of the literal string opening at ``start``, or -1 if not in buf."""
    depth = 0
    i = start
    n = len(buf)
    while i < n:
        byte = buf[i]
        if byte == 0x5C:  # backslash
            i += 2
            continue
        if byte == 0x28:
            depth += 1
        elif byte == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


_INLINE_END = re.compile(rb"[ \t\r\n\f\x00]EI(?=[ \t\r\n\f\x00]|\Z)")
_INLINE_KEYS = {"/BPC": "/BitsPerComponent", "/CS": "/ColorSpace", "/D": "/Decode",
                "/DP": "/DecodeParms", "/F": "/Filter", "/H": "/Height", "/IM": "/ImageMask",
                "/W": "/Width", "/I": "/Interpolate"}


def _number(text: bytes) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise ContentError(f"a number of {len(text)} characters in a content stream")
    return float(text)


def operations(chunks: Iterable[bytes], budget: Budget) -> Iterator[tuple[str, list[Any]]]:
    """(operator, operands) for each operator in the concatenated ``chunks``."""
    source = iter(chunks)
    buf = b""
    final = False
    operands: list[Any] = []
    nest: list[list[Any]] = []  # open arrays and dictionaries (dictionaries as flat lists)
    count = 0
    image: dict[str, Any] | None = None  # an inline image's dictionary, waiting for its data
    try_fast = True
    while True:
        pos = 0
        n = len(buf)
        need_more = False
        while pos < n:
            if image is not None:  # the data of an inline image: up to whitespace EI
                found = _INLINE_END.search(buf, pos)
                if found is None and not final:
                    need_more = True
                    break
                end = found.start() if found is not None else n
                yield "BI", [image, end - pos]
                count += 1
                image = None
                pos = found.end() if found is not None else n
                continue
            if not nest and try_fast:
                fast = _FAST.match(buf, pos)
                # after a miss, the slow path reads on to the next operator (no retrying
                # the fast pattern at every number of a long run: that would be quadratic)
                try_fast = fast is not None
                if fast is not None and (fast.end() < n or final):
                    word = fast.group(2)
                    if word not in _NOT_FAST:
                        numbers = fast.group(1).split()
                        if fast.end(1) - fast.start(1) > MAX_NUMBER_CHARS:
                            for text in numbers:  # one of them may be too long
                                _number(text)
                        operands.extend(map(float, numbers))
                        pos = fast.end()
                        count += 1
                        if count >= 4096:
                            budget.spend_operators(count)
                            count = 0
                        op = _OPERATORS.get(word)
                        yield op if op is not None else word.decode("latin-1"), operands
                        operands = []
                        continue
            match = _TOKEN.match(buf, pos)
            if match is None:  # only whitespace is left
                if not final:
                    need_more = True
                pos = n
                break
            kind = match.lastgroup
            if match.end() == n and not final and kind != "close":
                need_more = True
                break
            pos = match.end()
            if kind == "space":
                continue
            value: Any
            if kind == "number":
                value = _number(match.group(kind))
            elif kind == "name":
                value = Name(_name_text(match.group(kind)))
            elif kind == "string":
                value = _unescape(match.group(kind)[1:-1])
            elif kind == "paren":  # a string with nested parentheses
                start = match.start("paren")
                end = _balanced_string(buf, start)
                if end < 0:
                    if not final:
                        need_more = True
                        pos = start
                        break
                    end = n
                value = _unescape(buf[start + 1:end - 1])
                pos = end
            elif kind == "hex":
                digits = re.sub(rb"[^0-9A-Fa-f]", b"", match.group(kind))
                value = binascii.unhexlify(digits + b"0" * (len(digits) % 2))
            elif kind == "open":
                if len(nest) >= MAX_NESTING:
                    raise ContentError("arrays nested too deep in a content stream")
                nest.append([match.group(kind)])
                continue
            elif kind == "close":
                if not nest:
                    continue
                opened = nest.pop()
                items = opened[1:]
                value = items if opened[0] == b"[" else _dictionary(items)
            elif kind == "word":
                word = match.group(kind)
                if word in (b"true", b"false", b"null"):
                    value = {b"true": True, b"false": False, b"null": None}[word]
                elif nest:
                    value = Name(word.decode("latin-1"))  # a stray word inside an array
                else:
                    op = word.decode("latin-1")
                    count += 1
                    if count >= 4096:
                        budget.spend_operators(count)
                        count = 0
                    if op == "BI":
                        operands = []
                    elif op == "ID":
                        image = _inline_dictionary(operands)
                        if pos < n and buf[pos] in b" \t\r\n\f\x00":
                            pos += 1  # the one whitespace byte after ID
                        operands = []
                    else:
                        yield op, operands
                        operands = []
                    try_fast = True
                    continue
            else:  # junk: a stray byte
                continue
            if nest:
                nest[-1].append(value)
                if len(nest[-1]) > 1 << 20:
                    raise ContentError("an array of over a million items in a content stream")
            else:
                operands.append(value)
                if len(operands) > 1 << 16:
                    raise ContentError("over 65,536 operands before an operator")
        if final:
            break
        buf = buf[pos:]
        if need_more and len(buf) > MAX_TOKEN:
            raise ContentError(f"a token longer than {MAX_TOKEN >> 20} MB in a content stream")
        try:
            buf += next(source)
        except StopIteration:
            final = True
    budget.spend_operators(count)


def _name_text(token: bytes) -> str:
    text = token[1:].decode("latin-1")
    if "#" in text:
        text = re.sub(r"#([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)
    return text


def _dictionary(items: list[Any]) -> dict[str, Any]:
    return {f"/{items[k]}": items[k + 1] for k in range(0, len(items) - 1, 2)
            if isinstance(items[k], Name)}


def _inline_dictionary(operands: list[Any]) -> dict[str, Any]:
    raw = _dictionary(operands)
    return {_INLINE_KEYS.get(key, key): value for key, value in raw.items()}

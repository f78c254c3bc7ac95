"""Where a line of print may break: between words in a Latin script, between any two
characters in Japanese but not at the positions Japanese typesetting forbids (kinsoku shori,
JIS X 4051): no line starts with a closing bracket, a comma or full stop, a small kana or
the long-vowel mark, and none ends with an opening bracket. A run of Latin letters or digits
inside Japanese ("マス1-12") is one unit, as a word is.

Pure text logic: the caller measures (``layout.fonts.wrap_words`` with the font's widths).
"""

from __future__ import annotations

from collections.abc import Callable

#: may not start a line (closing brackets, stops, small kana, prolonged sound mark, ...)
NO_START = frozenset(
    "、。，．・：；？！゛゜ヽヾゝゞ々〻ー‐゠–〜～"
    "）］｝〕〉》」』】〙〗〟’”｠»"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    ",.:;?!)]}%"
)
#: may not end a line (opening brackets, quotes)
NO_END = frozenset("（［｛〔〈《「『【〘〖〝‘“｟«([{")


def ideographic(char: str) -> bool:
    """A character Japanese text breaks around: kana, kanji, CJK and full-width signs."""
    code = ord(char)
    return (0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF
            or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF or 0x31F0 <= code <= 0x31FF)


def units(text: str) -> list[tuple[str, bool]]:
    """``text`` as the pieces a line may break between, each with whether a space stood
    before it (kept when the two pieces share a line, dropped at a break)."""
    pieces: list[tuple[str, bool]] = []
    for word_index, word in enumerate(text.split()):
        spaced = word_index > 0
        run = ""
        for char in word:
            if ideographic(char):
                if run:
                    pieces.append((run, spaced))
                    spaced, run = False, ""
                pieces.append((char, spaced))
                spaced = False
            else:
                run += char
        if run:
            pieces.append((run, spaced))
    # kinsoku: a piece that may not start a line joins the one before; an opening bracket
    # joins the one after
    glued: list[tuple[str, bool]] = []
    for piece, spaced in pieces:
        if glued and not spaced and (piece[0] in NO_START or glued[-1][0][-1] in NO_END):
            before, before_spaced = glued.pop()
            glued.append((before + piece, before_spaced))
        else:
            glued.append((piece, spaced))
    return glued


def wrap(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """``text`` in lines no wider than ``width`` (``measure`` gives a text's width), broken
    only where :func:`units` allows; a unit wider than a line is broken between its
    characters (never cut short)."""
    lines: list[str] = []
    current = ""
    for piece, spaced in units(text):
        candidate = f"{current} {piece}" if current and spaced else current + piece
        if measure(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        if measure(piece) <= width:
            current = piece
            continue
        for char in piece:  # wider than the line: as many characters a line as fit
            if current and measure(current + char) > width:
                lines.append(current)
                current = ""
            current += char
    if current or not lines:
        lines.append(current)
    return lines


__all__ = ["NO_END", "NO_START", "ideographic", "units", "wrap"]

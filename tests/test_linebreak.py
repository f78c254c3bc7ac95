"""Line breaking in print (layout/linebreak.py): Latin text breaks between words only;
Japanese between characters, but never before a closing bracket, a stop or a small kana,
never after an opening bracket, and never inside a run of digits such as "1-12"."""

from __future__ import annotations

import itertools

import pytest

from layout.linebreak import NO_END, NO_START, units, wrap

JAPANESE = ("1行目（ヒント 3 pink）：yellow、greenまたはterracottaのブロックはないので、"
            "マス1-12はyellow、greenまたはterracottaではない。「7」はどこに置いてもマス1-7を覆う。"
            "ちょっとした練習です。")


def _chars(line: str) -> float:
    return float(len(line))


@pytest.mark.parametrize("width", range(12, 40))  # "terracotta" and its mark fit
def test_japanese_never_breaks_at_a_forbidden_position(width: int) -> None:
    lines = wrap(JAPANESE, width, _chars)
    assert "".join(lines).replace(" ", "") == JAPANESE.replace(" ", "")
    for before, after in itertools.pairwise(lines):
        assert after[0] not in NO_START, (before, after)
        assert before[-1] not in NO_END, (before, after)
        assert not (before[-1].isdigit() and after[0] in "-0123456789"), (before, after)


def test_a_number_run_and_its_stop_are_one_unit() -> None:
    pieces = [piece for piece, _ in units("マス1-12、空白。")]
    assert pieces == ["マ", "ス", "1-12、", "空", "白。"]
    assert [piece for piece, _ in units("「7」は")] == ["「7」", "は"]


@pytest.mark.parametrize("width", range(8, 40))
def test_latin_words_are_never_split(width: int) -> None:
    text = "Fill cells you can prove from the numbers: a block longer than half its line"
    lines = wrap(text, width, _chars)
    assert " ".join(lines) == text
    assert all(len(line) <= width for line in lines)


def test_a_word_wider_than_the_line_is_broken_not_cut() -> None:
    assert wrap("Überdeckungsregel ok", 6, _chars) == ["Überde", "ckungs", "regel", "ok"]

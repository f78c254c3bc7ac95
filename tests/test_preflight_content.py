"""The preflight's streaming tokenizer against the PDF library's own content-stream parser:
the same operators with the same operands, however the stream is cut into chunks."""

from __future__ import annotations

import random

import pikepdf
import pytest

from layout.preflight.content import Budget, ContentError, Name, operations

STREAMS = [
    b"q 1 0 0 1 72 72 cm 0 0 0 1 k 10 10 100 50 re f Q",
    b"BT /F1 12 Tf 100 700 Td (Hello \\(nested (parens)\\) \\101\\n) Tj ET",
    b"BT /F1 12 Tf [(A) -120 (V) 30.5 (A)] TJ T* (x) ' 1 2 (y) \" ET",
    b"% a comment\n0.5 g/GS0 gs 1 w[3 2]0 d 0 0 m 10 10 l S",
    b"/CS0 cs .2 .4 .6 sc /P0 scn <48656c6c6f> Tj <4 8 6>Tj",
    b"q BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\xff\x10\x20 EI Q 1 0 0 RG",
    b"/Name#20With#23Hash Do -.5 +3 4. re true false null BX EX",
    b"<< /MCID 3 >> BDC (marked) Tj EMC /Tag << /A [1 2 [3]] >> DP",
]


def reference(data: bytes) -> list[tuple[str, int]]:
    pdf = pikepdf.new()
    stream = pikepdf.Stream(pdf, data)
    out = []
    for item in pikepdf.parse_content_stream(stream):
        if isinstance(item, pikepdf.ContentStreamInlineImage):
            out.append(("BI", 2))
        else:
            out.append((str(item.operator), len(item.operands)))
    return out


@pytest.mark.parametrize("data", STREAMS)
def test_same_operators_as_the_pdf_library_whatever_the_chunks(data: bytes) -> None:
    expected = reference(data)
    rng = random.Random(len(data))
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(data)), k=min(5, len(data) - 1)))
        chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        got = [(op, len(args)) for op, args in operations(chunks, Budget())]
        assert got == expected, (chunks, got)


def test_operand_values() -> None:
    ops = list(operations([b"/F1+0 9.5 Tf (a\\)b) Tj [(x) -250 (y)] TJ <41 42> Tj"], Budget()))
    assert ops[0] == ("Tf", [Name("F1+0"), 9.5])
    assert ops[1] == ("Tj", [b"a)b"])
    assert ops[2] == ("TJ", [[b"x", -250.0, b"y"]])
    assert ops[3] == ("Tj", [b"AB"])


def test_a_number_of_400_digits_is_refused() -> None:
    with pytest.raises(ContentError, match="a number of 400 characters"):
        list(operations([b"1" * 400 + b" w"], Budget()))


def test_the_operator_budget_is_spent_as_operators_arrive() -> None:
    budget = Budget(operators=10_000)
    with pytest.raises(ContentError, match="too complex"):
        for _ in operations([b"0 0 m 1 1 l S\n" * 5000], budget):
            pass

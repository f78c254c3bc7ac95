"""A press on the line board in a real headless Chromium: the pressed cell is painted at once
and focused once the frame showing the paint is drawn (issue 56, item 8: a focus was as much
of a phone press at 4x throttle as the rest of the handler); a key pressed before that focus
lands still acts on the pressed cell, never on the control that had the focus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, Tab

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")


def focused_cell(page: Any) -> str | None:
    found = page.evaluate("() => document.activeElement?.dataset?.i ?? null")
    return None if found is None else str(found)


def test_a_pressed_cell_is_focused_after_its_paint(context: Any, sample: Path) -> None:
    tab = Tab(context.new_page(), sample, "puzzle-01.html")
    page = tab.page
    i = 2 * tab.width + 3
    page.mouse.click(*tab.centre(2, 3))
    assert tab.marks()[i] == 1
    page.wait_for_function(f"() => document.activeElement?.dataset?.i === '{i}'")
    assert page.evaluate("() => document.activeElement.tabIndex") == 0
    # the keyboard goes on from the pressed cell
    page.keyboard.press("ArrowRight")
    assert focused_cell(page) == str(i + 1)


def test_a_key_right_after_a_press_acts_on_the_pressed_cell(context: Any, sample: Path) -> None:
    """Space pressed at once after a click, the Hint button focused before: the pressed cell
    is cleared again (the keyboard's Space on a filled cell), the hint panel stays shut."""
    tab = Tab(context.new_page(), sample, "puzzle-01.html")
    page = tab.page
    hint = page.get_by_role("button", name="Hint", exact=True)
    hint.focus()
    i = 4 * tab.width + 1
    for _ in range(5):  # the race is the browser's frame timing: try it a few times
        page.mouse.click(*tab.centre(4, 1))  # fills the cell
        page.keyboard.press("Space")
        assert tab.marks()[i] == 0, "the key after the press missed the pressed cell"
        assert focused_cell(page) == str(i)
        assert not page.locator(".np-hint").is_visible(), "the key went to the Hint button"
        hint.focus()

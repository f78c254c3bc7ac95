"""The web player's files (the shell's script, one board script per kind under ``boards/``,
one style sheet), served as they are by both faces that show a puzzle to play: the static site
(`nonopress web`) copies them, the studio serves them for its Play button. The JSON they read
is written down in ``puzzle.schema.json``. Data only: this package imports nothing of the
project."""

from __future__ import annotations

from pathlib import Path

#: the folder of player.js and player.css
FOLDER = Path(__file__).resolve().parent
#: the folder of the boards, one script per kind, named by the kind's tag
BOARDS = "boards"
#: the extras beside the shell: the device's habits (statistics, share card, error signal)
#: and printing, each a script and a style sheet player.css imports
EXTRAS = ("habits.js", "print.js")
#: the files a page that plays a puzzle loads: the shell, its words (words.js: the lookup of
#: the catalogue a puzzle's JSON carries), its style sheet, every board, the extras
FILES = ("player.js", "words.js", "player.css",
         *sorted(f"{BOARDS}/{path.name}" for path in (FOLDER / BOARDS).glob("*.js")),
         *EXTRAS, "habits.css", "print.css")
#: the written format of the player's JSON
SCHEMA = FOLDER / "puzzle.schema.json"


def board_file(kind: str) -> str | None:
    """The board script a page of ``kind`` loads (a name of :data:`FILES`), None without one."""
    name = f"{BOARDS}/{kind}.js"
    return name if name in FILES else None


def asset_bytes(name: str) -> bytes:
    """One of :data:`FILES`, as bytes."""
    if name not in FILES:
        raise KeyError(name)
    return (FOLDER / name).read_bytes()


__all__ = ["BOARDS", "EXTRAS", "FILES", "FOLDER", "SCHEMA", "asset_bytes", "board_file"]

"""The web player's files (one script, one style sheet), served as they are by both faces
that show a puzzle to play: the static site (`nonopress web`) copies them, the studio serves
them for its Play button. Data only: this package imports nothing of the project."""

from __future__ import annotations

from pathlib import Path

#: the folder of player.js and player.css
FOLDER = Path(__file__).resolve().parent
#: the files a page that plays a puzzle loads
FILES = ("player.js", "player.css")


def asset_bytes(name: str) -> bytes:
    """One of :data:`FILES`, as bytes."""
    if name not in FILES:
        raise KeyError(name)
    return (FOLDER / name).read_bytes()


__all__ = ["FILES", "FOLDER", "asset_bytes"]

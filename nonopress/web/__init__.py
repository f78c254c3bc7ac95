"""The web player face: `nonopress web` writes a static site (index, archive, a page and a
JSON file per puzzle, the player's script and style sheet from nonopress.assets) whose hints
come from the grader's own step log."""

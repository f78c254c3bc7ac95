"""The application layer: what every face of Nonopress (the CLI, the studio, the web
player) asks for, built once and knowing no face.

- :mod:`nonopress.app.loading`: puzzles of either kind read from files, folders or stdin,
  as :class:`~nonopress.app.loading.LoadedPuzzle` (where each came from).
- :mod:`nonopress.app.records`: the records of check, grade, make, repair and fill (what
  ``--json`` prints and the studio's API answers).
- :mod:`nonopress.app.issue`: the issue pipeline, a manifest (with ``from_library``) to
  the written PDF and LaTeX, the preflight and the catalogue's record; and the planned
  entries with their grades, for a face that prints nothing.

A face turns its arguments or requests into calls here and the answers into text, JSON
or pages; nothing here prints, reads ``sys.argv`` or knows HTTP.
"""

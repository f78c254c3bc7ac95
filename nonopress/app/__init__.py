"""The application layer: what every face of Nonopress (the CLI, the studio, the web
player) asks for, built once and knowing no face.

- :mod:`nonopress.app.loading`: puzzles of either kind read from files, folders or stdin,
  as :class:`~nonopress.app.loading.LoadedPuzzle` (where each came from).
- :mod:`nonopress.app.records`: the records of check, grade and the words commands (what
  ``--json`` prints and the studio's API answers; make and repair answer the authoring
  result's own record, ``grader.authoring``'s ``to_json``).
- :mod:`nonopress.app.play`: a puzzle as the web player's JSON (clues, grade figures, the
  hint table of :mod:`nonopress.app.hints`, the obfuscated solution), for the static site
  and the studio's Play button.
- :mod:`nonopress.app.issue`: the issue pipeline, a manifest (with ``from_library``) to
  the written PDF and LaTeX, the preflight and the catalogue's record
  (:func:`~nonopress.app.issue.make_issue`); and, for a face that prints nothing (the web
  player), the entries in issue order with their grades and solutions::

      from nonopress.app.issue import IssueOptions, grade_issue, load_manifest

      graded = grade_issue(load_manifest("issue.yaml"), IssueOptions(grade_seconds=30))
      for entry in graded.entries:  # layout.issue.IssueEntry
          print(entry.number, entry.title, entry.grade.level, entry.grade.stars)

A face turns its arguments or requests into calls here and the answers into text, JSON
or pages; nothing here prints, reads ``sys.argv`` or knows HTTP.
"""

#: the grade cache's file name, in the folder a face chooses (here, not in
#: :mod:`nonopress.app.issue`: a command's ``--help`` names it without loading the layout)
CACHE_NAME = "nonopress-grades.json"

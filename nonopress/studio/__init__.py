"""The studio: a local web application over a folder of puzzles (``nonopress studio``).

One page (plain ES modules in ``static/``) and a JSON API under it, served by Starlette on
uvicorn. The engines are the CLI's own: check and grade answer the records of
``check --json`` / ``grade --json``, make and repair come from ``grader.authoring``, the
replay is ``grader.explain_html``, issues are built and preflighted by ``layout``.

Modules: :mod:`config` (limits and budgets), :mod:`security` (Host, Origin/token, body
caps, headers), :mod:`paths` (every path confined to the folder), :mod:`jobs` (work off the
event loop, newest request wins), :mod:`payload` (JSON -> puzzle), :mod:`engines` (the
jobs themselves), :mod:`library` (the folder view), :mod:`issues` (issue building),
:mod:`api` (the handlers) and :mod:`app` (routes).
"""

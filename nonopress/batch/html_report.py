"""The HTML report: one static, self-contained page (no network, no external files).

A summary, histograms of levels and scores (inline SVG), and a table with a thumbnail of
each solution, problems first, sortable by any column with a few lines of inline script.
Every string from the database goes through jinja2's autoescaping.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import jinja2
from markupsafe import Markup

from grader.minutes import span_text
from grader.wording import plural
from nonopress.batch.export import attention_rank
from nonopress.batch.pictures import histogram_svg, score_bins, thumbnail_data_uri
from nonopress.batch.rows import ResultRow

#: The id of the element the page's script adds once it has run (tests look for it).
READY_MARKER = "report-ready"

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
.summary span { margin-right: 1.2em; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5em; margin: 1em 0; }
.histogram text { font-size: 11px; fill: #333; }
.histogram .chart-title { font-size: 13px; font-weight: bold; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: left; }
td { vertical-align: middle; }
th { background: #eef; cursor: pointer; user-select: none; position: sticky; top: 0; }
th[aria-sort="ascending"]::after { content: " \\25B2"; }
th[aria-sort="descending"]::after { content: " \\25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.thumb img { image-rendering: pixelated; border: 1px solid #999; display: block; }
tr.attention-failed { background: #fde2e2; }
tr.attention-multiple, tr.attention-none { background: #fff2cc; }
tr.attention-undecided { background: #eee; }
.error { color: #a00; max-width: 28em; }
.colours { color: #666; white-space: nowrap; }
</style>
</head>
<body>
<h1>{{ title }}</h1>
<p class="summary"><span>{{ plural(rows|length, "puzzle") }}</span>
<span>status: {% for name, count in statuses %}{{ name }} {{ count }}{{ ", " if not loop.last }}
{%- endfor %}</span>
<span>verdict: {% for name, count in verdicts %}{{ name }} {{ count }}{{ ", " if not loop.last }}
{%- endfor %}</span>
<span>kind: {% for name, count in kinds %}{{ name }} {{ count }}{{ ", " if not loop.last }}
{%- endfor %}</span></p>
{% if graders|length > 1 %}<p class="graders">Graded by {{ graders|length }} graders
(a ladder table, scoring weights or version changed between runs):
{% for name, count in graders %}{{ name or "unknown (an older database)" }}: {{ count }}
{{- ", " if not loop.last }}{% endfor %}. Run the batch again to grade the older rows
with the current grader.</p>
{% elif graders and graders[0][0] %}<p class="graders">Graded by nonopress {{ graders[0][0] }}
(version + hash of its ladder and scoring tables).</p>
{% elif graders %}<p class="graders">Graded by an older nonopress that did not record its
grader: run the batch again to grade them with the current one.</p>{% endif %}
<div class="charts">{{ level_chart }}{{ score_chart }}</div>
<p>Failed, ambiguous, contradictory and undecided puzzles are listed first, without a score
or stars (a defect is not a difficulty). Click a heading to sort.</p>
<table id="results">
<thead><tr>
<th data-type="num">#</th><th data-type="text">solution</th><th data-type="text">file</th>
<th data-type="text">title</th><th data-type="num">size</th><th data-type="text">status</th>
<th data-type="text">verdict</th><th data-type="num">level</th><th data-type="num">score</th>
<th data-type="num">stars</th>
<th data-type="num" title="predicted minutes of experienced online solvers; the range held
half of the measured times">minutes</th>
<th data-type="num">steps</th><th data-type="num">time (s)</th>
<th data-type="text">problem</th>
</tr></thead>
<tbody>
{% for item in items %}{% set row = item.row %}
<tr class="attention-{{ item.attention }}">
<td class="num" data-value="{{ loop.index }}">{{ loop.index }}</td>
<td class="thumb" data-value="">{% if item.thumbnail -%}
<img src="{{ item.thumbnail }}" alt="solution of {{ item.label }}"
 width="{{ item.thumb_w }}" height="{{ item.thumb_h }}">
{%- else %}&ndash;{% endif %}</td>
<td data-value="{{ row.file }} {{ '%08d' % row.index }}">{{ item.label }}</td>
<td>{{ row.title }}</td>
<td class="num" data-value="{{ (row.width or 0) * (row.height or 0) }}">
{%- if row.width %}{{ row.width }}&times;{{ row.height }}{% endif %}
{%- if item.colours %} <span class="colours">{{ plural(item.colours, "colour") }}</span>
{%- endif %}</td>
<td>{{ row.status }}</td>
<td>{{ row.verdict or "" }}</td>
<td data-value="{{ level_rank.get(row.level, -1) }}">{{ row.level or "" }}</td>
<td class="num" data-value="{{ num(row.score) }}">
{%- if row.score is not none %}{{ "%.1f"|format(row.score) }}{% else %}-{% endif %}</td>
<td class="num" data-value="{{ num(row.stars) }}">{{ "-" if row.stars is none else row.stars }}</td>
<td class="num" data-value="{{ num(row.minutes) }}">
{%- if row.minutes is not none %}{{ span(row.minutes, row.minutes_low, row.minutes_high) }}
{%- else %}-{% endif %}</td>
<td class="num" data-value="{{ num(row.steps) }}">{{ "" if row.steps is none else row.steps }}</td>
<td class="num" data-value="{{ row.time_s }}">{{ "%.2f"|format(row.time_s) }}</td>
<td class="error">{{ row.error }}</td>
</tr>
{% endfor %}
</tbody>
</table>
<script>
(function () {
  "use strict";
  var table = document.getElementById("results");
  var headers = table.tHead.rows[0].cells;
  function value(row, column, numeric) {
    var cell = row.cells[column];
    var text = cell.hasAttribute("data-value") ? cell.getAttribute("data-value") : cell.textContent;
    if (!numeric) { return text.toLowerCase(); }
    var number = parseFloat(text);
    return isNaN(number) ? -Infinity : number;
  }
  function sortBy(column) {
    var header = headers[column];
    var numeric = header.getAttribute("data-type") === "num";
    var descending = header.getAttribute("aria-sort") !== "descending";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a, column, numeric), y = value(b, column, numeric);
      var order = x < y ? -1 : x > y ? 1 : 0;
      return descending ? -order : order;
    });
    for (var i = 0; i < headers.length; i++) { headers[i].removeAttribute("aria-sort"); }
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
    rows.forEach(function (row) { body.appendChild(row); });
  }
  for (var i = 0; i < headers.length; i++) {
    headers[i].addEventListener("click", sortBy.bind(null, i));
  }
  var marker = document.createElement("div");
  marker.id = "{{ ready_marker }}";
  marker.hidden = true;
  document.body.appendChild(marker);
}());
</script>
</body>
</html>
"""

_ATTENTION_NAMES = ("failed", "multiple", "none", "undecided", "ok")
_THUMB_MAX_PX = 72


def level_order(seen: Iterable[str]) -> dict[str, int]:
    """Rank of each level name: the grader's ladder order, names it does not know after."""
    from grader.grading import GRADED_LEVELS, UNGRADED_LEVELS

    known = [*GRADED_LEVELS, *UNGRADED_LEVELS]
    extra = sorted(set(seen) - set(known))
    return {name: rank for rank, name in enumerate([*known, *extra])}


def _num(value: float | int | None) -> str:
    return "" if value is None else str(value)


def render_html(rows: Sequence[ResultRow], *, title: str = "Nonopress batch report") -> str:
    """The report page for ``rows`` (already in report order)."""
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    template = environment.from_string(_TEMPLATE)
    # "file#N" only for files holding several puzzles.
    per_file = Counter(row.file for row in rows)
    bundles = {file for file, count in per_file.items() if count > 1}
    levels = Counter(row.level for row in rows if row.level is not None)
    order = level_order(levels)
    scores = [row.score for row in rows if row.score is not None]
    level_chart = histogram_svg(
        [(level, levels[level]) for level in sorted(levels, key=order.__getitem__)],
        title="Puzzles per level",
        x_label="level (hardest technique rung needed)",
    )
    score_chart = histogram_svg(score_bins(scores), title="Puzzles per score", x_label="score")
    return template.render(
        title=title,
        rows=rows,
        items=[_item(row, bundles) for row in rows],
        statuses=sorted(Counter(row.status for row in rows).items()),
        verdicts=sorted(Counter(row.verdict for row in rows if row.verdict).items()),
        kinds=sorted(Counter(_kind(row) for row in rows if row.index).items()),
        graders=sorted(Counter(row.grader for row in rows if row.index).items()),
        level_chart=Markup(level_chart),  # built from numbers and escaped labels only
        score_chart=Markup(score_chart),
        num=_num,
        span=span_text,
        plural=plural,
        level_rank=order,
        ready_marker=READY_MARKER,
    )


def _kind(row: ResultRow) -> str:
    """The puzzle's kind as the ladder table names it (a row of a colour puzzle keeps its
    palette)."""
    from grader.ladder import BLACK_AND_WHITE, COLOUR

    return COLOUR if row.palette else BLACK_AND_WHITE


def _item(row: ResultRow, bundles: set[str]) -> dict[str, object]:
    thumbnail = thumbnail_data_uri(row.solution, row.palette) if row.solution else ""
    width = len(row.solution[0]) if row.solution else 0
    height = len(row.solution) if row.solution else 0
    longest = max(width, height, 1)
    # Whole-pixel scaling keeps small grids crisp; large ones shrink to the same box.
    factor = _THUMB_MAX_PX // longest if longest <= _THUMB_MAX_PX else _THUMB_MAX_PX / longest
    return {
        "row": row,
        "label": row.label if row.file in bundles or row.index > 1 else row.file,
        "attention": _ATTENTION_NAMES[attention_rank(row)],
        "colours": max(len(row.palette) - 1, 0),  # the background is not a block colour
        "thumbnail": thumbnail,
        "thumb_w": max(1, round(width * factor)),
        "thumb_h": max(1, round(height * factor)),
    }

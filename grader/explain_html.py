"""A self-contained HTML page that replays graded solves step by step.

Each step's sentence is shown with the grid after it and its cells highlighted. All data
travels as JSON inside a ``<script type="application/json">`` block (with ``<``, ``>`` and
``&`` escaped) and reaches the page only through ``textContent``: no user string is ever
parsed as HTML.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grader.explain import sentence
from grader.grading import Grade
from grader.model import Puzzle, format_clue


@dataclass(frozen=True)
class GradedPuzzle:
    label: str
    puzzle: Puzzle
    grade: Grade


def summary(grade: Grade) -> str:
    """One line under the puzzle's name: its grade, or what keeps it from one."""
    if not grade.graded:
        return f"{grade.size}, {grade.level}, no score: {grade.problem}"
    stars = grade.stars or 0
    return (
        f"{grade.size}, {grade.level}, score {grade.score:.3f}, "
        f"{stars} star{'s' * (stars != 1)}, verdict {grade.verdict}"
    )


def _record(item: GradedPuzzle) -> dict[str, Any]:
    puzzle, grade = item.puzzle, item.grade
    return {
        "label": item.label,
        "title": puzzle.title or item.label,
        "width": puzzle.width,
        "height": puzzle.height,
        "rows": [format_clue(c) for c in puzzle.rows],
        "columns": [format_clue(c) for c in puzzle.columns],
        "summary": summary(grade),
        "steps": [
            {
                "rung": step.rung,
                "text": sentence(step, puzzle),
                "changes": [list(change) for change in step.changes],
            }
            for step in grade.steps
        ],
    }


def _script_json(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=True)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


STYLE = """
body{font-family:sans-serif;margin:1.5em;color:#222}
section{margin-bottom:3em}
table.grid{border-collapse:collapse;margin:.5em 0}
table.grid td{width:16px;height:16px;border:1px solid #bbb;padding:0;text-align:center;
 font-size:11px}
table.grid td.clue{border:none;background:#eee;color:#333;padding:0 3px;white-space:nowrap}
table.grid td.colclue{vertical-align:bottom;line-height:1.1}
table.grid td.s2{background:#222}
table.grid td.s1{background:#fff;color:#999}
table.grid td.s3{background:#f4f4f4}
table.grid td.hl{outline:3px solid #e0457b;outline-offset:-3px}
table.grid td.t5{border-right:2px solid #555}
table.grid tr.t5 td.cell{border-bottom:2px solid #555}
.step{font-size:1.05em;min-height:3em;max-width:60em}
.rung{display:inline-block;background:#e0457b;color:#fff;border-radius:3px;padding:0 .4em;
 margin-right:.5em;font-size:.85em}
button{margin-right:.3em}
"""

SCRIPT = """
(function(){
  const data = JSON.parse(document.getElementById('replay-data').textContent);
  const root = document.getElementById('replays');
  function el(tag, cls, text){const e=document.createElement(tag); if(cls) e.className=cls;
    if(text!==undefined) e.textContent=text; return e;}
  data.forEach(function(p){
    const sec = el('section'); root.appendChild(sec);
    sec.appendChild(el('h2', '', p.title));
    sec.appendChild(el('p', '', p.summary));
    const controls = el('div'); sec.appendChild(controls);
    const names = ['|<', '<', '>', '>|'];
    const buttons = names.map(function(n){const b=el('button','',n); controls.appendChild(b);
      return b;});
    const slider = el('input'); slider.type='range'; slider.min=0; slider.max=p.steps.length;
    slider.value=0; controls.appendChild(slider);
    const counter = el('span'); controls.appendChild(counter);
    const text = el('div', 'step'); sec.appendChild(text);
    const table = el('table', 'grid'); sec.appendChild(table);
    const maxCol = Math.max(1, ...p.columns.map(function(c){return c.split(' ').length;}));
    const cells = [];
    for(let k=0;k<maxCol;k++){
      const tr = el('tr'); tr.appendChild(el('td','clue'));
      p.columns.forEach(function(c){const parts=c.split(' ');
        const off=maxCol-parts.length;
        tr.appendChild(el('td','clue colclue', k>=off ? parts[k-off] : ''));});
      table.appendChild(tr);
    }
    for(let r=0;r<p.height;r++){
      const tr = el('tr', (r%5===4 && r<p.height-1) ? 't5' : '');
      tr.appendChild(el('td','clue', p.rows[r]));
      const row=[];
      for(let c=0;c<p.width;c++){const td=el('td','cell'); tr.appendChild(td); row.push(td);}
      cells.push(row); table.appendChild(tr);
    }
    function show(n){
      n = Math.max(0, Math.min(p.steps.length, n)); slider.value = n;
      const grid = []; for(let r=0;r<p.height;r++){grid.push(new Array(p.width).fill(3));}
      for(let i=0;i<n;i++){p.steps[i].changes.forEach(function(ch){grid[ch[0]][ch[1]]=ch[2];});}
      const lit = {};
      if(n>0){p.steps[n-1].changes.forEach(function(ch){lit[ch[0]+','+ch[1]]=true;});}
      for(let r=0;r<p.height;r++){for(let c=0;c<p.width;c++){
        const td=cells[r][c]; let cls='cell s'+grid[r][c];
        if(c%5===4 && c<p.width-1) cls+=' t5';
        if(lit[r+','+c]) cls+=' hl';
        td.className=cls; td.textContent = grid[r][c]===1 ? '\\u00b7' : '';}}
      counter.textContent = ' step ' + n + ' of ' + p.steps.length;
      text.textContent='';
      if(n>0){const s=p.steps[n-1]; text.appendChild(el('span','rung',s.rung));
        text.appendChild(document.createTextNode(s.text));}
      else {text.textContent='The empty grid. Step through the solve with the buttons.';}
    }
    buttons[0].onclick=function(){show(0);};
    buttons[1].onclick=function(){show(+slider.value-1);};
    buttons[2].onclick=function(){show(+slider.value+1);};
    buttons[3].onclick=function(){show(p.steps.length);};
    slider.oninput=function(){show(+slider.value);};
    show(0);
  });
})();
"""


def explain_html(items: Sequence[GradedPuzzle], title: str = "Nonopress: step by step") -> str:
    """The whole page as text."""
    data = _script_json([_record(item) for item in items])
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f'<h1>{html.escape(title)}</h1>\n<div id="replays"></div>\n'
        f'<script type="application/json" id="replay-data">{data}</script>\n'
        f"<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )

"""A self-contained HTML page that replays graded solves step by step.

Each step's sentence is shown with the grid after it and its cells highlighted. All data
travels as JSON inside a ``<script type="application/json">`` block (with ``<``, ``>`` and
``&`` escaped) and reaches the page only through ``textContent``: no user string is ever
parsed as HTML.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from grader.model import Puzzle

if TYPE_CHECKING:
    from grader.grading import Grade
    from grader.kinds import KindGrade
    from grader.techniques.base import Step

#: A clue as the replay draws it: (length, value) blocks, value 1.. the palette's colours
Blocks = tuple[tuple[int, int], ...]


class ReplayItem(Protocol):
    """One puzzle of the page: anything that gives its record (:class:`Replay`)."""

    def record(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Replay:
    """What the page needs of one graded puzzle, of either kind (``kind_of(p).replay``).

    Cells are bit sets, as in the colour grader: bit 0 the background, bit v the palette's
    colour v; a black-and-white puzzle is the palette of one colour, so its states 1 (empty),
    2 (filled) and 3 (open) are the same numbers. ``palette`` is (name, ``#rrggbb``) by value.
    """

    label: str
    title: str
    width: int
    height: int
    palette: tuple[tuple[str, str], ...]
    rows: tuple[Blocks, ...]
    columns: tuple[Blocks, ...]
    summary: str
    #: (rung, sentence, changes): each change (row, column, the values the cell may still take)
    steps: tuple[tuple[str, str, tuple[tuple[int, int, int], ...]], ...]

    def record(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "title": self.title or self.label,
            "width": self.width,
            "height": self.height,
            "palette": [{"name": name, "rgb": rgb} for name, rgb in self.palette],
            "rows": [[list(block) for block in clue] for clue in self.rows],
            "columns": [[list(block) for block in clue] for clue in self.columns],
            "summary": self.summary,
            "steps": [{"rung": rung, "text": text, "changes": [list(c) for c in changes]}
                      for rung, text, changes in self.steps],
        }


def summary(grade: KindGrade, about: str = "") -> str:
    """One line under the puzzle's name: its grade, or what keeps it from one (``about``,
    e.g. the colours, after the size)."""
    size = f"{grade.size}{', ' + about if about else ''}"
    if grade.score is None:
        return f"{size}, {grade.level}, no score: {grade.problem}"
    stars = grade.stars or 0
    return (
        f"{size}, {grade.level}, score {grade.score:.3f}, "
        f"{stars} star{'s' * (stars != 1)}, verdict {grade.verdict}"
    )


def replay_of(label: str, title: str, shape: tuple[int, int],
              palette: Sequence[tuple[str, str]], clues: tuple[Sequence[Blocks],
                                                               Sequence[Blocks]],
              about: tuple[KindGrade, str], steps: Sequence[Step],
              say: Callable[[Step], str]) -> Replay:
    """A :class:`Replay` from a kind's parts; ``say`` words one step (the kind's sentences)."""
    width, height = shape
    grade, colours = about
    return Replay(
        label=label, title=title, width=width, height=height, palette=tuple(palette),
        rows=tuple(tuple(c) for c in clues[0]), columns=tuple(tuple(c) for c in clues[1]),
        summary=summary(grade, colours),
        steps=tuple((step.rung, say(step),
                     tuple((int(r), int(c), int(v)) for r, c, v in step.changes))
                    for step in steps))


@dataclass(frozen=True)
class GradedPuzzle:
    """A black-and-white puzzle and its grade, as one replay (the studio builds these)."""

    label: str
    puzzle: Puzzle
    grade: Grade

    def replay(self) -> Replay:
        from grader.explain import sentence

        puzzle = self.puzzle
        return replay_of(
            self.label, puzzle.title, (puzzle.width, puzzle.height),
            (("empty", "#ffffff"), ("filled", "#222222")),
            ([tuple((n, 1) for n in c) for c in puzzle.rows],
             [tuple((n, 1) for n in c) for c in puzzle.columns]),
            (self.grade, ""), self.grade.steps, lambda step: sentence(step, puzzle))

    def record(self) -> dict[str, Any]:
        return self.replay().record()


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
table.grid td.open{background:#f4f4f4}
table.grid td.empty{background:#fff;color:#999}
table.grid td.hl{outline:3px solid #e0457b;outline-offset:-3px}
table.grid td.t5{border-right:2px solid #555}
table.grid tr.t5 td.cell{border-bottom:2px solid #555}
.block{display:inline-block;min-width:1.1em;margin:1px;border-radius:2px;font-weight:bold}
.legend span.swatch{display:inline-block;width:1em;height:1em;border:1px solid #888;
 vertical-align:middle;margin:0 .3em 0 .8em}
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
  function dark(rgb){const v=parseInt(rgb.slice(1),16);
    return ((v>>16)&255)*0.299+((v>>8)&255)*0.587+(v&255)*0.114 < 140;}
  data.forEach(function(p){
    const colours = p.palette.length - 1;  // value 0 is the background
    const full = (1 << p.palette.length) - 1;
    // a clue's numbers: plain for black and white, in their colours for colour puzzles
    function blocks(parent, list){
      if(!list.length){parent.appendChild(el('span','', '0')); return;}
      list.forEach(function(b, i){
        if(colours < 2){parent.appendChild(el('span','', (i ? ' ' : '') + b[0])); return;}
        const s = el('span','block', String(b[0])); const c = p.palette[b[1]];
        s.style.backgroundColor = c.rgb; s.style.color = dark(c.rgb) ? '#fff' : '#000';
        s.title = c.name; parent.appendChild(s);});
    }
    function names(mask){const out=[];
      for(let v=0; v<p.palette.length; v++){if(mask>>v & 1) out.push(v ? p.palette[v].name
        : 'empty');} return out.join(' or ');}
    const sec = el('section'); root.appendChild(sec);
    sec.appendChild(el('h2', '', p.title));
    sec.appendChild(el('p', '', p.summary));
    if(colours >= 2){
      const legend = el('p', 'legend', 'Colours:');
      p.palette.forEach(function(c, v){if(!v) return; const sw = el('span','swatch');
        sw.style.backgroundColor = c.rgb; legend.appendChild(sw);
        legend.appendChild(document.createTextNode(c.name));});
      sec.appendChild(legend);
    }
    const controls = el('div'); sec.appendChild(controls);
    const labels = ['|<', '<', '>', '>|'];
    const buttons = labels.map(function(n){const b=el('button','',n); controls.appendChild(b);
      return b;});
    const slider = el('input'); slider.type='range'; slider.min=0; slider.max=p.steps.length;
    slider.value=0; controls.appendChild(slider);
    const counter = el('span'); controls.appendChild(counter);
    const text = el('div', 'step'); sec.appendChild(text);
    const table = el('table', 'grid'); sec.appendChild(table);
    const maxCol = Math.max(1, ...p.columns.map(function(c){return c.length;}));
    const cells = [];
    for(let k=0;k<maxCol;k++){
      const tr = el('tr'); tr.appendChild(el('td','clue'));
      p.columns.forEach(function(c){const td = el('td','clue colclue');
        const off = maxCol - Math.max(c.length, 1);
        if(k === off) blocks(td, c.length ? [c[0]] : []);
        else if(k > off) blocks(td, [c[k-off]]);
        tr.appendChild(td);});
      table.appendChild(tr);
    }
    for(let r=0;r<p.height;r++){
      const tr = el('tr', (r%5===4 && r<p.height-1) ? 't5' : '');
      const clue = el('td','clue'); blocks(clue, p.rows[r]); tr.appendChild(clue);
      const row=[];
      for(let c=0;c<p.width;c++){const td=el('td','cell'); tr.appendChild(td); row.push(td);}
      cells.push(row); table.appendChild(tr);
    }
    function paint(td, mask){
      td.style.backgroundColor=''; td.style.backgroundImage=''; td.textContent=''; td.title='';
      td.classList.add('s' + mask);  // the bit set: s1 empty, s2 filled, s3 open in b/w
      if(mask === full){td.classList.add('open'); return;}
      if(mask === 1){td.classList.add('empty'); td.textContent='\\u00b7'; return;}
      const open = [];
      for(let v=0; v<p.palette.length; v++){if(mask>>v & 1) open.push(v ? p.palette[v].rgb
        : '#ffffff');}
      if(open.length === 1){td.style.backgroundColor = open[0]; return;}
      // still open between a few values: stripes of each (their names on hover)
      const stops = open.map(function(c, i){return c + ' ' + (100*i/open.length) + '% ' +
        (100*(i+1)/open.length) + '%';});
      td.style.backgroundImage = 'linear-gradient(135deg,' + stops.join(',') + ')';
      td.title = names(mask);
    }
    function show(n){
      n = Math.max(0, Math.min(p.steps.length, n)); slider.value = n;
      const grid = []; for(let r=0;r<p.height;r++){grid.push(new Array(p.width).fill(full));}
      for(let i=0;i<n;i++){p.steps[i].changes.forEach(function(ch){grid[ch[0]][ch[1]]=ch[2];});}
      const lit = {};
      if(n>0){p.steps[n-1].changes.forEach(function(ch){lit[ch[0]+','+ch[1]]=true;});}
      for(let r=0;r<p.height;r++){for(let c=0;c<p.width;c++){
        const td=cells[r][c]; let cls='cell';
        if(c%5===4 && c<p.width-1) cls+=' t5';
        if(lit[r+','+c]) cls+=' hl';
        td.className=cls; paint(td, grid[r][c]);}}
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


def explain_html(items: Sequence[ReplayItem], title: str = "Nonopress: step by step") -> str:
    """The whole page as text: one replay per item, of either kind."""
    records = [item.record() for item in items]
    data = _script_json(records)
    # one puzzle whose replay is headed by the page's own title: the heading once, not twice
    alone = len(records) == 1 and records[0].get("title") == title
    heading = "" if alone else f"<h1>{html.escape(title)}</h1>\n"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f'{heading}<div id="replays"></div>\n'
        f'<script type="application/json" id="replay-data">{data}</script>\n'
        f"<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )

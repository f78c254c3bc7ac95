// The editor: drawing with mouse, pen or touch, undo/redo, and the live verdict. After every
// change the picture goes to POST /api/check (channel "live": the server drops older
// requests), and a unique one to POST /api/grade; a response older than the newest change
// is ignored, so a slow check never overwrites a newer answer or freezes the page.
import {post, ApiError} from './api.js';
import {Board, COLOURS, HEAT} from './board.js';
import {Picture} from './picture.js';

const $ = (id) => document.getElementById(id);
const UNDO_LIMIT = 200;
const GRADE_PAUSE_MS = 150;

// A file the editor chose, as a data: URL (the API takes pictures and uploads as text).
function dataUrlOf(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export class Editor {
  constructor(toast) {
    this.toast = toast;
    this.board = new Board($('grid'));
    this.picture = new Picture(10, 10);
    this.board.picture = this.picture;
    this.givens = [];
    this.clueOnly = null;   // {rows, columns} of a puzzle opened without a picture
    // a kind whose clues sit in the cells (editing.lines false: the mosaic): its digits as
    // a Picture holding digit + 1 (0: no clue), edited cell by cell; null for line puzzles
    this.cellClues = null;
    this.cursor = [0, 0];
    // what the server says the editor may ask of the puzzle's kind (engines.editing):
    // {tag, name, givens, clues_alone}; null until the first answer about a puzzle
    this.editing = null;
    this.path = null;
    this.tool = 'paint';
    this.colour = 1;
    this.undoStack = []; this.redoStack = [];
    this.sequence = 0;      // the newest change; answers for older ones are dropped
    this.changedAt = 0;
    this.lastCheck = null; this.lastGrade = null;
    this.gradedSequence = -1;  // the change lastGrade is the grade of
    this.proposal = null;
    // this page's own channels: another tab's checks never supersede this one's
    this.page = Math.random().toString(36).slice(2, 10);
    this.latencies = [];    // ms from a change to its verdict on screen (read by the tests)
    window.__studio = this;
    this.bind();
    this.draw();
    this.changed(false);
  }

  // -- drawing -----------------------------------------------------------------------------
  draw() {
    const wrap = document.querySelector('.stage');
    const width = Math.max(240, wrap.clientWidth - 40);
    // side by side on a wide screen and a landscape one from 761 px (the grade beside the
    // grid, as studio.css lays it out); on a tablet upright the verdict sits under the grid
    const landscape = window.innerWidth > 760 && window.innerWidth > window.innerHeight;
    const narrow = window.innerWidth <= 1180 && !landscape;
    const height = Math.max(240, narrow ? window.innerHeight * 0.5 : window.innerHeight - 150);
    this.board.picture = this.picture;
    this.board.cellClues = this.cellClues;
    this.board.cursor = this.cellClues ? this.cursor : null;
    $('clue-pad').hidden = !this.cellClues;
    // clues in cells are typed, not painted: the paint tools stand aside
    document.querySelector('.toolgroup[aria-label=Tool]').hidden = Boolean(this.cellClues);
    this.kindControls();
    this.board.render(width, height);
  }

  // the steering a puzzle's kind does not support stands aside, as its registry entry says
  // (engines.editing): givens only where the kind prints them. A drawing not yet checked
  // (editing null) is a black-and-white picture, which prints them.
  kindControls() {
    const givens = !this.editing || this.editing.givens;
    const button = $('use-givens');
    button.hidden = !givens;
    button.disabled = !givens;
    $('key-unique').textContent = givens ? 'U / G' : 'U';
    $('key-unique-does').textContent = givens ? 'make unique / givens' : 'make unique';
  }

  snapshot() {
    return {picture: this.picture.clone(), givens: this.givens.slice(), clueOnly: this.clueOnly,
            cellClues: this.cellClues && this.cellClues.clone()};
  }
  restore(state) {
    this.picture = state.picture; this.givens = state.givens; this.clueOnly = state.clueOnly;
    this.cellClues = state.cellClues;
    this.syncSize();
  }
  remember() {
    this.undoStack.push(this.snapshot());
    if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
    this.redoStack = [];
  }
  undo() {
    if (!this.undoStack.length) return;
    this.redoStack.push(this.snapshot());
    this.restore(this.undoStack.pop());
    this.changed();
  }
  redo() {
    if (!this.redoStack.length) return;
    this.undoStack.push(this.snapshot());
    this.restore(this.redoStack.pop());
    this.changed();
  }

  replace(picture, givens = []) {
    this.remember();
    this.picture = picture; this.givens = givens; this.clueOnly = null;
    this.syncSize();
    this.changed();
  }
  transform(name) {
    if (this.cellClues) { this.replaceCells(this.picture[name](), this.cellClues[name]()); return; }
    this.replace(this.picture[name](), []);
  }
  resize(width, height) {
    if (this.cellClues) { this.replaceCells(this.picture.resized(width, height), this.cellClues.resized(width, height)); return; }
    this.replace(this.picture.resized(width, height), []);
  }
  clear() {
    const blank = new Picture(this.picture.width, this.picture.height, this.picture.palette);
    if (this.cellClues) { this.replaceCells(blank, new Picture(blank.width, blank.height)); return; }
    this.replace(blank);
  }

  // -- clues in cells (editing.lines false) --------------------------------------------------
  replaceCells(picture, clues) {
    this.remember();
    this.picture = picture; this.cellClues = clues; this.givens = []; this.clueOnly = null;
    this.cursor = [Math.min(this.cursor[0], picture.height - 1), Math.min(this.cursor[1], picture.width - 1)];
    this.syncSize();
    this.changed();
  }
  // the clue rows as text: a digit a clue, '.' none
  clueRows() {
    const rows = [];
    for (let r = 0; r < this.cellClues.height; r++) {
      let row = '';
      for (let c = 0; c < this.cellClues.width; c++) {
        const v = this.cellClues.get(r, c);
        row += v ? String(v - 1) : '.';
      }
      rows.push(row);
    }
    return rows;
  }
  // whether the picture on the board agrees with every clue shown (each digit counts the
  // filled cells of its 3x3 block): only then is it sent as the clues' solution
  pictureFits() {
    const p = this.picture, clues = this.cellClues;
    for (let r = 0; r < p.height; r++) {
      for (let c = 0; c < p.width; c++) {
        const v = clues.get(r, c);
        if (!v) continue;
        let filled = 0;
        for (let i = Math.max(0, r - 1); i <= Math.min(p.height - 1, r + 1); i++) {
          for (let j = Math.max(0, c - 1); j <= Math.min(p.width - 1, c + 1); j++) filled += p.get(i, j) ? 1 : 0;
        }
        if (filled !== v - 1) return false;
      }
    }
    return true;
  }
  // set the clue under the cursor: a digit 0-9, or null for none
  setClue(digit) {
    if (!this.cellClues) return;
    const [r, c] = this.cursor;
    const value = digit === null ? 0 : digit + 1;
    if (this.cellClues.get(r, c) === value) return;
    this.remember();
    this.cellClues = this.cellClues.clone();
    this.cellClues.set(r, c, value);
    this.changed();
  }
  moveCursor(dr, dc) {
    if (!this.cellClues) return;
    const [r, c] = this.cursor;
    this.cursor = [Math.max(0, Math.min(this.picture.height - 1, r + dr)),
                   Math.max(0, Math.min(this.picture.width - 1, c + dc))];
    this.draw();
  }

  syncSize() {
    $('width').value = this.picture.width; $('height').value = this.picture.height;
    this.renderPalette();
  }

  renderPalette() {
    const box = $('palette');
    box.replaceChildren();
    const palette = this.picture.palette;
    box.hidden = !palette;
    if (!palette) { this.colour = 1; return; }
    if (this.colour > palette.length) this.colour = 1;
    palette.forEach((colour, i) => {
      const swatch = document.createElement('button');
      swatch.className = 'swatch' + (this.colour === i + 1 ? ' active' : '');
      swatch.style.background = colour.rgb.startsWith('#') ? colour.rgb : `#${colour.rgb}`;
      swatch.title = `${colour.name} (${i + 1})`;
      swatch.onclick = () => { this.colour = i + 1; this.renderPalette(); };
      box.appendChild(swatch);
    });
  }

  // pointer: a press paints (or erases a cell already that colour); a drag fills the run
  // from the first cell along the row or column it first moves in
  bind() {
    const canvas = $('grid');
    let stroke = null;
    canvas.addEventListener('pointerdown', (event) => {
      const cell = this.board.cellAt(event);
      if (!cell) return;
      if (this.cellClues) {  // a press picks the cell whose clue the keys and the pad set
        this.cursor = cell; canvas.focus(); this.draw();
        return;
      }
      canvas.setPointerCapture(event.pointerId);
      const before = this.snapshot();
      const current = this.picture.get(cell[0], cell[1]);
      let value = this.tool === 'erase' ? 0 : this.colour;
      if (this.tool === 'paint' && current === value) value = 0;
      stroke = {start: cell, value, before, base: this.picture.clone(), axis: null, last: null};
      this.clueOnly = null;
      this.paintRun(stroke, cell);
    });
    canvas.addEventListener('pointermove', (event) => {
      if (!stroke) return;
      const cell = this.board.cellAt(event);
      if (cell) this.paintRun(stroke, cell);
    });
    const end = () => {
      if (!stroke) return;
      if (!this.picture.equals(stroke.before.picture)) {
        this.undoStack.push(stroke.before);
        this.redoStack = [];
      }
      stroke = null;
    };
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    window.addEventListener('resize', () => this.draw());
  }

  paintRun(stroke, cell) {
    const [r0, c0] = stroke.start;
    let [r, c] = cell;
    if (!stroke.axis && (r !== r0 || c !== c0)) stroke.axis = Math.abs(c - c0) >= Math.abs(r - r0) ? 'row' : 'column';
    if (stroke.axis === 'row') r = r0;
    if (stroke.axis === 'column') c = c0;
    const key = `${r},${c}`;
    if (stroke.last === key) return;
    stroke.last = key;
    const picture = stroke.base.clone();
    for (let i = Math.min(r0, r); i <= Math.max(r0, r); i++) {
      for (let j = Math.min(c0, c); j <= Math.max(c0, c); j++) picture.set(i, j, stroke.value);
    }
    if (picture.equals(this.picture)) return;
    this.picture = picture;
    this.givens = this.givens.filter(([gr, gc]) => picture.get(gr, gc) > 0 === Boolean(stroke.base.get(gr, gc)));
    this.changed();
  }

  // -- the live verdict ----------------------------------------------------------------------
  payload() {
    if (this.cellClues) {
      const body = {kind: this.editing.tag, clues: this.clueRows(), title: $('title').value};
      if (this.picture.filled() && this.pictureFits()) body.grid = this.picture.rows();
      return body;
    }
    if (this.clueOnly) {
      return {rows: this.clueOnly.rows.map((c) => c.map(([n]) => n)),
              columns: this.clueOnly.columns.map((c) => c.map(([n]) => n)),
              title: $('title').value};
    }
    const body = {grid: this.picture.rows(), title: $('title').value};
    if (this.picture.palette) body.palette = this.picture.palette;
    else if (this.givens.length) body.givens = this.givens;
    return body;
  }

  changed(live = true) {
    this.sequence += 1;
    this.changedAt = performance.now();
    // the grade shown is of an older picture until the new one's arrives: greyed, and
    // never read by Easier or Harder (they ask for the grade of what is on the board)
    $('grade-box').classList.toggle('stale', Boolean(this.lastGrade));
    this.proposal = null;
    $('proposal').hidden = true;
    Object.assign(this.board.overlay, {differ: null, broken: null, heat: null, flips: null,
      givens: this.givens.map(([r, c]) => [r, c]), clues: this.clueOnly,
      added: null, removed: null, proposed: null});
    this.draw();
    this.legend();
    if (live) this.check(this.sequence);
  }

  setVerdict(word, detail) {
    const box = $('verdict');
    box.dataset.verdict = word;
    box.classList.remove('busy');
    $('verdict-word').textContent = word;
    $('verdict-detail').textContent = detail;
  }

  setGrade(record) {
    const graded = record && record.score !== null && record.score !== undefined;
    $('level').textContent = record ? record.level : '–';
    $('score').textContent = graded ? record.score.toFixed(2) : '–';
    $('stars').textContent = graded ? '★'.repeat(record.stars) + '☆'.repeat(5 - record.stars) : '–';
    $('minutes').textContent = graded && record.minutes_text ? record.minutes_text : '–';
    const rungs = $('rungs');
    rungs.replaceChildren();
    for (const [name, count] of Object.entries(record ? record.rungs : {})) {
      const tag = document.createElement('span');
      tag.className = 'rung'; tag.textContent = `${name} ×${count}`;
      rungs.appendChild(tag);
    }
  }

  async check(sequence) {
    if (this.clueOnly && this.editing && !this.editing.clues_alone) {  // clues travel as a picture
      this.setVerdict('undecided', `No picture of these ${this.editing.name} clues was found within the budget; draw one to check it.`);
      this.setGrade(null);
      return;
    }
    if (!this.clueOnly && !this.cellClues && this.picture.filled() === 0) {
      this.lastCheck = null; this.lastGrade = null; this.gradedSequence = -1;
      this.setVerdict('empty', 'Draw a picture: the verdict follows every stroke.');
      this.setGrade(null);
      return;
    }
    $('verdict').classList.add('busy');
    let record;
    try {
      record = await post('/api/check', {...this.payload(), channel: `live-${this.page}`});
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) return;  // a newer one runs
      if (sequence === this.sequence) this.setVerdict('error', error.message);
      return;
    }
    if (sequence !== this.sequence) return;
    this.lastCheck = record;
    if (record.editing) { this.editing = record.editing; this.kindControls(); }
    // clues in cells that the picture no longer fits: show the solver's first picture
    if (this.cellClues && record.solutions && record.solutions.length && !this.pictureFits()) {
      this.picture = Picture.fromRows(record.solutions[0]);
    }
    this.showCheck(record);
    this.latencies.push(performance.now() - this.changedAt);
    clearTimeout(this.gradeTimer);
    if (record.verdict === 'unique') {
      // the grade waits for a pause in the drawing: quick strokes do not queue grades
      this.gradeTimer = setTimeout(() => this.grade(sequence), GRADE_PAUSE_MS);
    } else { this.lastGrade = null; this.gradedSequence = -1; this.setGrade(null); }
  }

  showCheck(record) {
    const w = this.picture.width;
    const overlay = this.board.overlay;
    if (record.verdict === 'multiple') {
      overlay.differ = new Set(record.differing_cells.map(([r, c]) => r * w + c));
      const n = record.differing_cells.length;
      this.setVerdict('multiple', `At least two solutions: the ${n} shaded cells differ between two of them.`);
    } else if (record.verdict === 'none') {
      overlay.broken = record.broken || null;
      this.setVerdict('none', record.reason || 'No solution.');
    } else if (record.verdict === 'unique') {
      this.setVerdict('unique', `One solution, proved in ${(record.time_s * 1000).toFixed(0)} ms.`);
    } else {
      this.setVerdict(record.verdict, record.reason || '');
    }
    this.draw();
    this.legend();
  }

  async grade(sequence) {
    if (sequence !== this.sequence) return;
    let record;
    try {
      record = await post('/api/grade', {...this.payload(), channel: `grade-${this.page}`});
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) this.toast(error.message);
      return;
    }
    if (sequence !== this.sequence) return;
    this.takeGrade(record, sequence);
  }

  takeGrade(record, sequence) {
    this.lastGrade = record;
    this.gradedSequence = sequence;
    $('grade-box').classList.remove('stale');
    this.setGrade(record);
    if ($('heat').checked) this.showHeat();
  }

  // The grade of the picture on the board now (asked for when the live one has not come
  // back yet); null when the board changed while it was asked for.
  async currentGrade() {
    const sequence = this.sequence;
    if (this.lastGrade && this.gradedSequence === sequence) return this.lastGrade;
    clearTimeout(this.gradeTimer);
    // its own channel: the live grade, scheduled when a check still running comes back,
    // must not supersede it (Easier then did nothing at all)
    const record = await post('/api/grade', {...this.payload(), channel: `steer-${this.page}`});
    if (sequence !== this.sequence) return null;
    this.takeGrade(record, sequence);
    return record;
  }

  showHeat() {
    this.board.overlay.heat = $('heat').checked && this.lastGrade ? this.lastGrade.heat : null;
    this.draw();
    this.legend();
  }

  // what the colours on the grid mean, for the overlays shown now
  legend() {
    const items = [];
    const overlay = this.board.overlay;
    if (overlay.differ) items.push([COLOURS.shadeEmpty, 'differs between two solutions']);
    const flips = overlay.flips || [];
    if (flips.some(([, , filled]) => filled)) items.push([COLOURS.toFilled, 'would be filled']);
    if (flips.some(([, , filled]) => !filled)) items.push([COLOURS.toEmpty, 'would be emptied']);
    if (overlay.givens && overlay.givens.length) items.push([COLOURS.given, 'given (printed)']);
    if (overlay.added && overlay.added.length) items.push([COLOURS.clueShown, 'clue shown']);
    if (overlay.removed && overlay.removed.length) items.push([COLOURS.clueHidden, 'clue hidden']);
    if (overlay.heat && this.lastGrade) {
      const used = new Set(overlay.heat.flat());
      this.lastGrade.rung_order.forEach((name, rank) => {
        if (used.has(rank) && rank > 0) items.push([HEAT[Math.min(HEAT.length - 1, rank)], name]);
      });
    }
    const box = $('legend');
    box.replaceChildren();
    for (const [colour, text] of items) {
      const item = document.createElement('span');
      const swatch = document.createElement('i');
      swatch.style.background = colour;
      item.append(swatch, text);
      box.appendChild(item);
    }
  }

  // -- fix and steer ------------------------------------------------------------------------
  async propose(kind) {
    if (kind === 'givens' && this.editing && !this.editing.givens) { this.toast(`Givens are not printed on a ${this.editing.name} puzzle: it is made unique by changing cells.`); return; }
    if (!this.picture.filled() && !this.cellClues) { this.toast('Draw something first.'); return; }
    const sequence = this.sequence;
    // the newest proposal wins: pressing again (or another button) drops the older one
    const body = {...this.payload(), mode: kind === 'givens' ? 'givens' : 'flips',
                  channel: `repair-${this.page}`};
    $('status').textContent = 'Working on a proposal…';
    try {
      if (kind === 'easier' || kind === 'harder') {
        // the stars of the puzzle on the board, never those of the one opened before it
        const record = await this.currentGrade();
        if (record === null || sequence !== this.sequence) return;
        const stars = record.stars;
        if (!stars) { this.toast('Make it unique first: a level is steered from a graded puzzle.'); return; }
        if ((kind === 'easier' && stars <= 1) || (kind === 'harder' && stars >= 5)) {
          this.toast(`It has ${stars} star${stars > 1 ? 's' : ''} already: the ${kind === 'easier' ? 'fewest' : 'most'} there are.`);
          return;
        }
        body.stars = kind === 'easier' ? stars - 1 : stars + 1;
      }
      const result = await post('/api/repair', body);
      if (sequence !== this.sequence) return;  // the board changed: the answer is stale
      this.showProposal(result, kind);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) this.toast(error.message);
    } finally {
      $('status').textContent = '';
    }
  }

  showProposal(result, kind) {
    this.proposal = result;
    const current = this.picture;
    const next = Picture.fromRows(result.grid, result.palette || null);
    const flips = [];
    for (let r = 0; r < next.height; r++) {
      for (let c = 0; c < next.width; c++) {
        if (r >= current.height || c >= current.width || next.get(r, c) !== current.get(r, c)) {
          flips.push([r, c, next.get(r, c) > 0]);
        }
      }
    }
    if (next.width === current.width && next.height === current.height) {
      this.board.overlay.flips = flips;
      this.board.overlay.givens = result.givens.map(([r, c]) => [r, c]);
      if (this.cellClues && result.clues) {  // clues shown and hidden, framed on the grid
        this.board.overlay.proposed = Picture.fromClueRows(result.clues);
        this.board.overlay.added = result.added;
        this.board.overlay.removed = result.removed;
      }
    }
    const title = {unique: 'Make unique', givens: 'Use givens instead', easier: 'Easier',
                   harder: 'Harder', make: 'Picture made into a puzzle'}[kind] || 'Proposal';
    const box = $('proposal-text');
    box.replaceChildren();
    const head = document.createElement('b');
    head.textContent = `${title}: ${result.unique ? 'unique' : 'not proved unique'}` +
      (result.report.target ? (result.reached ? ', target reached' : ', target out of reach') : '');
    const list = document.createElement('ul');
    for (const line of result.lines) {
      const item = document.createElement('li'); item.textContent = line; list.appendChild(item);
    }
    box.append(head, list);
    $('proposal').hidden = false;
    this.draw();
    this.legend();
  }

  accept() {
    const result = this.proposal;
    if (!result) return;
    if (this.cellClues && result.clues) {
      this.replaceCells(Picture.fromRows(result.grid), Picture.fromClueRows(result.clues));
      return;
    }
    const givens = result.givens.map(([r, c, f]) => [r, c, f]);
    this.replace(Picture.fromRows(result.grid, result.palette || null), givens);
  }

  reject() {
    this.proposal = null;
    $('proposal').hidden = true;
    Object.assign(this.board.overlay, {flips: null, added: null, removed: null, proposed: null});
    this.board.overlay.givens = this.givens.map(([r, c]) => [r, c]);
    this.draw();
    this.legend();
  }

  // -- opening, importing, saving ---------------------------------------------------------
  open(record) {
    this.remember();
    // another puzzle: nothing of the one before it (its grade, its proposal) stays
    this.lastGrade = null; this.lastCheck = null; this.gradedSequence = -1;
    this.setGrade(null);
    this.editing = record.editing || null;
    const palette = record.palette || null;
    // a kind whose clues sit in the cells opens with its digits to edit
    this.cellClues = this.editing && this.editing.lines === false && record.clues
      ? Picture.fromClueRows(record.clues) : null;
    this.cursor = [0, 0];
    if (this.cellClues && !record.grid) {
      this.picture = new Picture(record.width, record.height);
      this.clueOnly = null;
    } else if (record.grid) {
      this.picture = Picture.fromRows(record.grid, palette);
      this.clueOnly = null;
    } else {
      this.picture = new Picture(record.width, record.height, palette);
      const wrap = (clues) => clues.map((clue) => clue.map((n) => (Array.isArray(n) ? [n[0], 1] : [n, 1])));
      this.clueOnly = {rows: wrap(record.rows), columns: wrap(record.columns)};
    }
    this.givens = record.givens || [];
    this.path = record.path;
    const name = record.path || record.name;
    $('title').value = record.title || '';
    $('file-label').textContent = `${name}${record.count > 1 ? ` #${record.index}` : ''}` +
      (record.path ? '' : ' (from this computer; Save puts it in the folder)') +
      (record.from === 'solver' ? ' (picture found by the solver)' : '');
    $('save-path').value = name.replace(/\.[^.]+$/, '') + (record.path ? '-edited.yaml' : '.yaml');
    this.syncSize();
    this.changed();
  }

  async importPicture(file) {
    if (!file) return;
    const data = await dataUrlOf(file);
    const body = {picture: data, width: +$('width').value, height: +$('height').value,
                  fit: $('make-fit').value, invert: $('make-invert').checked,
                  edges: $('make-edges').checked, givens: $('make-givens').checked,
                  title: file.name.replace(/\.[^.]+$/, '')};
    if ($('make-threshold').value !== '') body.threshold = +$('make-threshold').value;
    if ($('make-level').value) body.level = $('make-level').value;
    if ($('make-colours').value !== '') body.colours = +$('make-colours').value;
    $('status').textContent = `Making ${file.name} into a ${body.width}×${body.height} puzzle…`;
    try {
      const result = await post('/api/make', body);
      this.remember();
      this.cellClues = null; this.editing = null;  // a picture is made into a nonogram
      this.picture = Picture.fromRows(result.original, result.palette || null);
      this.givens = [];
      this.clueOnly = null;
      $('title').value = body.title;
      this.syncSize();
      this.changed();
      this.showProposal(result, 'make');
    } catch (error) {
      this.toast(error.message);
    } finally {
      $('status').textContent = '';
    }
  }

  async openUpload(file) {
    if (!file) return;
    const data = await dataUrlOf(file);
    try {
      this.open(await post('/api/open', {name: file.name, content: data.split(',', 2)[1]}));
    } catch (error) {
      this.toast(error.message);
    }
  }

  async save() {
    const path = $('save-path').value.trim();
    if (!path) { this.toast('Give the file a name, e.g. cat.yaml'); return; }
    const body = {...this.payload(), path};
    try {
      let result;
      try {
        result = await post('/api/save', body);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        if (!window.confirm(`${path} exists. Replace it?`)) return;
        result = await post('/api/save', {...body, overwrite: true});
      }
      this.toast(`Saved ${result.path}`);
      $('file-label').textContent = result.path;
      document.dispatchEvent(new CustomEvent('library-changed'));
    } catch (error) {
      this.toast(error.message);
    }
  }

  async play() {
    if (!this.picture.filled() && !this.clueOnly && !this.cellClues) { this.toast('Nothing to play yet.'); return; }
    $('status').textContent = 'Grading for the player…';
    try {
      const record = await post('/api/play', this.payload());
      const host = $('play-host');
      host.textContent = '';
      const element = document.createElement('nonopress-puzzle');
      host.append(element);
      element.start(record);  // the web player's element (/player/player.js)
      $('play-dialog').showModal();
    } catch (error) {
      this.toast(error.message);
    } finally {
      $('status').textContent = '';
    }
  }

  async replay() {
    if (!this.picture.filled() && !this.clueOnly && !this.cellClues) { this.toast('Nothing to replay yet.'); return; }
    $('status').textContent = 'Grading for the replay…';
    try {
      const result = await post('/api/replay', this.payload());
      const frame = $('replay-frame'), text = $('replay-text');
      frame.hidden = !result.html; text.hidden = Boolean(result.html);
      if (result.html) frame.srcdoc = result.html; else text.textContent = result.text;
      $('replay-dialog').showModal();
    } catch (error) {
      this.toast(error.message);
    } finally {
      $('status').textContent = '';
    }
  }
}

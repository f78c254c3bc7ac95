// The Nonopress player: one script, no framework, no build step, no request to another host.
// Plays black-and-white and colour nonograms and fill-in crosswords from the JSON that
// `nonopress web` writes. Hints come from the grader's own step log in that JSON (the
// earliest logged step whose premises are all on the board and whose conclusion is not):
// this file holds no solver.
//
// A classic script, not a module: Chromium refuses module scripts on pages opened from disk
// (file://), and a static site must work there. It defines globalThis.NonopressPlayer (the
// studio's board reads clueOf from it) and the <nonopress-puzzle> element:
//   <script src="player.js" defer></script>
//   <nonopress-puzzle src="puzzle-01.json"></nonopress-puzzle>
'use strict';
(function () {
  const SCRIPT = document.currentScript;
  const EMPTY_MARK = 255;           // a cell the solver marked empty (a dot)
  const SOLVER_ID = 'nonopress-solver-id';
  const COLLECT_OFF = 'nonopress-collect-off';

  // -- shared with the studio: the clue of a line of values (0 = empty, k = colour k) -------
  function clueOf(values) {
    const runs = [];
    let run = 0, colour = 0;
    for (const raw of values) {
      const v = raw === EMPTY_MARK ? 0 : raw;
      if (v && v === colour) { run++; continue; }
      if (run) runs.push([run, colour]);
      run = v ? 1 : 0; colour = v;
    }
    if (run) runs.push([run, colour]);
    return runs;
  }

  // "0-3,7,9-12" -> [0,1,2,3,7,9,10,11,12]
  function ranges(text) {
    const out = [];
    if (!text) return out;
    for (const part of text.split(',')) {
      const [a, b] = part.split('-').map(Number);
      for (let k = a; k <= (b === undefined ? a : b); k++) out.push(k);
    }
    return out;
  }

  // the solution: base64, XORed with a xorshift32 stream seeded by the key (record.py)
  function reveal(blob, key) {
    const bytes = Uint8Array.from(atob(blob), (ch) => ch.charCodeAt(0));
    let state = parseInt(key.slice(0, 8), 16) >>> 0 || 0x9E3779B9;
    for (let k = 0; k < bytes.length; k++) {
      state ^= state << 13; state >>>= 0;
      state ^= state >>> 17;
      state ^= state << 5; state >>>= 0;
      bytes[k] ^= state & 0xff;
    }
    return new TextDecoder().decode(bytes);
  }

  function uuid4() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  function store(key, value) {
    try {
      if (value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* storage full or blocked: play on without saving */ }
  }
  function load(key) {
    try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch (e) { return null; }
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'text') node.textContent = value;
      else if (name === 'cls') node.className = value;
      else node.setAttribute(name, value === true ? '' : value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  function clock(seconds) {
    const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    const ss = String(s % 60).padStart(2, '0');
    return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
  }

  function device() {
    const coarse = matchMedia('(pointer: coarse)').matches;
    const side = Math.min(screen.width, screen.height);
    if (!coarse) return 'desktop';
    return side < 600 ? 'phone' : 'tablet';
  }

  function minutesText(g) {
    if (g.minutes === null || g.minutes === undefined) return '';
    const whole = (x) => (x < 1 ? x.toFixed(1) : String(Math.round(x)));
    return `People take about ${whole(g.minutes)} minutes (${whole(g.minutes_low)}-${whole(g.minutes_high)}).`;
  }

  function starsText(n) { return n ? `${'\u2605'.repeat(n)}${'\u2606'.repeat(Math.max(0, 5 - n))}` : ''; }

  // -- the player -------------------------------------------------------------------------
  class Player {
    constructor(host, data) {
      this.host = host;
      this.data = data;
      this.kind = data.kind;
      this.W = data.width; this.H = data.height;
      this.n = this.W * this.H;
      const answer = reveal(data.solution, data.key);
      this.solution = this.kind === 'fillin' ? answer.split('')
        : Uint8Array.from(answer, (ch) => parseInt(ch, 36));
      this.cells = this.kind === 'fillin' ? new Array(this.n).fill('') : new Uint8Array(this.n);
      this.locked = new Uint8Array(this.n);
      this.tool = 1;              // the value a click paints: a colour index or EMPTY_MARK
      this.active = 0;            // the keyboard's cell
      this.across = true;         // fill-in typing direction
      this.undoStack = []; this.redoStack = [];
      this.hint = null;           // {type: 'step'|'wrong', index, stage}
      this.site = data.site || {};
      this.saveKey = `nonopress:${data.key}`;
      this.stats = {seconds: 0, checks: 0, reveals: 0, errors_found: 0,
                    hints: {1: 0, 2: 0, 3: 0, 4: 0}, hint_rungs: []};
      this.solved = false;
      this.running = false;
      this.startedAt = null;
      this.recordId = uuid4();
      this.sent = false;
      this.givens();
      this.restore();
      this.build();
      this.refreshAll();
      this.startTimer();
      this.bindPage();
      if (this.solved) this.showSolved(false);
    }

    givens() {
      if (this.kind === 'fillin') {
        for (let i = 0; i < this.n; i++) {
          if (this.data.blocks[i] === '1') this.locked[i] = 1;
          const g = this.data.given[i];
          if (g && g !== '.') { this.cells[i] = g; this.locked[i] = 1; }
        }
        this.active = this.data.blocks.indexOf('0');
        return;
      }
      for (const [r, c, filled] of this.data.givens || []) {
        const i = r * this.W + c;
        this.cells[i] = filled ? this.solution[i] : EMPTY_MARK;
        this.locked[i] = 1;
      }
    }

    // -- saving and resuming --------------------------------------------------------------
    restore() {
      const saved = load(this.saveKey);
      if (!saved || saved.n !== this.n) return;
      for (let i = 0; i < this.n; i++) if (!this.locked[i]) this.cells[i] = saved.cells[i];
      Object.assign(this.stats, saved.stats || {});
      this.solved = !!saved.solved;
      this.startedAt = saved.startedAt || null;
      this.recordId = saved.recordId || this.recordId;
      this.sent = !!saved.sent;
      // an attempt reported as abandoned is over: coming back starts a new one (its own
      // record_id), on the board as it was left
      if (this.sent && !this.solved) { this.recordId = uuid4(); this.sent = false; }
    }

    save() {
      store(this.saveKey, {n: this.n, cells: Array.from(this.cells), stats: this.stats,
                           solved: this.solved, startedAt: this.startedAt,
                           recordId: this.recordId, sent: this.sent});
    }

    // -- building the page ------------------------------------------------------------------
    build() {
      const d = this.data, host = this.host;
      host.textContent = '';
      host.classList.add('np-player');
      const heading = el('h1', {cls: 'np-title', text: d.heading || `Puzzle ${d.number || ''}`.trim()});
      const facts = [d.size_label || `${this.W}\u00d7${this.H}`, d.grade && d.grade.level,
                     d.grade && d.grade.stars ? starsText(d.grade.stars) : '',
                     d.grade && d.grade.minutes ? `about ${Math.round(d.grade.minutes) || '<1'} min` : '']
        .filter(Boolean).join(' \u00b7 ');
      const meta = el('p', {cls: 'np-meta', text: facts});
      const byline = d.author ? el('p', {cls: 'np-author', text: `by ${d.author}`}) : null;
      const note = d.note ? el('p', {cls: 'np-note', text: d.note}) : null;
      this.status = el('p', {cls: 'np-status', role: 'status', 'aria-live': 'polite'});
      this.timerText = el('span', {cls: 'np-timer', 'aria-label': 'time'});
      host.append(heading, meta, byline || '', note || '', this.toolbar(), this.status);
      this.scroller = el('div', {cls: 'np-scroller'});
      this.board = this.kind === 'fillin' ? this.fillinBoard() : this.nonogramBoard();
      this.scroller.append(this.board);
      host.append(this.scroller);
      this.hintPanel = el('div', {cls: 'np-hint', hidden: true});
      host.append(this.hintPanel);
      if (this.kind === 'fillin') host.append(this.wordList());
      this.solvedPanel = el('section', {cls: 'np-solved', hidden: true, 'aria-label': 'Solved'});
      host.append(this.solvedPanel);
      if (this.site.collect) host.append(this.collectToggle());
      this.fit();
    }

    button(label, action, attrs) {
      const b = el('button', Object.assign({type: 'button', text: label}, attrs || {}));
      b.addEventListener('click', action);
      return b;
    }

    toolbar() {
      const bar = el('div', {cls: 'np-toolbar', role: 'toolbar', 'aria-label': 'Puzzle controls'});
      if (this.kind !== 'fillin') {
        const tools = el('div', {cls: 'np-tools', role: 'radiogroup', 'aria-label': 'What a click paints'});
        const colours = this.kind === 'colour' ? this.data.palette : [{name: 'filled', rgb: null}];
        this.toolButtons = [];
        colours.forEach((colour, k) => {
          const b = this.button(this.kind === 'colour' ? `${k + 1}` : 'Fill', () => this.setTool(k + 1),
            {role: 'radio', cls: 'np-tool', 'aria-label': this.kind === 'colour' ? `Paint ${colour.name} (key ${k + 1})` : 'Paint filled (key F)'});
          if (colour.rgb) { b.style.setProperty('--swatch', colour.rgb); b.classList.add('np-swatch'); }
          b.dataset.value = k + 1;
          this.toolButtons.push(b); tools.append(b);
        });
        const dot = this.button('Dot', () => this.setTool(EMPTY_MARK),
          {role: 'radio', cls: 'np-tool', 'aria-label': 'Mark empty (key X)'});
        dot.dataset.value = EMPTY_MARK;
        this.toolButtons.push(dot); tools.append(dot);
        bar.append(tools);
      }
      this.undoButton = this.button('Undo', () => this.undo(), {'aria-keyshortcuts': 'Control+Z'});
      this.redoButton = this.button('Redo', () => this.redo(), {'aria-keyshortcuts': 'Control+Y'});
      bar.append(this.undoButton, this.redoButton,
        this.button('Check', () => this.check()),
        this.button('Rewind', () => this.rewind(), {'aria-label': 'Rewind to the first error'}));
      if (this.kind !== 'fillin' && this.data.hints) {
        bar.append(this.button('Hint', () => this.nextHint(), {cls: 'np-hint-button', 'aria-keyshortcuts': 'H'}));
      }
      bar.append(this.button('Reveal cell', () => this.revealCells([this.active])),
        this.button(this.kind === 'fillin' ? 'Reveal word' : 'Reveal row', () => this.revealLine()),
        this.button('Reveal all', () => this.revealAll()));
      if (this.kind !== 'fillin' && matchMedia('(pointer: coarse)').matches) {
        // on a touch screen a finger on the grid paints; Move lets it pan and pinch instead
        const move = this.button('Move', () => {
          this.panning = !this.panning;
          move.setAttribute('aria-pressed', String(this.panning));
          this.host.classList.toggle('np-panning', this.panning);
        }, {'aria-pressed': 'false', 'aria-label': 'Move the grid instead of painting'});
        bar.append(move);
      }
      this.pauseButton = this.button('Pause', () => this.togglePause(), {'aria-pressed': 'false'});
      bar.append(this.timerText, this.pauseButton,
        this.button('\u2212', () => this.zoom(-1), {'aria-label': 'Zoom out'}),
        this.button('+', () => this.zoom(1), {'aria-label': 'Zoom in'}));
      return bar;
    }

    setTool(value) {
      this.tool = value;
      for (const b of this.toolButtons || []) b.setAttribute('aria-checked', String(Number(b.dataset.value) === value));
    }

    nonogramBoard() {
      const W = this.W, H = this.H, d = this.data;
      const grid = el('div', {cls: 'np-grid', role: 'grid',
        'aria-label': `Puzzle grid, ${H} rows by ${W} columns`, 'aria-rowcount': H + 1, 'aria-colcount': W + 1});
      const head = el('div', {cls: 'np-row np-head', role: 'row', 'aria-rowindex': 1});
      head.append(el('div', {cls: 'np-corner', role: 'none', text: ''}));
      this.colHeads = [];
      for (let c = 0; c < W; c++) {
        const h = el('div', {cls: 'np-clue np-colclue' + (c % 5 === 4 && c < W - 1 ? ' np-r5' : ''),
          role: 'columnheader', 'aria-colindex': c + 2});
        this.clueContent(h, d.columns[c], `column ${c + 1}`);
        this.colHeads.push(h); head.append(h);
      }
      grid.append(head);
      this.rowHeads = []; this.cellEls = new Array(this.n);
      for (let r = 0; r < H; r++) {
        const row = el('div', {cls: 'np-row' + (r % 5 === 4 && r < H - 1 ? ' np-b5' : ''), role: 'row', 'aria-rowindex': r + 2});
        const h = el('div', {cls: 'np-clue np-rowclue', role: 'rowheader', 'aria-colindex': 1});
        this.clueContent(h, d.rows[r], `row ${r + 1}`);
        this.rowHeads.push(h); row.append(h);
        for (let c = 0; c < W; c++) {
          const i = r * W + c;
          const cell = el('div', {cls: 'np-cell' + (c % 5 === 4 && c < W - 1 ? ' np-r5' : ''),
            role: 'gridcell', tabindex: i === 0 ? '0' : '-1', 'aria-colindex': c + 2});
          cell.dataset.i = i;
          this.cellEls[i] = cell; row.append(cell);
        }
        grid.append(row);
      }
      this.bindPointer(grid);
      grid.addEventListener('keydown', (e) => this.onKey(e));
      grid.addEventListener('focusin', (e) => {
        const i = e.target.dataset && e.target.dataset.i;
        if (i !== undefined) this.moveTo(Number(i), false);
      });
      this.setTool(1);
      return grid;
    }

    clueContent(h, clue, where) {
      const spoken = [];
      if (!clue.length) { h.append(el('span', {text: '0'})); spoken.push('0'); }
      for (const item of clue) {
        const [n, colour] = Array.isArray(item) ? item : [item, 0];
        const span = el('span', {text: String(n)});
        if (colour) {
          const c = this.data.palette[colour - 1];
          span.classList.add('np-colourclue');
          span.style.setProperty('--swatch', c.rgb);
          spoken.push(`${n} ${c.name}`);
        } else spoken.push(String(n));
        h.append(span);
      }
      h.setAttribute('aria-label', `${where} clue ${spoken.join(' ')}`);
    }

    fit() {
      const avail = Math.max(240, Math.min(window.innerWidth, 1100) - 28);
      // the widest row clue, in characters ("1 1 2 1 1" is 9)
      // (a colour clue's number sits on a swatch: count it wider)
      const chars = (x) => (Array.isArray(x) ? String(x[0]).length + 2.2 : String(x).length + 1);
      this.clueChars = this.kind === 'fillin' ? 0 : Math.max(2, ...this.data.rows.map(
        (c) => c.reduce((sum, x) => sum + chars(x), 0)));
      const across = this.W + this.clueChars * 0.36 + 0.4;
      // a finger needs a bigger cell than a mouse: a large grid then scrolls (and zooms)
      const least = matchMedia('(pointer: coarse)').matches ? 20 : 14;
      this.cellSize = Math.max(least, Math.min(40, Math.floor(avail / across)));
      this.applyZoom();
    }

    zoom(step) {
      this.cellSize = Math.max(10, Math.min(64, this.cellSize + step * 4));
      this.applyZoom();
    }

    applyZoom() {
      this.host.style.setProperty('--cell', `${this.cellSize}px`);
      // clue digits are 0.55 of a cell; a character of them about 0.6 of that wide
      const clue = Math.ceil(this.clueChars * this.cellSize * 0.55 * 0.62 + this.cellSize * 0.4);
      this.host.style.setProperty('--rowclue', `${clue}px`);
    }

    // -- marks ----------------------------------------------------------------------------
    correct(i) {
      const v = this.cells[i], s = this.solution[i];
      if (this.kind === 'fillin') return this.locked[i] || v === s;
      return this.locked[i] ? true : (v === EMPTY_MARK ? s === 0 : v !== 0 && v === s);
    }
    wrong(i) {
      const v = this.cells[i];
      if (this.locked[i] || !v) return false;
      if (this.kind === 'fillin') return v !== this.solution[i];
      return v === EMPTY_MARK ? this.solution[i] !== 0 : v !== this.solution[i];
    }

    apply(changes, record = true) {
      // changes: [[index, value], ...]; one undo step
      const done = [];
      for (const [i, v] of changes) {
        if (this.locked[i] || this.cells[i] === v) continue;
        done.push([i, this.cells[i], v]);
        this.cells[i] = v;
      }
      if (!done.length) return done;
      if (record) { this.undoStack.push(done); this.redoStack = []; }
      this.touched(done.map((x) => x[0]));
      return done;
    }

    touched(indices) {
      this.begin();
      const rows = new Set(), cols = new Set();
      for (const i of indices) { this.drawCell(i); rows.add(Math.floor(i / this.W)); cols.add(i % this.W); }
      if (this.kind !== 'fillin') {
        for (const r of rows) this.crossOff('row', r);
        for (const c of cols) this.crossOff('column', c);
      } else this.crossOffWords();
      this.clearMarks();
      this.scheduleSave();
      this.checkSolved();
    }

    drawCell(i) {
      const cell = this.cellEls[i];
      if (!cell) return;
      const v = this.cells[i], r = Math.floor(i / this.W) + 1, c = (i % this.W) + 1;
      if (this.kind === 'fillin') {
        if (this.data.blocks[i] === '1') return;
        cell.textContent = v;
        cell.setAttribute('aria-label', `row ${r}, column ${c}, ${v ? `letter ${v}` : 'blank'}${this.locked[i] ? ', given' : ''}`);
        return;
      }
      let state = 'unknown';
      cell.classList.toggle('np-filled', v > 0 && v !== EMPTY_MARK);
      cell.classList.toggle('np-dot', v === EMPTY_MARK);
      if (v === EMPTY_MARK) state = 'marked empty';
      else if (v) {
        state = this.kind === 'colour' ? this.data.palette[v - 1].name : 'filled';
        if (this.kind === 'colour') cell.style.setProperty('--ink', this.data.palette[v - 1].rgb);
      }
      cell.setAttribute('aria-label', `row ${r}, column ${c}, ${state}${this.locked[i] ? ', given' : ''}`);
    }

    refreshAll() {
      for (let i = 0; i < this.n; i++) this.drawCell(i);
      if (this.kind !== 'fillin') {
        for (let r = 0; r < this.H; r++) this.crossOff('row', r);
        for (let c = 0; c < this.W; c++) this.crossOff('column', c);
      } else this.crossOffWords();
      this.updateTimer();
    }

    line(axis, k) {
      const out = [];
      if (axis === 'row') for (let c = 0; c < this.W; c++) out.push(k * this.W + c);
      else for (let r = 0; r < this.H; r++) out.push(r * this.W + k);
      return out;
    }

    crossOff(axis, k) {
      const values = this.line(axis, k).map((i) => this.cells[i]);
      const want = (axis === 'row' ? this.data.rows : this.data.columns)[k]
        .map((x) => (Array.isArray(x) ? x : [x, 1]));
      const have = clueOf(values);
      const done = have.length === want.length && have.every((x, j) => x[0] === want[j][0] && x[1] === want[j][1]);
      const head = (axis === 'row' ? this.rowHeads : this.colHeads)[k];
      head.classList.toggle('np-done', done);
    }

    // -- pointer: a click fills (or clears what it painted), a drag paints a run ------------
    bindPointer(grid) {
      let drag = null;
      const indexAt = (x, y) => {
        const first = this.cellEls[0].getBoundingClientRect();
        const size = first.width;
        const c = Math.floor((x - first.left) / size), r = Math.floor((y - first.top) / size);
        if (r < 0 || c < 0 || r >= this.H || c >= this.W) return -1;
        return r * this.W + c;
      };
      grid.addEventListener('contextmenu', (e) => { if (e.target.dataset.i !== undefined) e.preventDefault(); });
      grid.addEventListener('pointerdown', (e) => {
        if (e.target.dataset.i === undefined || this.paused) return;
        if (this.panning && e.pointerType !== 'mouse') return;
        e.preventDefault();
        const i = Number(e.target.dataset.i);
        const tool = e.button === 2 || e.ctrlKey ? EMPTY_MARK : this.tool;
        const value = this.cells[i] === tool ? 0 : tool;   // the same tool again clears
        drag = {start: i, value, last: i, painted: null};
        grid.setPointerCapture(e.pointerId);
        this.moveTo(i, true);
        drag.painted = this.apply([[i, value]]);
      });
      grid.addEventListener('pointermove', (e) => {
        if (!drag) return;
        const i = indexAt(e.clientX, e.clientY);
        if (i < 0 || i === drag.last) return;
        drag.last = i;
        // along the row or the column of the start, whichever the pointer is further along
        const W = this.W, r0 = Math.floor(drag.start / W), c0 = drag.start % W;
        const r = Math.floor(i / W), c = i % W;
        const run = [];
        if (Math.abs(c - c0) >= Math.abs(r - r0)) {
          for (let k = Math.min(c, c0); k <= Math.max(c, c0); k++) run.push(r0 * W + k);
        } else {
          for (let k = Math.min(r, r0); k <= Math.max(r, r0); k++) run.push(k * W + c0);
        }
        // undo what the drag painted so far, then paint the run as one undo step
        const before = drag.painted || [];
        for (let k = before.length - 1; k >= 0; k--) this.cells[before[k][0]] = before[k][1];
        if (before.length) this.undoStack.pop();
        const changed = before.map((x) => x[0]);
        drag.painted = this.apply(run.map((k) => [k, drag.value]));
        if (!drag.painted.length && changed.length) this.touched(changed);
        else this.touched(changed.filter((k) => !run.includes(k)));
      });
      const end = () => { drag = null; };
      grid.addEventListener('pointerup', end);
      grid.addEventListener('pointercancel', end);
    }

    moveTo(i, focus) {
      if (i < 0 || i >= this.n) return;
      const old = this.cellEls[this.active];
      if (old) old.tabIndex = -1;
      this.active = i;
      const cell = this.cellEls[i];
      cell.tabIndex = 0;
      if (focus && document.activeElement !== cell) cell.focus({preventScroll: false});
      if (this.kind === 'fillin') this.showWord();
    }

    onKey(e) {
      if (this.paused) return;
      const W = this.W, H = this.H, i = this.active, r = Math.floor(i / W), c = i % W;
      const key = e.key;
      const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if ((e.ctrlKey || e.metaKey) && (key === 'z' || key === 'Z')) { e.preventDefault(); if (e.shiftKey) this.redo(); else this.undo(); return; }
      if ((e.ctrlKey || e.metaKey) && (key === 'y' || key === 'Y')) { e.preventDefault(); this.redo(); return; }
      if (moves[key]) {
        e.preventDefault();
        const [dr, dc] = moves[key];
        const nr = Math.min(H - 1, Math.max(0, r + dr)), nc = Math.min(W - 1, Math.max(0, c + dc));
        if (this.kind === 'fillin') { this.across = dc !== 0; }
        this.moveTo(nr * W + nc, true);
        return;
      }
      if (this.kind === 'fillin') return this.onLetterKey(e);
      const set = (v) => { e.preventDefault(); this.apply([[i, this.cells[i] === v ? 0 : v]]); };
      if (key === ' ' || key === 'Enter' || key === 'f' || key === 'F') set(this.kind === 'colour' ? this.tool === EMPTY_MARK ? 1 : this.tool : 1);
      else if (key === 'x' || key === 'X' || key === '.') set(EMPTY_MARK);
      else if (key === 'Backspace' || key === 'Delete' || key === '0') { e.preventDefault(); this.apply([[i, 0]]); }
      else if (this.kind === 'colour' && /^[1-9]$/.test(key) && Number(key) <= this.data.palette.length) {
        this.setTool(Number(key)); set(Number(key));
      } else if (key === 'h' || key === 'H') { e.preventDefault(); this.nextHint(); }
      else if (key === 'Home') { e.preventDefault(); this.moveTo(r * W, true); }
      else if (key === 'End') { e.preventDefault(); this.moveTo(r * W + W - 1, true); }
    }

    undo() {
      const step = this.undoStack.pop();
      if (!step) return;
      for (let k = step.length - 1; k >= 0; k--) this.cells[step[k][0]] = step[k][1];
      this.redoStack.push(step);
      this.touched(step.map((x) => x[0]));
    }

    redo() {
      const step = this.redoStack.pop();
      if (!step) return;
      for (const [i, , after] of step) this.cells[i] = after;
      this.undoStack.push(step);
      this.touched(step.map((x) => x[0]));
    }

    // -- check, rewind, reveal ----------------------------------------------------------------
    wrongCells() {
      const out = [];
      for (let i = 0; i < this.n; i++) if (this.wrong(i)) out.push(i);
      return out;
    }

    clearMarks() {
      if (!this.marked) return;
      for (const i of this.marked) this.cellEls[i] && this.cellEls[i].classList.remove('np-wrong', 'np-show');
      this.marked = null;
    }

    markCells(indices, cls) {
      this.clearMarks();
      for (const i of indices) this.cellEls[i] && this.cellEls[i].classList.add(cls);
      this.marked = indices;
    }

    check() {
      this.begin();
      this.stats.checks++;
      const bad = this.wrongCells();
      this.stats.errors_found += bad.length;
      this.markCells(bad, 'np-wrong');
      this.say(bad.length ? `${bad.length} wrong mark${bad.length === 1 ? '' : 's'}, shown in red.` : 'No mistakes so far.');
      this.scheduleSave();
    }

    rewind() {
      let steps = 0;
      while (this.wrongCells().length && this.undoStack.length) {
        const step = this.undoStack.pop();
        for (let k = step.length - 1; k >= 0; k--) this.cells[step[k][0]] = step[k][1];
        this.redoStack.push(step);
        steps++;
      }
      this.refreshAll();
      this.scheduleSave();
      if (this.wrongCells().length) {  // made before this visit: clear them instead
        const bad = this.wrongCells();
        this.apply(bad.map((i) => [i, this.kind === 'fillin' ? '' : 0]));
        this.say(`Cleared ${bad.length} wrong mark${bad.length === 1 ? '' : 's'}.`);
      } else this.say(steps ? `Rewound ${steps} move${steps === 1 ? '' : 's'} to before the first error.` : 'No mistakes to rewind.');
    }

    truth(i) { return this.kind === 'fillin' ? this.solution[i] : this.solution[i] || EMPTY_MARK; }

    revealCells(indices) {
      const changes = indices.filter((i) => !this.locked[i] && !this.correct(i)).map((i) => [i, this.truth(i)]);
      if (!changes.length) { this.say('Already right.'); return; }
      this.stats.reveals++;
      this.apply(changes);
      this.say(`Revealed ${changes.length} cell${changes.length === 1 ? '' : 's'}.`);
    }

    revealLine() {
      if (this.kind === 'fillin') return this.revealCells(this.wordCells(this.active, this.across));
      this.revealCells(this.line('row', Math.floor(this.active / this.W)));
    }

    revealAll() {
      const all = [];
      for (let i = 0; i < this.n; i++) all.push(i);
      this.revealCells(all);
    }

    // -- hints: from the grader's log, in four stages ---------------------------------------
    findHint() {
      const bad = this.wrongCells();
      if (bad.length) return {type: 'wrong', index: bad[0]};
      const table = this.data.hints, steps = table.steps;
      let allBefore = true;
      for (let k = 0; k < steps.length; k++) {
        const s = steps[k];
        const concl = s._c || (s._c = ranges(s.c));
        if (concl.every((i) => this.correct(i))) continue;
        let ok;
        if (s.g) ok = allBefore;
        else {
          const line = s._line || (s._line = this.line(s.a, s.i));
          const prem = s._p || (s._p = ranges(s.p).map((p) => line[p]).concat(ranges(s.px)));
          ok = prem.every((i) => this.correct(i));
        }
        allBefore = false;
        if (ok) return {type: 'step', index: k};
      }
      return null;
    }

    nextHint() {
      if (this.solved) { this.say('Solved already.'); return; }
      this.begin();
      const found = this.findHint();
      if (!found) { this.say('Nothing left to find: every cell is in place.'); return; }
      const same = this.hint && this.hint.type === found.type && this.hint.index === found.index;
      const stage = same ? Math.min(this.hint.stage + 1, found.type === 'wrong' ? 2 : 4) : 1;
      this.hint = Object.assign(found, {stage});
      this.stats.hints[stage]++;
      if (found.type === 'step' && stage === 1) this.stats.hint_rungs.push(this.data.hints.rungs[this.data.hints.steps[found.index].r]);
      this.showHint();
      this.scheduleSave();
    }

    showHint() {
      const h = this.hint, panel = this.hintPanel, table = this.data.hints;
      panel.textContent = '';
      panel.hidden = false;
      let text, cells = [];
      if (h.type === 'wrong') {
        const r = Math.floor(h.index / this.W) + 1, c = (h.index % this.W) + 1;
        text = h.stage === 1 ? 'One of your marks is wrong: no logical step can follow from it.'
          : `Row ${r}, column ${c} is wrong.`;
        if (h.stage === 2) cells = [h.index];  // errors_found counts what checks found
      } else {
        const s = table.steps[h.index];
        const say = table.bracket ? `[${table.rungs[s.r]}] ${s.s}` : `${table.rungs[s.r]}: ${s.s}`;
        const where = s.a ? `${s.a === 'row' ? 'Row' : 'Column'} ${s.i + 1}`
          : s.at !== undefined ? `Row ${Math.floor(s.at / this.W) + 1}, column ${(s.at % this.W) + 1}` : 'The whole grid';
        text = [table.where[s.w], where, say, 'The cells it decides are shown: accept them, or place them yourself.'][h.stage - 1];
        if (h.stage === 2 && s.a) cells = this.line(s.a, s.i);
        if (h.stage === 4) cells = ranges(s.c);
      }
      panel.append(el('p', {cls: 'np-hint-stage', text: `Hint ${h.stage}: ${text}`}));
      const last = h.type === 'wrong' ? 2 : 4;
      if (h.stage < last) panel.append(this.button('More', () => this.nextHint(), {'aria-label': 'Hint: tell me more'}));
      if (h.stage === last) {
        panel.append(this.button(h.type === 'wrong' ? 'Clear it' : 'Accept', () => this.acceptHint()));
      }
      panel.append(this.button('Close', () => { panel.hidden = true; this.clearMarks(); }));
      this.say(`Hint ${h.stage}: ${text}`, false);
      this.markCells(cells, h.type === 'wrong' ? 'np-wrong' : 'np-show');
    }

    acceptHint() {
      const h = this.hint;
      if (!h) return;
      if (h.type === 'wrong') this.apply([[h.index, 0]]);
      else this.apply(ranges(this.data.hints.steps[h.index].c).map((i) => [i, this.truth(i)]));
      this.hint = null;
      this.hintPanel.hidden = true;
    }

    // -- the timer: runs while the page is visible, from the first move ---------------------
    begin() {
      if (!this.startedAt) this.startedAt = new Date().toISOString().slice(0, 16) + 'Z';
      this.moved = true;
    }

    startTimer() {
      this.last = performance.now();
      this.running = !this.solved;
      this.ticker = setInterval(() => this.tick(), 1000);
    }

    tick() {
      const now = performance.now();
      if (this.running && !this.paused && !document.hidden && !this.solved) {
        this.stats.seconds += (now - this.last) / 1000;
        this.updateTimer();
        if (Math.floor(this.stats.seconds) % 10 === 0) this.scheduleSave();
      }
      this.last = now;
    }

    updateTimer() { this.timerText.textContent = clock(this.stats.seconds); }

    togglePause() {
      this.paused = !this.paused;
      this.pauseButton.textContent = this.paused ? 'Resume' : 'Pause';
      this.pauseButton.setAttribute('aria-pressed', String(this.paused));
      this.board.classList.toggle('np-paused', this.paused);
      this.say(this.paused ? 'Paused.' : 'Timer running.');
    }

    bindPage() {
      document.addEventListener('visibilitychange', () => { this.last = performance.now(); if (document.hidden) this.saveNow(); });
      window.addEventListener('pagehide', () => { this.saveNow(); this.sendAbandon(); });
      window.addEventListener('resize', () => this.fit());
      this.retryPending();
    }

    scheduleSave() {
      if (this.saveTimer) return;
      // after a quiet moment: a save never delays the paint of the next click
      this.saveTimer = setTimeout(() => {
        if (window.requestIdleCallback) requestIdleCallback(() => this.saveNow(), {timeout: 2000});
        else this.saveNow();
      }, 300);
    }

    saveNow() {
      clearTimeout(this.saveTimer); this.saveTimer = null;
      this.save();
    }

    say(text, visible = true) {
      // re-set so the same words are announced again; a hint is read out but not shown
      // twice on screen (its panel shows it)
      this.status.classList.toggle('np-sr-only', !visible);
      this.status.textContent = '';
      setTimeout(() => { this.status.textContent = text; }, 20);
    }

    // -- solved -------------------------------------------------------------------------------
    isSolved() {
      for (let i = 0; i < this.n; i++) {
        if (this.kind === 'fillin') { if (this.data.blocks[i] === '0' && this.cells[i] !== this.solution[i]) return false; }
        else if (this.solution[i] ? this.cells[i] !== this.solution[i] : (this.cells[i] && this.cells[i] !== EMPTY_MARK)) return false;
      }
      return true;
    }

    checkSolved() {
      if (this.solved || !this.isSolved()) return;
      this.solved = true;
      this.running = false;
      this.saveNow();
      this.showSolved(true);
      this.sendRecord(true);
    }

    showSolved(announce) {
      const s = this.stats, g = this.data.grade || {}, p = this.solvedPanel;
      p.textContent = '';
      const hints = s.hints[1] + s.hints[2] + s.hints[3] + s.hints[4];
      // the title shown once solved is veiled as the answer is (app/play.py veiled_meta)
      const solvedTitle = this.data.veiled_title
        ? reveal(this.data.veiled_title, this.data.key.slice(8)) : (this.data.solved_title || '');
      const title = solvedTitle ? `Solved: ${solvedTitle}` : 'Solved!';
      p.append(el('h2', {text: title}),
        el('p', {text: `Your time: ${clock(s.seconds)}. Hints: ${hints}, checks: ${s.checks}, reveals: ${s.reveals}.`}),
        g.level ? el('p', {text: [minutesText(g), `Level: ${g.level}.`, g.stars ? `Stars: ${starsText(g.stars)} (${g.stars} of 5).` : ''].filter(Boolean).join(' ')}) : '',
        this.button('Play again', () => this.restart()));
      p.hidden = false;
      this.board.classList.add('np-complete');
      if (announce) this.say(`Solved in ${clock(s.seconds)}.`);
    }

    restart() {
      store(this.saveKey, undefined);
      this.cells.fill(this.kind === 'fillin' ? '' : 0);
      this.givens();
      this.stats = {seconds: 0, checks: 0, reveals: 0, errors_found: 0, hints: {1: 0, 2: 0, 3: 0, 4: 0}, hint_rungs: []};
      this.solved = false; this.running = true; this.startedAt = null; this.sent = false;
      this.recordId = uuid4(); this.undoStack = []; this.redoStack = []; this.moved = false;
      this.solvedPanel.hidden = true;
      this.board.classList.remove('np-complete');
      this.refreshAll();
      this.say('A fresh grid.');
    }

    // -- solve statistics: only with --collect, only while the toggle is on ------------------
    collecting() { return !!this.site.collect && !load(COLLECT_OFF); }

    collectToggle() {
      const box = el('input', {type: 'checkbox', id: `np-collect-${this.data.key}`});
      box.checked = !load(COLLECT_OFF);
      box.addEventListener('change', () => store(COLLECT_OFF, box.checked ? undefined : true));
      return el('p', {cls: 'np-collect'}, box,
        el('label', {for: box.id, text: ' Send anonymous solve statistics'}));
    }

    record(completed) {
      let solver = null;
      try {
        solver = localStorage.getItem(SOLVER_ID);
        if (!solver) { solver = uuid4(); localStorage.setItem(SOLVER_ID, solver); }
      } catch (e) { solver = solver || uuid4(); }
      const s = this.stats;
      return {v: 1, record_id: this.recordId, solver_id: solver, puzzle_key: this.data.key,
              grader_version: (this.data.grade || {}).grader_version || '',
              seconds_active: Math.round(s.seconds * 10) / 10, completed,
              checks: s.checks, reveals: s.reveals, errors_found: s.errors_found,
              hints: {1: s.hints[1], 2: s.hints[2], 3: s.hints[3], 4: s.hints[4]},
              hint_rungs: s.hint_rungs.slice(), device: device(),
              started_at: this.startedAt || new Date().toISOString().slice(0, 16) + 'Z',
              player: this.site.player || 'nonopress-player'};
    }

    sendRecord(completed) {
      // a fill-in has no nonogram key for the collector to file its solves under
      if (!this.collecting() || this.sent || this.kind === 'fillin') return;
      const body = JSON.stringify(this.record(completed));
      this.sent = true;
      this.save();
      const pending = load('nonopress-pending') || [];
      pending.push({url: this.site.collect, body});
      store('nonopress-pending', pending.slice(-50));
      this.retryPending();
    }

    retryPending() {
      const pending = load('nonopress-pending') || [];
      if (!pending.length || !this.site.collect || load(COLLECT_OFF)) return;
      for (const item of pending) {
        fetch(item.url, {method: 'POST', body: item.body, headers: {'Content-Type': 'text/plain'}, keepalive: true, mode: 'cors', credentials: 'omit'})
          // stored, or refused for good (a 4xx other than too many requests): never sent
          // again; a busy or failing collector (429, 5xx) is asked again later
          .then((r) => {
            if (r.ok || (r.status >= 400 && r.status < 500 && r.status !== 429)) this.dropPending(item.body);
            else this.retryLater();
          })
          .catch(() => this.retryLater());
      }
    }

    retryLater() {
      // one timer however many records failed: each retry sends them all again
      if (this.retryTimer) return;
      this.retryTimer = setTimeout(() => { this.retryTimer = null; this.retryPending(); }, 30000);
    }

    dropPending(body) {
      store('nonopress-pending', (load('nonopress-pending') || []).filter((x) => x.body !== body));
    }

    sendAbandon() {
      if (!this.collecting() || this.sent || this.solved || !this.moved || this.kind === 'fillin') return;
      const body = JSON.stringify(this.record(false));
      if (navigator.sendBeacon && navigator.sendBeacon(this.site.collect, new Blob([body], {type: 'text/plain'}))) {
        this.sent = true;
        this.save();
      }
    }

    // -- fill-in crosswords: typing ---------------------------------------------------------
    fillinBoard() {
      const W = this.W, H = this.H;
      const grid = el('div', {cls: 'np-grid np-fillin', role: 'grid',
        'aria-label': `Fill-in grid, ${H} rows by ${W} columns`, 'aria-rowcount': H, 'aria-colcount': W});
      this.cellEls = new Array(this.n);
      for (let r = 0; r < H; r++) {
        const row = el('div', {cls: 'np-row', role: 'row', 'aria-rowindex': r + 1});
        for (let c = 0; c < W; c++) {
          const i = r * W + c, block = this.data.blocks[i] === '1';
          const cell = el('div', {cls: block ? 'np-cell np-block' : 'np-cell np-letter', role: 'gridcell',
            tabindex: i === this.active ? '0' : '-1', 'aria-colindex': c + 1});
          if (block) cell.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}, block`);
          cell.dataset.i = i;
          this.cellEls[i] = cell; row.append(cell);
        }
        grid.append(row);
      }
      grid.addEventListener('pointerdown', (e) => {
        const i = e.target.dataset.i;
        if (i === undefined || this.data.blocks[Number(i)] === '1') return;
        if (Number(i) === this.active) this.across = !this.across;
        this.moveTo(Number(i), true);
      });
      grid.addEventListener('keydown', (e) => this.onKey(e));
      grid.addEventListener('focusin', (e) => {
        const i = e.target.dataset && e.target.dataset.i;
        if (i !== undefined && this.data.blocks[Number(i)] === '0') this.moveTo(Number(i), false);
      });
      return grid;
    }

    wordCells(i, across) {
      const W = this.W, open = (k) => this.data.blocks[k] === '0';
      const step = across ? 1 : W, out = [];
      const inLine = (a, b) => (across ? Math.floor(a / W) === Math.floor(b / W) : true);
      let k = i;
      while (k - step >= 0 && inLine(k - step, i) && open(k - step)) k -= step;
      while (k < this.n && inLine(k, i) && open(k)) { out.push(k); k += step; }
      return out;
    }

    showWord() {
      for (const e of this.host.querySelectorAll('.np-word')) e.classList.remove('np-word');
      for (const k of this.wordCells(this.active, this.across)) this.cellEls[k].classList.add('np-word');
    }

    onLetterKey(e) {
      const key = e.key, i = this.active, step = this.across ? 1 : this.W;
      const open = (k) => k >= 0 && k < this.n && this.data.blocks[k] === '0'
        && (!this.across || Math.floor(k / this.W) === Math.floor(i / this.W));
      if (/^[a-zA-Z]$/.test(key) && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        this.apply([[i, key.toUpperCase()]]);
        if (open(i + step)) this.moveTo(i + step, true);
      } else if (key === 'Backspace') {
        e.preventDefault();
        if (this.cells[i] && !this.locked[i]) this.apply([[i, '']]);
        else if (open(i - step)) { this.moveTo(i - step, true); this.apply([[i - step, '']]); }
      } else if (key === 'Delete') { e.preventDefault(); this.apply([[i, '']]); }
      else if (key === ' ') { e.preventDefault(); this.across = !this.across; this.showWord(); this.say(this.across ? 'Across.' : 'Down.'); }
    }

    wordList() {
      const box = el('section', {cls: 'np-words', 'aria-label': 'Words to place'});
      this.wordEls = [];
      for (const [length, words] of Object.entries(this.data.words)) {
        const list = el('ul', {});
        for (const w of words) {
          const item = el('li', {text: w});
          item.dataset.word = w;
          this.wordEls.push(item); list.append(item);
        }
        box.append(el('h2', {text: `${length} letters`}), list);
      }
      return box;
    }

    crossOffWords() {
      if (!this.wordEls) return;
      const placed = [];
      const seen = new Set();
      for (let i = 0; i < this.n; i++) {
        if (this.data.blocks[i] !== '0') continue;
        for (const across of [true, false]) {
          const cells = this.wordCells(i, across);
          if (cells.length < 2 || cells[0] !== i) continue;
          const id = `${i}${across}`;
          if (seen.has(id)) continue;
          seen.add(id);
          const word = cells.map((k) => this.cells[k]).join('');
          if (word.length === cells.length) placed.push(word);
        }
      }
      for (const item of this.wordEls) {
        const k = placed.indexOf(item.dataset.word);
        item.classList.toggle('np-done', k >= 0);
        if (k >= 0) placed.splice(k, 1);
      }
    }
  }

  // -- the element: <nonopress-puzzle src="x.json"> or data="id of a JSON script" -----------
  function styleSheet() {
    if (document.querySelector('link[data-nonopress]') || document.querySelector('link[href$="player.css"]')) return;
    if (!SCRIPT || !SCRIPT.src) return;
    const link = el('link', {rel: 'stylesheet', href: new URL('player.css', SCRIPT.src).href, 'data-nonopress': true});
    document.head.append(link);
  }

  class NonopressPuzzle extends HTMLElement {
    connectedCallback() {
      if (this.player) return;
      styleSheet();
      const inline = this.getAttribute('data');
      if (inline) { this.start(JSON.parse(document.getElementById(inline).textContent)); return; }
      const src = this.getAttribute('src');
      if (!src) return;
      this.textContent = 'Loading the puzzle\u2026';
      fetch(src).then((r) => { if (!r.ok) throw new Error(`${src}: ${r.status}`); return r.json(); })
        .then((data) => this.start(data))
        .catch((err) => { this.textContent = `The puzzle could not be loaded (${err.message}).`; });
    }

    disconnectedCallback() {
      if (this.player) clearInterval(this.player.ticker);
    }

    start(data) {
      this.player = new Player(this, data);
      if (performance.mark) performance.mark('nonopress-interactive');
      this.dispatchEvent(new CustomEvent('nonopress-ready', {bubbles: true}));
    }
  }

  globalThis.NonopressPlayer = {clueOf, ranges, reveal, Player, EMPTY_MARK};
  if (!customElements.get('nonopress-puzzle')) customElements.define('nonopress-puzzle', NonopressPuzzle);
})();

// The black-and-white nonogram's board for the player's shell (../player.js): clues beside
// and above the grid, a click fills (or clears what it painted), a drag paints a run, a
// right click or the Dot tool marks a cell empty, clues crossed off as their line matches.
// Its class is the line board the colour board (colour.js) extends: a palette of one.
// Also NonopressPlayer.clueOf, which the studio's editor draws its clues with.
'use strict';
(function () {
  const P = globalThis.NonopressPlayer;
  const {el, button, ranges} = P;
  const EMPTY_MARK = 255;           // a cell the solver marked empty (a dot)
  const LONG_PRESS_MS = 450;        // a finger held this long on a cell marks it empty

  /**
   * @typedef {import('../puzzle').LinePuzzle} LinePuzzle
   * @typedef {import('../puzzle').HintStep} HintStep
   * @typedef {import('../puzzle').Shell} Shell
   * @typedef {import('../puzzle').Checks} Checks
   * @typedef {import('../puzzle').PaletteColour} PaletteColour
   */

  /**
   * The clue of a line of values (0 = empty, k = colour k): [[length, colour], ...].
   */
  function clueOf(values) {
    /** @type {[number, number][]} */
    const runs = [];
    let run = 0, colour = 0;
    for (const raw of Array.from(values)) {
      const v = raw === EMPTY_MARK ? 0 : raw;
      if (v && v === colour) { run++; continue; }
      if (run) runs.push([run, colour]);
      run = v ? 1 : 0; colour = v;
    }
    if (run) runs.push([run, colour]);
    return runs;
  }

  class LineBoard {
    constructor(shell) {
      this.shell = shell;
      this.data = /** @type {LinePuzzle} */ (shell.data);
      this.W = shell.W; this.H = shell.H; this.n = shell.n;
      this.blank = 0;
      this.active = 0;              // the keyboard's cell
      this.tool = 1;                // the value a click paints: a colour index or EMPTY_MARK
      this.words = shell.words;
      this.lineName = this.words._('Reveal row');  // the label of the shell's Reveal button
      this.reports = true;          // solve records are filed under the puzzle's key
      this.panning = false;
      /** @type {HTMLElement | null} the pressed cell, focused once its paint is shown */
      this.focusDue = null;
      /** a key pressed before that focus lands: the focus first, then the key (bound once) */
      this.keyEarly = (/** @type {KeyboardEvent} */ e) => {
        if (!this.focusDue) return;
        const grid = this.shell.grid;
        const inGrid = !!grid && e.composedPath().includes(grid);
        this.focusNow();
        // a key aimed at a cell is the grid's own; one aimed elsewhere (the page, a button
        // pressed before the cell) goes to the pressed cell, as if focused already
        if (!inGrid) { e.stopPropagation(); this.shell.onKey(e); }
      };
      /** @type {HTMLElement[]} */
      this.cellEls = [];
      /** @type {HTMLElement[]} */
      this.rowHeads = [];
      /** @type {HTMLElement[]} */
      this.colHeads = [];
      /** @type {HTMLButtonElement[]} */
      this.toolButtons = [];
      this.colours = this.palette();
      // each clue as [length, colour] pairs, once
      this.rowClues = this.data.rows.map((c) => this.pairs(c));
      this.columnClues = this.data.columns.map((c) => this.pairs(c));
    }

    // -- what the kind says: the colour board overrides these -------------------------------
    /**
     * Check the kind's own fields (the shell checked the rest).
     */
    static check(d, c) {
      LineBoard.checkLines(d, c, (item, where, length) => {
        c.need(c.isInt(item, 1, length), where, `not a length from 1 to ${length}`);
        return /** @type {number} */ (item);
      });
      c.need(d.palette === undefined || d.palette === null, 'palette', 'a black-and-white puzzle has none');
    }

    /**
     * Rows and columns: one clue per line, each run inside its line, the givens on the grid.
     */
    static checkLines(d, c, run) {
      for (const [axis, count, length] of /** @type {[string, number, number][]} */ (
        [['rows', d.height, d.width], ['columns', d.width, d.height]])) {
        const lines = d[axis];
        c.need(Array.isArray(lines) && lines.length === count, axis, `not a list of ${count} clues`);
        lines.forEach((clue, k) => {
          const where = `${axis}[${k}]`;
          c.need(c.isList(clue, length), where, `not a list of at most ${length} runs`);
          let cells = 0;
          /** @type {unknown[]} */ (clue).forEach((item, j) => { cells += run(item, `${where}[${j}]`, length); });
          c.need(cells <= length, where, `runs longer than the line's ${length} cells`);
        });
      }
      c.need(d.givens === undefined || c.isList(d.givens, d.width * d.height), 'givens', 'not a list of cells');
      (d.givens || []).forEach((g, k) => {
        c.need(Array.isArray(g) && g.length === 3 && c.isInt(g[0], 0, d.height - 1)
               && c.isInt(g[1], 0, d.width - 1) && (g[2] === 0 || g[2] === 1),
        `givens[${k}]`, 'not [row, column, 0 or 1] on the grid');
      });
      if (d.hints) {
        d.hints.steps.forEach((s, k) => {
          const at = `hints.steps[${k}]`;
          if (s.g) return;
          c.need(s.a === 'row' || s.a === 'column', `${at}.a`, 'not "row" or "column"');
          const lines = s.a === 'row' ? d.height : d.width;
          c.need(c.isInt(s.i, 0, lines - 1), `${at}.i`, 'not a line of the grid');
          c.checkRanges(s.p, s.a === 'row' ? d.width : d.height, `${at}.p`);
          if (s.px !== undefined) c.checkRanges(s.px, d.width * d.height, `${at}.px`);
        });
      }
    }

    /**
     * The answer holds one character per cell, each a value of the palette.
     */
    static fits(answer, d) {
      const most = d.palette ? d.palette.length : 1;
      if (answer.length !== d.width * d.height) return false;
      for (let i = 0; i < answer.length; i++) {
        const v = parseInt(answer[i], 36);
        if (!(v >= 0 && v <= most)) return false;
      }
      return true;
    }

    // the colours a click paints
    palette() { return [{name: this.words._('filled'), rgb: ''}]; }

    pairs(clue) { return clue.map((x) => [x, 1]); }

    // k: the tool's index from 0
    toolLabel(k) { return k ? `${k + 1}` : this.words._('Fill'); }
    toolName(k) {
      return k ? this.words._('Paint {colour} (key {key})', {colour: this.colours[k].name, key: k + 1})
        : this.words._('Paint filled (key F)');
    }

    // -- cells ------------------------------------------------------------------------------
    decode(answer) { return Uint8Array.from(answer, (ch) => parseInt(ch, 36)); }
    emptyCells() { return new Uint8Array(this.n); }
    holds(v) { return v === EMPTY_MARK || (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= this.colours.length); }

    /** @returns {[number, number][]} */
    givens(solution) {
      return (this.data.givens || []).map(([r, c, filled]) => {
        const i = r * this.W + c;
        return [i, filled ? solution[i] : EMPTY_MARK];
      });
    }

    cellEl(i) { return this.cellEls[i]; }
    correct(i) {
      const v = this.shell.cells[i], s = this.shell.solution[i];
      return v === EMPTY_MARK ? s === 0 : v !== 0 && v === s;
    }
    wrong(i) {
      const v = this.shell.cells[i];
      if (!v) return false;
      return v === EMPTY_MARK ? this.shell.solution[i] !== 0 : v !== this.shell.solution[i];
    }
    /** a cell as the solved grid has it (an empty cell left blank or dotted) */
    settled(i) {
      const v = this.shell.cells[i], s = this.shell.solution[i];
      return s ? v === s : (!v || v === EMPTY_MARK);
    }
    truth(i) { return this.shell.solution[i] || EMPTY_MARK; }

    // -- the grid -----------------------------------------------------------------------------
    tools() {
      const {_} = this.words;
      const tools = el('div', {cls: 'np-tools', role: 'radiogroup', 'aria-label': _('What a click paints')});
      this.colours.forEach((colour, k) => {
        const b = button(this.toolLabel(k), () => this.setTool(k + 1),
          {role: 'radio', cls: 'np-tool', 'aria-label': this.toolName(k)});
        if (colour.rgb) { b.style.setProperty('--swatch', colour.rgb); b.classList.add('np-swatch'); }
        b.dataset.value = String(k + 1);
        this.toolButtons.push(b); tools.append(b);
      });
      const dot = button(_('Dot'), () => this.setTool(EMPTY_MARK),
        {role: 'radio', cls: 'np-tool', 'aria-label': _('Mark empty (key X)')});
      dot.dataset.value = String(EMPTY_MARK);
      this.toolButtons.push(dot); tools.append(dot);
      return tools;
    }

    moreTools() {
      if (!matchMedia('(pointer: coarse)').matches) return [];
      // on a touch screen a finger on the grid paints; Move lets it pan and pinch instead
      const move = button(this.words._('Move'), () => {
        this.panning = !this.panning;
        move.setAttribute('aria-pressed', String(this.panning));
        this.shell.host.classList.toggle('np-panning', this.panning);
      }, {'aria-pressed': 'false', 'aria-label': this.words._('Move the grid instead of painting')});
      return [move];
    }

    after() { return null; }

    setTool(value) {
      this.tool = value;
      for (const b of this.toolButtons) b.setAttribute('aria-checked', String(Number(b.dataset.value) === value));
    }

    grid() {
      const W = this.W, H = this.H;
      const grid = el('div', {cls: 'np-grid', role: 'grid',
        'aria-label': this.words._('Puzzle grid, {rows} rows by {columns} columns', {rows: H, columns: W}),
        'aria-rowcount': H + 1, 'aria-colcount': W + 1});
      const head = el('div', {cls: 'np-row np-head', role: 'row', 'aria-rowindex': 1});
      head.append(el('div', {cls: 'np-corner', role: 'none', text: ''}));
      for (let c = 0; c < W; c++) {
        const h = el('div', {cls: 'np-clue np-colclue' + (c % 5 === 4 && c < W - 1 ? ' np-r5' : ''),
          role: 'columnheader', 'aria-colindex': c + 2});
        this.clueContent(h, this.columnClues[c], (clue) => this.words._('column {n}, clue {clue}', {n: c + 1, clue}));
        this.colHeads.push(h); head.append(h);
      }
      grid.append(head);
      this.cellEls = new Array(this.n);
      for (let r = 0; r < H; r++) {
        const row = el('div', {cls: 'np-row' + (r % 5 === 4 && r < H - 1 ? ' np-b5' : ''), role: 'row', 'aria-rowindex': r + 2});
        const h = el('div', {cls: 'np-clue np-rowclue', role: 'rowheader', 'aria-colindex': 1});
        this.clueContent(h, this.rowClues[r], (clue) => this.words._('row {n}, clue {clue}', {n: r + 1, clue}));
        this.rowHeads.push(h); row.append(h);
        for (let c = 0; c < W; c++) {
          const i = r * W + c;
          const cell = el('div', {cls: 'np-cell' + (c % 5 === 4 && c < W - 1 ? ' np-r5' : ''),
            role: 'gridcell', tabindex: i === 0 ? '0' : '-1', 'aria-colindex': c + 2});
          cell.dataset.i = String(i);
          this.cellEls[i] = cell; row.append(cell);
        }
        grid.append(row);
      }
      this.bindPointer(grid);
      grid.addEventListener('keydown', (e) => this.shell.onKey(e));
      grid.addEventListener('focusin', (e) => {
        const i = /** @type {HTMLElement} */ (e.target).dataset?.i;
        if (i !== undefined) this.moveTo(Number(i), false);
      });
      this.setTool(1);
      return grid;
    }

    /** @param {(clue: string) => string} label the header's accessible name of its clue */
    clueContent(h, clue, label) {
      const spoken = [];
      if (!clue.length) { h.append(el('span', {text: '0'})); spoken.push('0'); }
      const palette = this.colours;
      for (const [n, colour] of clue) {
        const span = el('span', {text: String(n)});
        if (palette[colour - 1].rgb) {
          const c = palette[colour - 1];
          span.classList.add('np-colourclue');
          span.style.setProperty('--swatch', c.rgb);
          spoken.push(`${n} ${c.name}`);
        } else spoken.push(String(n));
        h.append(span);
      }
      h.setAttribute('aria-label', label(spoken.join(' ')));
      h.dataset.label = h.getAttribute('aria-label') || '';  // the name without ", crossed off"
    }

    clueChars() {
      // the widest row clue (a colour clue's number sits on a swatch: count it wider)
      const coloured = !!this.colours[0].rgb;
      const chars = (x) => String(x[0]).length + (coloured ? 2.2 : 1);
      return Math.max(2, ...this.rowClues.map((c) => c.reduce((sum, x) => sum + chars(x), 0)));
    }

    drawCell(i) {
      const cell = this.cellEls[i];
      if (!cell) return;
      const v = this.shell.cells[i], r = Math.floor(i / this.W) + 1, c = (i % this.W) + 1;
      const {_} = this.words;
      let state = _('unknown');
      cell.classList.toggle('np-filled', v > 0 && v !== EMPTY_MARK);
      cell.classList.toggle('np-dot', v === EMPTY_MARK);
      if (v === EMPTY_MARK) state = _('marked empty');
      else if (v) {
        const colour = this.colours[v - 1];
        state = colour.name;
        if (colour.rgb) cell.style.setProperty('--ink', colour.rgb);
      }
      cell.setAttribute('aria-label', this.shell.locked[i] ? _('row {row}, column {column}, {state}, given', {row: r, column: c, state})
        : _('row {row}, column {column}, {state}', {row: r, column: c, state}));
    }

    /** the clues of the lines the cells lie on, crossed off or not */
    touched(indices) {
      if (!indices) {
        for (let r = 0; r < this.H; r++) this.crossOff('row', r);
        for (let c = 0; c < this.W; c++) this.crossOff('column', c);
        return;
      }
      const rows = new Set(), cols = new Set();
      for (const i of indices) { rows.add(Math.floor(i / this.W)); cols.add(i % this.W); }
      /** @type {string[]} */
      const done = [];
      const {_} = this.words;
      for (const r of rows) if (this.crossOff('row', r)) done.push(_('Clue of row {n} crossed off.', {n: r + 1}));
      for (const c of cols) if (this.crossOff('column', c)) done.push(_('Clue of column {n} crossed off.', {n: c + 1}));
      // a clue crossed off by this move is read out (a screen reader sees no strike-through)
      if (done.length) this.shell.say(done.join(' '), false);
    }

    line(axis, k) {
      const out = [];
      if (axis === 'row') for (let c = 0; c < this.W; c++) out.push(k * this.W + c);
      else for (let r = 0; r < this.H; r++) out.push(r * this.W + k);
      return out;
    }

    crossOff(axis, k) {
      const values = this.line(axis, k).map((i) => this.shell.cells[i]);
      const want = (axis === 'row' ? this.rowClues : this.columnClues)[k];
      const have = clueOf(values);
      const done = have.length === want.length && have.every((x, j) => x[0] === want[j][0] && x[1] === want[j][1]);
      const head = (axis === 'row' ? this.rowHeads : this.colHeads)[k];
      const was = head.classList.contains('np-done');
      if (was === done) return false;
      head.classList.toggle('np-done', done);
      // the header's name says it too, for a reader moving over the clues
      const label = head.dataset.label ?? (head.dataset.label = head.getAttribute('aria-label') || '');
      head.setAttribute('aria-label', done ? this.words._('{label}, crossed off', {label}) : label);
      return done;
    }

    lineCells() { return this.line('row', Math.floor(this.active / this.W)); }

    // -- pointer: a click fills (or clears what it painted), a drag paints a run ------------
    bindPointer(grid) {
      const shell = this.shell;
      /** @type {{start: number, value: number, last: number, painted: [number, any, any][] | null, timer: number} | null} */
      let drag = null;
      const indexAt = (x, y) => {
        const first = this.cellEls[0].getBoundingClientRect();
        const size = first.width;
        const c = Math.floor((x - first.left) / size), r = Math.floor((y - first.top) / size);
        if (r < 0 || c < 0 || r >= this.H || c >= this.W) return -1;
        return r * this.W + c;
      };
      const cellOf = (e) => /** @type {HTMLElement} */ (e.target).dataset?.i;
      grid.addEventListener('contextmenu', (e) => { if (cellOf(e) !== undefined) e.preventDefault(); });
      grid.addEventListener('pointerdown', (e) => {
        if (cellOf(e) === undefined || shell.paused) return;
        if (this.panning && e.pointerType !== 'mouse') return;
        e.preventDefault();
        const i = Number(cellOf(e));
        const tool = e.button === 2 || e.ctrlKey ? EMPTY_MARK : this.tool;
        const value = shell.cells[i] === tool ? 0 : tool;   // the same tool again clears
        drag = {start: i, value, last: i, painted: null, timer: 0};
        grid.setPointerCapture(e.pointerId);
        this.moveTo(i, false);
        drag.painted = shell.apply([[i, value]]);
        this.focusSoon(i);
        if (e.pointerType !== 'mouse' && tool !== EMPTY_MARK) drag.timer = this.longPress(drag, () => drag);
      });
      grid.addEventListener('pointermove', (e) => {
        if (!drag) return;
        const i = indexAt(e.clientX, e.clientY);
        if (i < 0 || i === drag.last) return;
        drag.last = i;
        clearTimeout(drag.timer);
        // along the row or the column of the start, whichever the pointer is further along
        const W = this.W, r0 = Math.floor(drag.start / W), c0 = drag.start % W;
        const r = Math.floor(i / W), c = i % W;
        const run = /** @type {number[]} */ ([]);
        if (Math.abs(c - c0) >= Math.abs(r - r0)) {
          for (let k = Math.min(c, c0); k <= Math.max(c, c0); k++) run.push(r0 * W + k);
        } else {
          for (let k = Math.min(r, r0); k <= Math.max(r, r0); k++) run.push(k * W + c0);
        }
        // undo what the drag painted so far, then paint the run as one undo step
        const before = drag.painted || [];
        for (let k = before.length - 1; k >= 0; k--) shell.cells[before[k][0]] = before[k][1];
        if (before.length) shell.undoStack.pop();
        const changed = before.map((x) => x[0]);
        const value = drag.value;
        const painted = drag.painted = shell.apply(run.map((k) => [k, value]));
        if (!painted.length && changed.length) shell.touched(changed);
        else shell.touched(changed.filter((k) => !run.includes(k)));
      });
      const end = () => { if (drag) clearTimeout(drag.timer); drag = null; };
      grid.addEventListener('pointerup', end);
      grid.addEventListener('pointercancel', end);
    }

    /**
     * A finger held on the cell it touched marks it empty (or clears its dot) in place of the
     * tap's paint, one undo step; a drag from there marks the run empty.
     * @param {{start: number, value: number, last: number, painted: [number, any, any][] | null}} held
     * @param {() => unknown} current the pointer's drag now (null once lifted)
     */
    longPress(held, current) {
      const shell = this.shell;
      return window.setTimeout(() => {
        if (current() !== held || held.last !== held.start) return;
        const i = held.start, before = held.painted || [];
        for (let k = before.length - 1; k >= 0; k--) shell.cells[before[k][0]] = before[k][1];
        if (before.length) shell.undoStack.pop();
        held.value = shell.cells[i] === EMPTY_MARK ? 0 : EMPTY_MARK;
        const painted = held.painted = shell.apply([[i, held.value]]);
        if (!painted.length && before.length) shell.touched([i]);
        if (navigator.vibrate) navigator.vibrate(15);
      }, LONG_PRESS_MS);
    }

    moveTo(i, focus) {
      if (i < 0 || i >= this.n) return;
      const old = this.cellEls[this.active];
      if (old) old.tabIndex = -1;
      this.active = i;
      const cell = this.cellEls[i];
      cell.tabIndex = 0;
      if (focus) { this.focusDue = null; cell.focus(); }
    }

    /**
     * Focus the pressed cell once the frame showing its paint has been drawn: a focus is
     * style, events and the accessibility tree (6-10 ms at 4x CPU throttle, as much as the
     * rest of a press), and a pointer's focus shows no ring. A key pressed before it lands
     * still goes to the cell (keyEarly).
     */
    focusSoon(i) {
      const cell = this.cellEls[i];
      const root = /** @type {Document | ShadowRoot} */ (cell.getRootNode());
      if (root.activeElement === cell) return;
      if (!this.focusDue) {
        document.addEventListener('keydown', this.keyEarly, true);
        requestAnimationFrame(() => setTimeout(() => this.focusNow(), 0));
      }
      this.focusDue = cell;
    }

    focusNow() {
      const cell = this.focusDue;
      this.focusDue = null;
      document.removeEventListener('keydown', this.keyEarly, true);
      // the cell under a later move of the keyboard or a hint is not refocused
      if (cell && cell.isConnected && cell === this.cellEls[this.active]) cell.focus({preventScroll: true});
    }

    /** the keys of a line puzzle; false: not one of them */
    key(e) {
      const W = this.W, H = this.H, i = this.active, r = Math.floor(i / W), c = i % W;
      const key = e.key, shell = this.shell;
      /** @type {Record<string, [number, number]>} */
      const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if (moves[key]) {
        e.preventDefault();
        const [dr, dc] = moves[key];
        const nr = Math.min(H - 1, Math.max(0, r + dr)), nc = Math.min(W - 1, Math.max(0, c + dc));
        this.moveTo(nr * W + nc, true);
        return true;
      }
      const set = (v) => { e.preventDefault(); shell.apply([[i, shell.cells[i] === v ? 0 : v]]); };
      const many = this.colours.length;
      if (key === ' ' || key === 'Enter' || key === 'f' || key === 'F') set(this.tool === EMPTY_MARK ? 1 : this.tool);
      else if (key === 'x' || key === 'X' || key === '.') set(EMPTY_MARK);
      else if (key === 'Backspace' || key === 'Delete' || key === '0') { e.preventDefault(); shell.apply([[i, 0]]); }
      else if (many > 1 && /^[1-9]$/.test(key) && Number(key) <= many) {
        // a colour key chooses the colour only: Space or F paints with it (painting too made
        // the following Space clear the cell)
        e.preventDefault();
        this.setTool(Number(key));
        shell.say(`${this.colours[Number(key) - 1].name} chosen.`, false);
      }
      else if (key === 'Home') { e.preventDefault(); this.moveTo(r * W, true); }
      else if (key === 'End') { e.preventDefault(); this.moveTo(r * W + W - 1, true); }
      else return false;
      return true;
    }

    // -- hints: a line step stands on the cells known on its line ---------------------------
    premises(s) {
      const line = this.line(/** @type {string} */ (s.a), /** @type {number} */ (s.i));
      return ranges(s.p).map((p) => line[p]).concat(ranges(s.px));
    }
    hintWhere(s) {
      const n = (s.i || 0) + 1;
      return !s.a ? '' : s.a === 'row' ? this.words._('Row {n}', {n}) : this.words._('Column {n}', {n});
    }
    hintArea(s) { return s.a ? this.line(s.a, /** @type {number} */ (s.i)) : []; }
    hintCell(i) {
      const v = this.shell.solution[i];
      // a colour cell is named by its colour (the puzzle's own name for it), a black one is "filled"
      return v ? {filled: true, colour: this.colours[v - 1].rgb ? this.colours[v - 1].name : null}
        : {filled: false, colour: null};
    }
  }

  P.clueOf = clueOf;
  P.EMPTY_MARK = EMPTY_MARK;
  P.defineBoard('bw', LineBoard);
})();

// The mosaic's (Fill-a-Pix) board for the player's shell (../player.js): a digit in a cell
// counts the filled cells of the 3x3 block around it. A click fills a cell, a second marks it
// empty, a third clears it; a right click marks it empty; the keys are the black-and-white
// board's. A clue is greyed once its block is complete (its count of filled cells met).
'use strict';
(function () {
  const P = globalThis.NonopressPlayer;
  const {el, ranges} = P;
  const EMPTY_MARK = 255;           // a cell the solver marked empty (a dot), as bw.js has it

  /**
   * @typedef {import('../puzzle').MosaicPuzzle} MosaicPuzzle
   * @typedef {import('../puzzle').HintStep} HintStep
   * @typedef {import('../puzzle').ClueHintStep} ClueHintStep
   * @typedef {import('../puzzle').Shell} Shell
   * @typedef {import('../puzzle').Checks} Checks
   */

  class MosaicBoard {
    constructor(shell) {
      this.shell = shell;
      this.data = /** @type {MosaicPuzzle} */ (shell.data);
      this.W = shell.W; this.H = shell.H; this.n = shell.n;
      this.blank = 0;
      this.active = 0;
      this.words = shell.words;
      this.lineName = this.words._('Reveal block');  // the label of the shell's Reveal button
      this.reports = true;          // solve records are filed under the mosaic's key (the catalogue holds mosaics)
      /** @type {HTMLElement[]} */
      this.cellEls = [];
      // each cell's digit, -1 for none
      this.digits = Array.from(this.data.clues.join(''), (ch) => (ch === '.' ? -1 : Number(ch)));
      // each cell's 3x3 block (its own cell among them), inside the grid
      /** @type {number[][]} */
      this.blocks = [];
      for (let i = 0; i < this.n; i++) this.blocks.push(this.blockOf(i));
    }

    /**
     * One row of digits and dots a grid row, each as wide as the grid; hint cells inside it.
     */
    static check(d, c) {
      c.need(Array.isArray(d.clues) && d.clues.length === d.height, 'clues', `not a list of ${d.height} rows`);
      /** @type {unknown[]} */ (d.clues).forEach((row, k) => {
        c.need(typeof row === 'string' && row.length === d.width && /^[0-9.]*$/.test(row),
          `clues[${k}]`, `not ${d.width} digits or dots`);
      });
      if (d.hints) {
        const n = d.width * d.height;
        d.hints.steps.forEach((s, k) => {
          c.checkRanges(s.p, n, `hints.steps[${k}].p`);
          c.checkRanges(s.k, n, `hints.steps[${k}].k`);
        });
      }
    }

    static fits(answer, d) { return answer.length === d.width * d.height && /^[01]*$/.test(answer); }

    blockOf(i) {
      const r = Math.floor(i / this.W), c = i % this.W, out = [];
      for (let rr = r - 1; rr <= r + 1; rr++) {
        for (let cc = c - 1; cc <= c + 1; cc++) {
          if (rr >= 0 && cc >= 0 && rr < this.H && cc < this.W) out.push(rr * this.W + cc);
        }
      }
      return out;
    }

    // -- cells: 0 unknown, 1 filled, EMPTY_MARK marked empty -------------------------------
    decode(answer) { return Uint8Array.from(answer, (ch) => Number(ch)); }
    emptyCells() { return new Uint8Array(this.n); }
    holds(v) { return v === 0 || v === 1 || v === EMPTY_MARK; }
    givens(_solution) { return []; }
    cellEl(i) { return this.cellEls[i]; }
    correct(i) {
      const v = this.shell.cells[i], s = this.shell.solution[i];
      return v === EMPTY_MARK ? s === 0 : v === 1 && s === 1;
    }
    wrong(i) {
      const v = this.shell.cells[i];
      return !!v && !this.correct(i);
    }
    settled(i) {
      const v = this.shell.cells[i];
      return this.shell.solution[i] ? v === 1 : v !== 1;
    }
    truth(i) { return this.shell.solution[i] ? 1 : EMPTY_MARK; }
    hintCell(i) { return {filled: Boolean(this.shell.solution[i]), colour: null}; }

    tools() { return null; }
    moreTools() { return []; }
    after() { return null; }
    clueChars() { return 0; }

    grid() {
      const W = this.W, H = this.H;
      const grid = el('div', {cls: 'np-grid np-mosaic', role: 'grid',
        'aria-label': this.words._('Mosaic grid, {rows} rows by {columns} columns', {rows: H, columns: W}),
        'aria-rowcount': H, 'aria-colcount': W});
      this.cellEls = new Array(this.n);
      for (let r = 0; r < H; r++) {
        // a thicker rule every 5 cells, as the printed mosaic has
        const row = el('div', {cls: 'np-row' + (r % 5 === 4 && r < H - 1 ? ' np-b5' : ''), role: 'row', 'aria-rowindex': r + 1});
        for (let c = 0; c < W; c++) {
          const i = r * W + c;
          const cell = el('div', {cls: 'np-cell' + (c % 5 === 4 && c < W - 1 ? ' np-r5' : ''), role: 'gridcell',
            tabindex: i === 0 ? '0' : '-1', 'aria-colindex': c + 1});
          if (this.digits[i] >= 0) {
            cell.classList.add('np-digit');
            cell.append(el('span', {text: String(this.digits[i]), 'aria-hidden': 'true'}));
          }
          cell.dataset.i = String(i);
          this.cellEls[i] = cell; row.append(cell);
        }
        grid.append(row);
      }
      const cellOf = (e) => /** @type {HTMLElement} */ (e.target).closest?.('[data-i]')?.getAttribute('data-i') ?? null;
      grid.addEventListener('contextmenu', (e) => { if (cellOf(e) !== null) e.preventDefault(); });
      grid.addEventListener('pointerdown', (e) => {
        const at = cellOf(e);
        if (at === null || this.shell.paused) return;
        e.preventDefault();
        const i = Number(at), v = this.shell.cells[i];
        // a click turns unknown, filled, marked empty; a right click marks empty (or clears)
        const next = e.button === 2 || e.ctrlKey ? (v === EMPTY_MARK ? 0 : EMPTY_MARK)
          : v === 0 ? 1 : v === 1 ? EMPTY_MARK : 0;
        this.moveTo(i, true);
        this.shell.apply([[i, next]]);
      });
      grid.addEventListener('keydown', (e) => this.shell.onKey(e));
      grid.addEventListener('focusin', (e) => {
        const at = cellOf(e);
        if (at !== null) this.moveTo(Number(at), false);
      });
      return grid;
    }

    drawCell(i) {
      const cell = this.cellEls[i];
      if (!cell) return;
      const v = this.shell.cells[i], r = Math.floor(i / this.W) + 1, c = (i % this.W) + 1;
      cell.classList.toggle('np-filled', v === 1);
      cell.classList.toggle('np-dot', v === EMPTY_MARK);
      const {_} = this.words;
      const state = v === 1 ? _('filled') : v === EMPTY_MARK ? _('marked empty') : _('unknown');
      cell.setAttribute('aria-label', this.digits[i] >= 0
        ? _('row {row}, column {column}, clue {clue}, {state}', {row: r, column: c, clue: this.digits[i], state})
        : _('row {row}, column {column}, {state}', {row: r, column: c, state}));
    }

    /** the clues whose blocks hold the cells, greyed or not */
    touched(indices) {
      /** @type {Set<number>} */
      const clues = new Set();
      for (const i of indices || Array.from({length: this.n}, (_, k) => k)) {
        for (const j of this.blocks[i]) if (this.digits[j] >= 0) clues.add(j);
      }
      for (const j of clues) {
        // as a nonogram's clue is crossed off: its count met, an open cell counted empty
        // (a 0 once its cells are marked: met from the start, it would say nothing)
        const cells = this.blocks[j].map((k) => this.shell.cells[k]);
        const filled = cells.filter((v) => v === 1).length;
        const done = filled === this.digits[j] && (filled > 0 || cells.every((v) => v === EMPTY_MARK));
        this.cellEls[j].classList.toggle('np-done', done);
      }
    }

    lineCells() { return this.blocks[this.active]; }

    moveTo(i, focus) {
      if (i < 0 || i >= this.n) return;
      const old = this.cellEls[this.active];
      if (old) old.tabIndex = -1;
      this.active = i;
      const cell = this.cellEls[i];
      cell.tabIndex = 0;
      if (focus && document.activeElement !== cell) cell.focus({preventScroll: false});
    }

    /** the black-and-white board's keys; false: not one of them */
    key(e) {
      const W = this.W, H = this.H, i = this.active, r = Math.floor(i / W), c = i % W;
      const key = e.key, shell = this.shell;
      /** @type {Record<string, [number, number]>} */
      const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if (moves[key]) {
        e.preventDefault();
        const [dr, dc] = moves[key];
        this.moveTo(Math.min(H - 1, Math.max(0, r + dr)) * W + Math.min(W - 1, Math.max(0, c + dc)), true);
        return true;
      }
      const set = (v) => { e.preventDefault(); shell.apply([[i, shell.cells[i] === v ? 0 : v]]); };
      if (key === ' ' || key === 'Enter' || key === 'f' || key === 'F') set(1);
      else if (key === 'x' || key === 'X' || key === '.') set(EMPTY_MARK);
      else if (key === 'Backspace' || key === 'Delete' || key === '0') { e.preventDefault(); shell.apply([[i, 0]]); }
      else if (key === 'Home') { e.preventDefault(); this.moveTo(r * W, true); }
      else if (key === 'End') { e.preventDefault(); this.moveTo(r * W + W - 1, true); }
      else return false;
      return true;
    }

    // -- hints: a step stands on the decided cells of its clues' blocks --------------------
    premises(s) { return ranges(/** @type {ClueHintStep} */ (/** @type {unknown} */ (s)).p); }
    hintWhere(s) {
      const clues = ranges(/** @type {ClueHintStep} */ (/** @type {unknown} */ (s)).k);
      return clues.map((j) => this.words._('The {clue} at row {row}, column {column}',
        {clue: this.digits[j], row: Math.floor(j / this.W) + 1, column: (j % this.W) + 1})).join('; ');
    }
    hintArea(s) {
      const out = new Set();
      for (const j of ranges(/** @type {ClueHintStep} */ (/** @type {unknown} */ (s)).k)) for (const k of this.blocks[j]) out.add(k);
      return [...out];
    }
  }

  P.defineBoard('mosaic', MosaicBoard);
})();

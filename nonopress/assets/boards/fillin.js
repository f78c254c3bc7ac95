// The fill-in crossword's board for the player's shell (../player.js): blocks, the starter's
// letters given, letters typed along a word (a click on the active cell turns between across
// and down), the word list struck through as words appear in the grid.
'use strict';
(function () {
  const P = globalThis.NonopressPlayer;
  const {el} = P;
  /**
   * @typedef {import('../puzzle').FillinPuzzle} FillinPuzzle
   * @typedef {import('../puzzle').Shell} Shell
   * @typedef {import('../puzzle').Checks} Checks
   */

  class FillinBoard {
    constructor(shell) {
      this.shell = shell;
      this.data = /** @type {FillinPuzzle} */ (shell.data);
      this.W = shell.W; this.H = shell.H; this.n = shell.n;
      this.blank = '';
      this.words = shell.words;
      this.lineName = this.words._('Reveal word');  // the label of the shell's Reveal button
      this.reports = false;        // no nonogram key for the collector to file solves under
      this.across = true;          // the typing direction
      this.active = Math.max(0, this.data.blocks.indexOf('0'));
      /** @type {HTMLElement[]} */
      this.cellEls = [];
      /** @type {HTMLElement[]} */
      this.wordEls = [];
    }

    static check(d, c) {
      const n = d.width * d.height;
      c.need(typeof d.blocks === 'string' && d.blocks.length === n && /^[01]*$/.test(d.blocks), 'blocks', `not ${n} characters 0 or 1`);
      c.need(typeof d.given === 'string' && Array.from(d.given).length === n, 'given', `not ${n} characters`);
      c.need(c.isObject(d.words), 'words', 'not an object of word lists by length');
      let count = 0;
      for (const [length, words] of Object.entries(d.words)) {
        c.need(/^[1-9][0-9]{0,2}$/.test(length) && c.isList(words, n), `words.${length}`, 'not a list of words by their length');
        for (const w of /** @type {unknown[]} */ (words)) c.need(c.isText(w, 200), `words.${length}`, 'not a list of words');
        count += /** @type {unknown[]} */ (words).length;
      }
      c.need(count <= n, 'words', 'more words than cells');
      c.need(d.starter === undefined || c.isText(d.starter, 200), 'starter', 'not a word');
      c.need(d.hints === undefined || d.hints === null, 'hints', 'a fill-in has none');
    }

    static fits(answer, d) { return Array.from(answer).length === d.width * d.height; }

    decode(answer) { return Array.from(answer); }
    emptyCells() { return new Array(this.n).fill(''); }
    holds(v) { return typeof v === 'string' && v.length <= 2; }

    givens(_solution) {
      /** @type {[number, string][]} */
      const out = [];
      const given = Array.from(this.data.given);
      for (let i = 0; i < this.n; i++) {
        if (this.data.blocks[i] === '1') out.push([i, '']);
        else if (given[i] && given[i] !== '.') out.push([i, given[i]]);
      }
      return out;
    }

    open(i) { return this.data.blocks[i] === '0'; }
    cellEl(i) { return this.cellEls[i]; }
    correct(i) { return this.shell.cells[i] === this.shell.solution[i]; }
    wrong(i) { const v = this.shell.cells[i]; return !!v && v !== this.shell.solution[i]; }
    settled(i) { return !this.open(i) || this.shell.cells[i] === this.shell.solution[i]; }
    truth(i) { return this.shell.solution[i]; }

    tools() { return null; }
    moreTools() { return []; }
    clueChars() { return 0; }

    grid() {
      const W = this.W, H = this.H;
      const grid = el('div', {cls: 'np-grid np-fillin', role: 'grid',
        'aria-label': this.words._('Fill-in grid, {rows} rows by {columns} columns', {rows: H, columns: W}),
        'aria-rowcount': H, 'aria-colcount': W});
      this.cellEls = new Array(this.n);
      for (let r = 0; r < H; r++) {
        const row = el('div', {cls: 'np-row', role: 'row', 'aria-rowindex': r + 1});
        for (let c = 0; c < W; c++) {
          const i = r * W + c, block = !this.open(i);
          const cell = el('div', {cls: block ? 'np-cell np-block' : 'np-cell np-letter', role: 'gridcell',
            tabindex: i === this.active ? '0' : '-1', 'aria-colindex': c + 1});
          if (block) cell.setAttribute('aria-label', this.words._('row {row}, column {column}, block', {row: r + 1, column: c + 1}));
          cell.dataset.i = String(i);
          this.cellEls[i] = cell; row.append(cell);
        }
        grid.append(row);
      }
      const cellOf = (e) => /** @type {HTMLElement} */ (e.target).dataset?.i;
      grid.addEventListener('pointerdown', (e) => {
        const i = cellOf(e);
        if (i === undefined || !this.open(Number(i))) return;
        if (Number(i) === this.active) this.across = !this.across;
        this.moveTo(Number(i), true);
      });
      grid.addEventListener('keydown', (e) => this.shell.onKey(e));
      grid.addEventListener('focusin', (e) => {
        const i = cellOf(e);
        if (i !== undefined && this.open(Number(i))) this.moveTo(Number(i), false);
      });
      return grid;
    }

    drawCell(i) {
      const cell = this.cellEls[i];
      if (!cell || !this.open(i)) return;
      const v = this.shell.cells[i], r = Math.floor(i / this.W) + 1, c = (i % this.W) + 1;
      cell.textContent = v;
      const {_} = this.words;
      const state = v ? _('letter {letter}', {letter: v}) : _('blank');
      cell.setAttribute('aria-label', this.shell.locked[i] ? _('row {row}, column {column}, {state}, given', {row: r, column: c, state})
        : _('row {row}, column {column}, {state}', {row: r, column: c, state}));
    }

    touched(_indices) { this.crossOffWords(); }

    moveTo(i, focus) {
      if (i < 0 || i >= this.n) return;
      const old = this.cellEls[this.active];
      if (old) old.tabIndex = -1;
      this.active = i;
      const cell = this.cellEls[i];
      cell.tabIndex = 0;
      if (focus && document.activeElement !== cell) cell.focus({preventScroll: false});
      this.showWord();
    }

    /** the open cells of the word through cell i */
    wordCells(i, across) {
      const W = this.W, step = across ? 1 : W, out = [];
      const inLine = (a, b) => (across ? Math.floor(a / W) === Math.floor(b / W) : true);
      let k = i;
      while (k - step >= 0 && inLine(k - step, i) && this.open(k - step)) k -= step;
      while (k < this.n && inLine(k, i) && this.open(k)) { out.push(k); k += step; }
      return out;
    }

    lineCells() { return this.wordCells(this.active, this.across); }

    showWord() {
      for (const e of this.shell.host.querySelectorAll('.np-word')) e.classList.remove('np-word');
      for (const k of this.wordCells(this.active, this.across)) this.cellEls[k].classList.add('np-word');
    }

    key(e) {
      const W = this.W, H = this.H, i = this.active, r = Math.floor(i / W), c = i % W;
      const key = e.key, shell = this.shell;
      /** @type {Record<string, [number, number]>} */
      const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
      if (moves[key]) {
        e.preventDefault();
        const [dr, dc] = moves[key];
        const nr = Math.min(H - 1, Math.max(0, r + dr)), nc = Math.min(W - 1, Math.max(0, c + dc));
        this.across = dc !== 0;
        this.moveTo(nr * W + nc, true);
        return true;
      }
      const step = this.across ? 1 : W;
      const open = (k) => k >= 0 && k < this.n && this.open(k)
        && (!this.across || Math.floor(k / W) === Math.floor(i / W));
      if (/^[a-zA-Z]$/.test(key) && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        shell.apply([[i, key.toUpperCase()]]);
        if (open(i + step)) this.moveTo(i + step, true);
      } else if (key === 'Backspace') {
        e.preventDefault();
        if (shell.cells[i] && !shell.locked[i]) shell.apply([[i, '']]);
        else if (open(i - step)) { this.moveTo(i - step, true); shell.apply([[i - step, '']]); }
      } else if (key === 'Delete') { e.preventDefault(); shell.apply([[i, '']]); }
      else if (key === ' ') { e.preventDefault(); this.across = !this.across; this.showWord(); shell.say(this.across ? this.words._('Across.') : this.words._('Down.')); }
      // every other key is the fill-in's too: a letter key is a letter, never a shortcut
      return true;
    }

    after() {
      const box = el('section', {cls: 'np-words', 'aria-label': this.words._('Words to place')});
      for (const [length, words] of Object.entries(this.data.words)) {
        const list = el('ul', {});
        for (const w of words) {
          const item = el('li', {text: w});
          item.dataset.word = w;
          this.wordEls.push(item); list.append(item);
        }
        box.append(el('h2', {text: this.words.ngettext('{count} letter', '{count} letters', Number(length))}), list);
      }
      return box;
    }

    crossOffWords() {
      const placed = [];
      const seen = new Set();
      for (let i = 0; i < this.n; i++) {
        if (!this.open(i)) continue;
        for (const across of [true, false]) {
          const cells = this.wordCells(i, across);
          if (cells.length < 2 || cells[0] !== i) continue;
          const id = `${i}${across}`;
          if (seen.has(id)) continue;
          seen.add(id);
          const word = cells.map((k) => this.shell.cells[k]).join('');
          if (word.length === cells.length) placed.push(word);
        }
      }
      for (const item of this.wordEls) {
        const k = placed.indexOf(item.dataset.word || '');
        item.classList.toggle('np-done', k >= 0);
        if (k >= 0) placed.splice(k, 1);
      }
    }

    // a fill-in has no hint table (the shell shows no Hint button)
    premises() { return []; }
    hintWhere() { return ''; }
    hintArea() { return []; }
  }

  P.defineBoard('fillin', FillinBoard);
})();

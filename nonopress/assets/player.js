// The Nonopress player's shell: timer, undo, hints panel, check, reveal, autosave, status and
// the <nonopress-puzzle> element. It knows no kind of puzzle: the grid of each kind is a board
// script of its own, boards/<kind>.js beside this file, loaded by the "kind" tag of the
// puzzle's JSON (nonopress/assets/puzzle.schema.json). No framework, no build step, no
// request to another host. Hints come from the grader's own step log in that JSON (the
// earliest logged step whose premises are all on the board and whose conclusion is not):
// this file holds no solver.
//
// Classic scripts, not modules: Chromium refuses module scripts on pages opened from disk
// (file://), and a static site must work there. It defines globalThis.NonopressPlayer (the
// boards register with it) and the <nonopress-puzzle> element:
//   <script src="player.js" defer></script>
//   <nonopress-puzzle src="puzzle-01.json"></nonopress-puzzle>
//
// A puzzle's JSON may come from another host: it is checked before anything is drawn (sizes,
// colours as #rrggbb only, cell ranges inside the grid), and refused in one line if it does
// not hold.
'use strict';
(function () {
  const SCRIPT = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const SOLVER_ID = 'nonopress-solver-id';
  const COLLECT_OFF = 'nonopress-collect-off';
  /** the largest side the player draws (the schema's bound) */
  const MAX_SIDE = 200;
  /** the largest JSON the element fetches, in characters */
  const MAX_JSON = 4000000;

  /**
   * @typedef {import('./puzzle').Puzzle} Puzzle
   * @typedef {import('./puzzle').HintTable} HintTable
   * @typedef {import('./puzzle').HintStep} HintStep
   * @typedef {import('./puzzle').Board} Board
   * @typedef {import('./puzzle').BoardClass} BoardClass
   * @typedef {import('./puzzle').Stats} Stats
   */

  // -- checking what was loaded: a bad field is one line naming it -------------------------
  class BadPuzzle extends Error {}

  function need(ok, where, what) {
    if (!ok) throw new BadPuzzle(`${where}: ${what}`);
  }
  function isInt(v, low, high) {
    return typeof v === 'number' && Number.isInteger(v) && v >= low && v <= high;
  }
  function isText(v, most) { return typeof v === 'string' && v.length <= most; }
  function isObject(v) { return typeof v === 'object' && v !== null && !Array.isArray(v); }
  function isList(v, most) { return Array.isArray(v) && v.length <= most; }

  /**
   * Check a cell range text ("0-3,7,9-12") without spelling it out: every number below
   * ``limit``, ascending, at most ``limit`` positions in all.
   */
  function checkRanges(text, limit, where) {
    need(typeof text === 'string' && text.length <= 12 * limit + 12, where, 'not a cell range text');
    const t = /** @type {string} */ (text);
    if (!t) return;
    // one pass over the characters: a page with hundreds of steps checks them in a blink
    let count = 0, last = -1, first = -1, v = -1;
    for (let k = 0; k <= t.length; k++) {
      const ch = k < t.length ? t.charCodeAt(k) : 44;  // a comma closes the last part
      if (ch >= 48 && ch <= 57) v = (v < 0 ? 0 : v * 10) + ch - 48;
      else if (ch === 45 && first < 0 && v >= 0) { first = v; v = -1; }
      else if (ch === 44 && v >= 0) {
        const a = first < 0 ? v : first;
        need(a > last && a <= v && v < limit, where, `a cell range beyond ${limit} cells`);
        count += v - a + 1; last = v; first = -1; v = -1;
      } else need(false, where, 'not a cell range text');
    }
    need(count <= limit, where, 'too many cells');
  }

  /**
   * "0-3,7,9-12" -> [0,1,2,3,7,9,10,11,12] (checked by checkRanges before).
   */
  function ranges(text) {
    /** @type {number[]} */
    const out = [];
    if (!text) return out;
    for (const part of text.split(',')) {
      const [a, b] = part.split('-').map(Number);
      for (let k = a; k <= (b === undefined ? a : b); k++) out.push(k);
    }
    return out;
  }

  /**
   * The part every kind shares: what the shell itself reads. The board checks its own
   * fields after this (Board.check).
   */
  function checkCommon(d) {
    need(isObject(d), 'puzzle', 'not a JSON object');
    need(d.format === 1, 'format', 'not 1 (a player this old cannot read it)');
    need(typeof d.kind === 'string' && /^[a-z][a-z0-9-]{0,23}$/.test(d.kind), 'kind', 'not a kind tag');
    need(isInt(d.width, 1, MAX_SIDE), 'width', `not a whole number from 1 to ${MAX_SIDE}`);
    need(isInt(d.height, 1, MAX_SIDE), 'height', `not a whole number from 1 to ${MAX_SIDE}`);
    need(typeof d.key === 'string' && /^[0-9a-f]{16,64}$/.test(d.key), 'key', 'not 16 to 64 hex digits');
    const n = d.width * d.height;
    need(typeof d.solution === 'string' && d.solution.length <= 4 * Math.ceil(4 * n / 3) + 4
         && /^[A-Za-z0-9+/]*={0,2}$/.test(d.solution), 'solution', 'not base64 of the grid');
    for (const name of ['heading', 'title', 'author', 'date', 'size_label']) {
      need(d[name] === undefined || isText(d[name], 1000), name, 'not a text of at most 1000 characters');
    }
    need(d.note === undefined || isText(d.note, 10000), 'note', 'not a text of at most 10000 characters');
    need(d.veiled_title === undefined || (isText(d.veiled_title, 6000)
         && /^[A-Za-z0-9+/]*={0,2}$/.test(d.veiled_title)), 'veiled_title', 'not base64');
    need(d.number === undefined || isInt(d.number, 0, 1e9), 'number', 'not a whole number');
    if (d.catalogue !== undefined) checkCatalogue(d.catalogue);
    if (d.grade !== undefined && d.grade !== null) {
      const g = d.grade;
      need(isObject(g), 'grade', 'not an object');
      need(g.level === undefined || isText(g.level, 40), 'grade.level', 'not a short text');
      need(g.stars === undefined || g.stars === null || isInt(g.stars, 0, 5), 'grade.stars', 'not 0 to 5');
      for (const name of ['score', 'minutes', 'minutes_low', 'minutes_high']) {
        const v = g[name];
        need(v === undefined || v === null || (typeof v === 'number' && v >= 0 && v <= 1e6),
          `grade.${name}`, 'not a number from 0 to 1000000');
      }
      need(g.grader_version === undefined || isText(g.grader_version, 100), 'grade.grader_version', 'not a short text');
    }
    if (d.site !== undefined && d.site !== null) {
      need(isObject(d.site), 'site', 'not an object');
      const c = d.site.collect;
      need(c === undefined || c === null || (isText(c, 2000) && /^https?:\/\/[^\s]+$/.test(c)),
        'site.collect', 'not an http(s) address');
      need(d.site.player === undefined || isText(d.site.player, 100), 'site.player', 'not a short text');
    }
    if (d.hints !== undefined && d.hints !== null) checkHints(d.hints, n);
  }

  /** The player's words (words.js): short texts, a plural rule of n and C's operators only. */
  function checkCatalogue(w) {
    need(isObject(w) && isText(w.language, 35) && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(w.language),
      'catalogue.language', 'not a language tag');
    need(isText(w.plural, 300) && /^[n0-9 ()?:!=<>&|%+*/-]*$/.test(w.plural), 'catalogue.plural', 'not a plural expression');
    need(isObject(w.messages) && Object.keys(w.messages).length <= 2000, 'catalogue.messages', 'not an object of at most 2000 messages');
    for (const text of Object.values(w.messages)) {
      need(isText(text, 2000) || (isList(text, 6) && text.length > 0 && text.every((x) => isText(x, 2000))),
        'catalogue.messages', 'not texts or lists of plural forms');
    }
  }

  function checkHints(t, n) {
    need(isObject(t), 'hints', 'not an object');
    need(isList(t.rungs, 1000) && t.rungs.every((x) => isText(x, 200)), 'hints.rungs', 'not a list of short texts');
    need(isList(t.where, 1000) && t.where.every((x) => isText(x, 500)), 'hints.where', 'not a list of short texts');
    need(t.bracket === undefined || typeof t.bracket === 'boolean', 'hints.bracket', 'not true or false');
    // every step decides at least one cell, and a cell once
    need(isList(t.steps, n), 'hints.steps', `not a list of at most ${n} steps`);
    t.steps.forEach((s, k) => {
      const at = `hints.steps[${k}]`;
      need(isObject(s), at, 'not an object');
      need(isInt(s.r, 0, t.rungs.length - 1), `${at}.r`, 'not a rung of the table');
      need(s.n === undefined || isInt(s.n, 0, t.rungs.length - 1), `${at}.n`, 'not a name of the table');
      need(isInt(s.w, 0, t.where.length - 1), `${at}.w`, 'not a where of the table');
      need(isText(s.s, 4000), `${at}.s`, 'not a text');
      checkRanges(s.c, n, `${at}.c`);
      need(s.g === undefined || s.g === 1, `${at}.g`, 'not 1');
      need(s.at === undefined || isInt(s.at, 0, n - 1), `${at}.at`, 'not a cell of the grid');
    });
  }

  // -- small helpers ------------------------------------------------------------------------
  /**
   * The solution: base64, XORed with a xorshift32 stream seeded by the key (app/play.py).
   */
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

  /**
   * An element with attributes ("text" its text, "cls" its class) and children.
   */
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

  function button(label, action, attrs) {
    const b = /** @type {HTMLButtonElement} */ (el('button', Object.assign({type: 'button', text: label}, attrs || {})));
    b.addEventListener('click', action);
    return b;
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

  function minutesText(g, words) {
    if (g.minutes === null || g.minutes === undefined) return '';
    const whole = (x) => (!x ? 0 : x < 1 ? Math.round(x * 10) / 10 : Math.round(x));
    const mid = whole(g.minutes), low = whole(g.minutes_low), high = whole(g.minutes_high);
    // "1 minute", never "1 minutes"; a range whose ends are one figure says nothing: no "(2-2)"
    const ranged = g.minutes_low !== null && g.minutes_low !== undefined && g.minutes_high !== null
      && g.minutes_high !== undefined && low !== high;
    return ranged
      ? words.ngettext('People take about {minutes} minute ({low}-{high}).',
        'People take about {minutes} minutes ({low}-{high}).', mid, {minutes: mid, low, high})
      : words.ngettext('People take about {minutes} minute.', 'People take about {minutes} minutes.',
        mid, {minutes: mid});
  }

  function starsText(n) { return n ? `${'\u2605'.repeat(n)}${'\u2606'.repeat(Math.max(0, 5 - n))}` : ''; }

  /** @returns {Stats} */
  function freshStats() {
    return {seconds: 0, checks: 0, reveals: 0, errors_found: 0, hints: {1: 0, 2: 0, 3: 0, 4: 0}, hint_rungs: [], accepted: 0};
  }

  /**
   * Hints asked for, once a hint: stats.hints counts the stages shown (a hint taken to its
   * fourth stage is four of them), and each hint starts at stage 1.
   * @param {Stats} s
   */
  function hintsUsed(s) { return s.hints[1] || 0; }

  /**
   * How an attempt was finished (or got so far), as the solve record says it: a revealed
   * cell, or a hint accepted or shown down to its cells, is not the solver's own solve
   * (nonopress/solves/record.py FINISHES; only "unaided" is counted clean).
   * @param {Stats} s
   */
  function finishOf(s) {
    if (s.reveals) return 'revealed';
    if (s.accepted || s.hints[4]) return 'hinted';
    return 'unaided';
  }

  // -- the shell --------------------------------------------------------------------------
  class Player {
    constructor(host, data, Board, answer) {
      this.host = host;
      this.data = data;
      /** @type {import('./puzzle').Words} */
      this.words = needWordsNow(data.catalogue);
      if (data.catalogue) host.setAttribute('lang', this.words.language);
      this.W = data.width; this.H = data.height;
      this.n = this.W * this.H;
      /** @type {Board} */
      this.board = new Board(this);
      this.solution = this.board.decode(answer);
      this.cells = this.board.emptyCells();
      this.locked = new Uint8Array(this.n);
      /** @type {[number, any, any][][]} */
      this.undoStack = [];
      /** @type {[number, any, any][][]} */
      this.redoStack = [];
      /** @type {{type: 'step' | 'wrong', index: number, stage: number} | null} */
      this.hint = null;
      this.site = data.site || {};
      this.saveKey = `nonopress:${data.key}`;
      this.stats = freshStats();
      this.solved = false;
      this.running = false;
      this.paused = false;
      this.moved = false;
      /** @type {string | null} */
      this.startedAt = null;
      this.recordId = uuid4();
      this.sent = false;
      /** the attempt ended by Reveal all (sent as given up, not completed) */
      this.gaveUp = false;
      /** @type {number[] | null} */
      this.marked = null;
      /** @type {number | null} */
      this.saveTimer = null;
      /** @type {number | null} */
      this.retryTimer = null;
      this.givens();
      this.restore();
      this.build();
      this.refreshAll();
      this.startTimer();
      this.bindPage();
      if (this.solved) this.showSolved(false);
      /** @type {any[]} the extras that joined this player (habits.js, print.js) */
      this.extras = [];
      players.push(this);
      for (const api of extras) this.join(api);
    }

    // -- extras: scripts beside this one that add to the player (extend, below) -------------
    join(api) {
      const extra = api.join(this);
      this.extras.push(extra);
      if (extra.attach) extra.attach();
    }

    /** Tell the extras (an extra's method of that name, when it has one). */
    notify(name, ...args) {
      for (const extra of this.extras) if (typeof extra[name] === 'function') extra[name](...args);
    }

    /** The extras' row of controls, under the grid (made on first use). */
    extrasBar() {
      if (!this.extrasRow) {
        this.extrasRow = el('div', {cls: 'np-extras'});
        this.host.insertBefore(this.extrasRow, this.solvedPanel || null);
      }
      return this.extrasRow;
    }

    givens() {
      for (const [i, value] of this.board.givens(this.solution)) {
        this.cells[i] = value;
        this.locked[i] = 1;
      }
    }

    // -- saving and resuming --------------------------------------------------------------
    restore() {
      const saved = load(this.saveKey);
      if (!saved || saved.n !== this.n || !Array.isArray(saved.cells)) return;
      for (let i = 0; i < this.n; i++) {
        if (!this.locked[i] && this.board.holds(saved.cells[i])) this.cells[i] = saved.cells[i];
      }
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
      const w = this.words;
      const heading = el('h1', {cls: 'np-title', text: d.heading || (d.number ? w._('Puzzle {number}', {number: d.number}) : w._('Puzzle'))});
      const g = d.grade;
      const facts = [d.size_label || `${this.W}\u00d7${this.H}`, g && g.level && w.pgettext('level', g.level),
                     g && g.stars ? starsText(g.stars) : '',
                     g && g.minutes ? w._('about {minutes} min', {minutes: Math.round(g.minutes) || '<1'}) : '']
        .filter(Boolean).join(' \u00b7 ');
      const meta = el('p', {cls: 'np-meta', text: facts});
      const byline = d.author ? el('p', {cls: 'np-author', text: w._('by {author}', {author: d.author})}) : null;
      const note = d.note ? el('p', {cls: 'np-note', text: d.note}) : null;
      /** @type {HTMLElement} */
      this.status = el('p', {cls: 'np-status', role: 'status', 'aria-live': 'polite'});
      host.append(heading, meta, byline || '', note || '', this.toolbar(), this.status);
      this.scroller = el('div', {cls: 'np-scroller'});
      this.grid = this.board.grid();
      this.scroller.append(this.grid);
      host.append(this.scroller);
      this.hintPanel = el('div', {cls: 'np-hint', hidden: true});
      host.append(this.hintPanel);
      const after = this.board.after();
      if (after) host.append(after);
      this.solvedPanel = el('section', {cls: 'np-solved', hidden: true, 'aria-label': this.words._('Solved')});
      host.append(this.solvedPanel);
      if (this.site.collect) host.append(this.collectToggle());
      this.fit();
    }

    toolbar() {
      const {_} = this.words;
      const bar = el('div', {cls: 'np-toolbar', role: 'toolbar', 'aria-label': _('Puzzle controls')});
      const tools = this.board.tools();
      if (tools) bar.append(tools);
      this.undoButton = button(_('Undo'), () => this.undo(), {'aria-keyshortcuts': 'Control+Z'});
      this.redoButton = button(_('Redo'), () => this.redo(), {'aria-keyshortcuts': 'Control+Y'});
      // the controls used at every move first: on a phone the bar is one row that scrolls
      // sideways, the rarer controls (redo, rewind, reveals, pause, zoom) at its end
      this.timerText = el('span', {cls: 'np-timer', 'aria-label': _('time')});
      bar.append(this.undoButton);
      if (this.data.hints) {
        bar.append(button(_('Hint'), () => this.nextHint(), {cls: 'np-hint-button', 'aria-keyshortcuts': 'H'}));
      }
      bar.append(button(_('Check'), () => this.check()), this.timerText, this.redoButton,
        button(_('Rewind'), () => this.rewind(), {'aria-label': _('Rewind to the first error')}),
        button(_('Reveal cell'), () => this.revealCells([this.board.active])),
        button(this.board.lineName, () => this.revealCells(this.board.lineCells())),
        button(_('Reveal all'), () => this.revealAll()));
      for (const extra of this.board.moreTools()) bar.append(extra);
      this.pauseButton = button(_('Pause'), () => this.togglePause(), {'aria-pressed': 'false'});
      bar.append(this.pauseButton,
        button('\u2212', () => this.zoom(-1), {'aria-label': _('Zoom out')}),
        button('+', () => this.zoom(1), {'aria-label': _('Zoom in')}));
      return bar;
    }

    fit() {
      const avail = Math.max(240, Math.min(window.innerWidth, 1100) - 28);
      // the board's clues beside the grid, in characters ("1 1 2 1 1" is 9)
      this.clueChars = this.board.clueChars();
      const across = this.W + this.clueChars * 0.36 + 0.4;
      // a finger needs a bigger cell than a mouse (WCAG's 24 px target): a large grid then
      // scrolls, its clues held in view (player.css), and zooms
      const least = this.leastCell();
      this.cellSize = Math.max(least, Math.min(40, Math.floor(avail / across)));
      this.applyZoom();
    }

    leastCell() { return matchMedia('(pointer: coarse)').matches ? 24 : 14; }

    zoom(step) {
      // a touch screen's cell stays a finger's target; a mouse may zoom out further
      const floor = this.leastCell() === 24 ? 24 : 10;
      this.cellSize = Math.max(floor, Math.min(64, (this.cellSize || 24) + step * 4));
      this.applyZoom();
    }

    applyZoom() {
      const size = this.cellSize || 24;
      this.host.style.setProperty('--cell', `${size}px`);
      // clue digits are 0.55 of a cell; a character of them about 0.6 of that wide
      const clue = Math.ceil((this.clueChars || 0) * size * 0.55 * 0.52 + size * 0.4);
      this.host.style.setProperty('--rowclue', `${clue}px`);
    }

    // -- marks ----------------------------------------------------------------------------
    correct(i) { return !!this.locked[i] || this.board.correct(i); }
    wrong(i) { return !this.locked[i] && this.board.wrong(i); }

    /** Set cells, one undo step. @param {[number, any][]} changes @returns {[number, any, any][]} */
    apply(changes, record = true) {
      /** @type {[number, any, any][]} */
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
      for (const i of indices) this.board.drawCell(i);
      this.board.touched(indices);
      this.clearMarks();
      this.scheduleSave();
      this.notify('touched', indices);
      this.checkSolved();
    }

    refreshAll() {
      for (let i = 0; i < this.n; i++) this.board.drawCell(i);
      this.board.touched(null);
      this.updateTimer();
    }

    onKey(e) {
      if (this.paused) return;
      const key = e.key;
      if ((e.ctrlKey || e.metaKey) && (key === 'z' || key === 'Z')) { e.preventDefault(); if (e.shiftKey) this.redo(); else this.undo(); return; }
      if ((e.ctrlKey || e.metaKey) && (key === 'y' || key === 'Y')) { e.preventDefault(); this.redo(); return; }
      if (this.board.key(e)) return;
      if ((key === 'h' || key === 'H') && this.data.hints) { e.preventDefault(); this.nextHint(); }
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
      for (const i of this.marked) this.board.cellEl(i)?.classList.remove('np-wrong', 'np-show', 'np-show-fill', 'np-show-empty');
      this.marked = null;
    }

    markCells(indices, cls) {
      this.clearMarks();
      for (const i of indices) this.board.cellEl(i)?.classList.add(cls);
      this.marked = indices;
    }

    check() {
      this.begin();
      this.stats.checks++;
      const bad = this.wrongCells();
      this.stats.errors_found += bad.length;
      this.markCells(bad, 'np-wrong');
      this.notify('helped', 'e', bad);
      this.say(bad.length ? this.words.ngettext('{count} wrong mark, shown in red.', '{count} wrong marks, shown in red.', bad.length)
        : this.words._('No mistakes so far.'));
      this.scheduleSave();
    }

    rewind() {
      let steps = 0;
      while (this.wrongCells().length && this.undoStack.length) {
        const step = /** @type {[number, any, any][]} */ (this.undoStack.pop());
        for (let k = step.length - 1; k >= 0; k--) this.cells[step[k][0]] = step[k][1];
        this.redoStack.push(step);
        steps++;
      }
      this.refreshAll();
      this.scheduleSave();
      if (this.wrongCells().length) {  // made before this visit: clear them instead
        const bad = this.wrongCells();
        this.apply(bad.map((i) => [i, this.board.blank]));
        this.say(this.words.ngettext('Cleared {count} wrong mark.', 'Cleared {count} wrong marks.', bad.length));
      } else {
        this.say(steps ? this.words.ngettext('Rewound {count} move to before the first error.', 'Rewound {count} moves to before the first error.', steps)
          : this.words._('No mistakes to rewind.'));
      }
    }

    revealCells(indices) {
      /** @type {[number, any][]} */
      const changes = indices.filter((i) => !this.locked[i] && !this.correct(i)).map((i) => [i, this.board.truth(i)]);
      if (!changes.length) { this.say(this.words._('Already right.')); return; }
      this.stats.reveals++;
      this.notify('helped', 'r', changes.map((x) => x[0]));
      this.apply(changes);
      this.say(this.words.ngettext('Revealed {count} cell.', 'Revealed {count} cells.', changes.length));
    }

    revealAll() {
      const {_} = this.words;
      if (this.solved) { this.say(_('Solved already.')); return; }
      this.confirm(_('Reveal the whole answer? This attempt will end, and not count as your solve.'), _('Reveal'), () => {
        const all = [];
        for (let i = 0; i < this.n; i++) all.push(i);
        // an attempt ended by Reveal all is given up, not completed: its record is sent as
        // such (record.py FINISHES "revealed"), never as a finished solve
        this.gaveUp = true;
        this.revealCells(all);
      });
    }

    /**
     * Ask before an act that cannot be taken back: a modal dialog (Escape or Cancel keeps
     * the grid as it is), focus on Cancel.
     * @param {string} question @param {string} yes the confirming button's name
     * @param {() => void} action
     */
    confirm(question, yes, action) {
      const dialog = /** @type {HTMLDialogElement} */ (el('dialog', {cls: 'np-confirm', 'aria-label': question}));
      const close = () => { dialog.close(); dialog.remove(); };
      const cancel = button(this.words._('Cancel'), close, {autofocus: true});
      dialog.append(el('p', {text: question}),
        el('p', {cls: 'np-confirm-buttons'}, cancel, button(yes, () => { close(); action(); })));
      dialog.addEventListener('cancel', () => dialog.remove());
      this.host.append(dialog);
      dialog.showModal();
      cancel.focus();
    }

    // -- hints: from the grader's log, in four stages ---------------------------------------
    /** @returns {{type: 'step' | 'wrong', index: number} | null} */
    findHint() {
      const bad = this.wrongCells();
      if (bad.length) return {type: 'wrong', index: bad[0]};
      const table = /** @type {HintTable} */ (this.data.hints), steps = table.steps;
      let allBefore = true;
      for (let k = 0; k < steps.length; k++) {
        const s = steps[k];
        const concl = s._c || (s._c = ranges(s.c));
        if (concl.every((i) => this.correct(i))) continue;
        let ok;
        if (s.g) ok = allBefore;
        else {
          const prem = s._p || (s._p = this.board.premises(s));
          ok = prem.every((i) => this.correct(i));
        }
        allBefore = false;
        if (ok) return {type: 'step', index: k};
      }
      return null;
    }

    nextHint() {
      if (!this.data.hints) return;
      if (this.solved) { this.say(this.words._('Solved already.')); return; }
      this.begin();
      const found = this.findHint();
      if (!found) { this.say(this.words._('Nothing left to find: every cell is in place.')); return; }
      const same = this.hint && this.hint.type === found.type && this.hint.index === found.index;
      const stage = same && this.hint ? Math.min(this.hint.stage + 1, found.type === 'wrong' ? 2 : 4) : 1;
      this.hint = Object.assign(found, {stage});
      this.stats.hints[stage]++;
      if (found.type === 'step' && stage === 1) this.stats.hint_rungs.push(this.data.hints.rungs[this.data.hints.steps[found.index].r]);
      this.showHint();
      this.scheduleSave();
    }

    showHint() {
      const h = this.hint, panel = this.hintPanel, table = this.data.hints;
      if (!h || !panel || !table) return;
      panel.textContent = '';
      panel.hidden = false;
      const {_, pgettext} = this.words;
      let text, cells = /** @type {number[]} */ ([]);
      if (h.type === 'wrong') {
        const r = Math.floor(h.index / this.W) + 1, c = (h.index % this.W) + 1;
        text = h.stage === 1 ? _('One of your marks is wrong: no logical step can follow from it.')
          : _('Row {row}, column {column} is wrong.', {row: r, column: c});
        if (h.stage === 2) cells = [h.index];  // errors_found counts what checks found
      } else {
        const s = table.steps[h.index];
        // the technique's own name where it is not the rung's ("simple-spaces" for a step of
        // the simple-boxes rung that empties cells); the rung's for the records
        const rung = pgettext('rung', table.rungs[s.n === undefined ? s.r : s.n]);
        const say = table.bracket ? `[${rung}] ${s.s}` : _('{rung}: {sentence}', {rung, sentence: s.s});
        const where = this.board.hintWhere(s)
          || (s.at !== undefined ? _('Row {row}, column {column}', {row: Math.floor(s.at / this.W) + 1, column: (s.at % this.W) + 1}) : _('The whole grid'));
        text = [table.where[s.w], where, say, _('The cells it decides are shown: accept them, or place them yourself.')][h.stage - 1];
        if (h.stage === 2) cells = this.board.hintArea(s);
        if (h.stage === 4) {
          // the technique's sentence stays above the cells it decides
          panel.append(el('p', {cls: 'np-hint-stage', text: _('Hint {stage}: {text}', {stage: 3, text: say})}));
          cells = ranges(s.c);
        }
      }
      const shown = _('Hint {stage}: {text}', {stage: h.stage, text});
      panel.append(el('p', {cls: 'np-hint-stage', text: shown}));
      const last = h.type === 'wrong' ? 2 : 4;
      if (h.stage < last) panel.append(button(_('More'), () => this.nextHint(), {'aria-label': _('Hint: tell me more')}));
      if (h.stage === last) {
        panel.append(button(h.type === 'wrong' ? _('Clear it') : _('Accept'), () => this.acceptHint()));
      }
      panel.append(button(_('Close'), () => { panel.hidden = true; this.clearMarks(); this.dock(); }));
      this.dock();
      if (h.type === 'step' && h.stage === 4) {
        const named = this.decidedCells(cells);
        this.say(`${shown} ${named}`, false);
        this.markDecided(cells);
      } else {
        this.say(shown, false);
        this.markCells(cells, h.type === 'wrong' ? 'np-wrong' : 'np-show');
      }
      this.showCells(cells);
    }

    /**
     * The cells a hint decides, by name, for the live region: "Filled: row 3, column 4;
     * row 3, column 5. Empty: row 3, column 8." (the colour's name for a colour cell).
     * @param {number[]} cells
     */
    decidedCells(cells) {
      const {_} = this.words;
      /** @type {Map<string, string[]>} */
      const groups = new Map();
      for (const i of cells) {
        const cell = this.board.hintCell ? this.board.hintCell(i) : null;
        const what = !cell ? 'shown' : cell.colour ? `colour:${cell.colour}` : cell.filled ? 'filled' : 'empty';
        const name = _('row {row}, column {column}', {row: Math.floor(i / this.W) + 1, column: (i % this.W) + 1});
        const list = groups.get(what) || [];
        list.push(name);
        groups.set(what, list);
      }
      return [...groups].map(([what, names]) => {
        const list = names.join('; ');
        if (what.startsWith('colour:')) return _('{colour}: {cells}.', {colour: what.slice(7), cells: list});
        return what === 'filled' ? _('Filled: {cells}.', {cells: list})
          : what === 'empty' ? _('Empty: {cells}.', {cells: list}) : _('Shown: {cells}.', {cells: list});
      }).join(' ');
    }

    /**
     * Stage 4's marks: a cell that becomes filled and one that becomes empty look apart.
     * @param {number[]} cells
     */
    markDecided(cells) {
      this.clearMarks();
      for (const i of cells) {
        const fill = this.board.hintCell ? this.board.hintCell(i).filled : null;
        this.board.cellEl(i)?.classList.add('np-show', fill === null ? 'np-show' : fill ? 'np-show-fill' : 'np-show-empty');
      }
      this.marked = cells;
    }

    /**
     * Bring the first cell of a hint into the grid's scroll box when it is outside (a row
     * far down a 30x30 after a few accepted hints).
     * @param {number[]} cells
     */
    showCells(cells) {
      if (!cells.length || !this.scroller) return;
      const box = this.scroller.getBoundingClientRect();
      const seen = (/** @type {number} */ i) => {
        const r = this.board.cellEl(i)?.getBoundingClientRect();
        return !r || (r.top >= box.top && r.bottom <= box.bottom && r.left >= box.left && r.right <= box.right);
      };
      if (cells.some(seen)) return;
      const cell = this.board.cellEl(cells[0]);
      if (!cell) return;
      // the scroll box first, clear of its sticky clue bars; then the page, only as far as
      // needed (scrollIntoView would also move the page on a phone)
      const head = this.scroller.querySelector('.np-head')?.getBoundingClientRect();
      const side = this.scroller.querySelector('.np-rowclue')?.getBoundingClientRect();
      const top = head ? head.bottom : box.top, left = side ? side.right : box.left;
      let r = cell.getBoundingClientRect();
      if (r.left < left) this.scroller.scrollLeft -= left - r.left + 4;
      else if (r.right > box.right) this.scroller.scrollLeft += r.right - box.right + 4;
      if (r.top < top) this.scroller.scrollTop -= top - r.top + 4;
      else if (r.bottom > box.bottom) this.scroller.scrollTop += r.bottom - box.bottom + 4;
      r = cell.getBoundingClientRect();
      if (r.bottom > window.innerHeight) window.scrollBy(0, r.bottom - window.innerHeight + 8);
      else if (r.top < 0) window.scrollBy(0, r.top - 8);
    }

    acceptHint() {
      const h = this.hint, table = this.data.hints;
      if (!h || !table || !this.hintPanel) return;
      if (h.type === 'wrong') this.apply([[h.index, this.board.blank]]);
      else {
        const cells = ranges(table.steps[h.index].c);
        this.stats.accepted = (this.stats.accepted || 0) + 1;
        this.notify('helped', 'h', cells);
        this.apply(cells.map((i) => [i, this.board.truth(i)]));
      }
      this.hint = null;
      this.hintPanel.hidden = true;
      this.dock();
    }

    /**
     * On a phone the open hint panel is held at the screen's foot (player.css), where it
     * covered the grid box's lower rows, the very cells a hint about a bottom row talks
     * about: the box gives up the panel's height (and any overlap left, when what stands above
     * the box is taller than the style sheet allows for), so the grid scrolls above the panel.
     */
    dock() {
      const panel = this.hintPanel, scroller = this.scroller;
      if (!panel || !scroller) return;
      if (panel.hidden) { this.host.style.removeProperty('--hint-room'); return; }
      let room = panel.offsetHeight;
      this.host.style.setProperty('--hint-room', `${room}px`);
      const over = scroller.getBoundingClientRect().bottom - panel.getBoundingClientRect().top;
      if (over > 0 && getComputedStyle(panel).position === 'sticky') {
        room += Math.ceil(over);
        this.host.style.setProperty('--hint-room', `${room}px`);
      }
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
        this.stats.seconds += (now - (this.last || now)) / 1000;
        this.updateTimer();
        if (Math.floor(this.stats.seconds) % 10 === 0) this.scheduleSave();
      }
      this.last = now;
    }

    updateTimer() { if (this.timerText) this.timerText.textContent = clock(this.stats.seconds); }

    togglePause() {
      this.paused = !this.paused;
      if (this.pauseButton) {
        this.pauseButton.textContent = this.paused ? this.words._('Resume') : this.words._('Pause');
        this.pauseButton.setAttribute('aria-pressed', String(this.paused));
      }
      this.grid?.classList.toggle('np-paused', this.paused);
      this.say(this.paused ? this.words._('Paused.') : this.words._('Timer running.'));
    }

    bindPage() {
      document.addEventListener('visibilitychange', () => { this.last = performance.now(); if (document.hidden) this.saveNow(); });
      window.addEventListener('pagehide', () => { this.saveNow(); this.sendAbandon(); });
      // a phone resizes as its address bar hides: only a new width fits the grid again (and
      // undoes the solver's zoom)
      let wide = window.innerWidth;
      window.addEventListener('resize', () => { if (window.innerWidth !== wide) { wide = window.innerWidth; this.fit(); } });
      this.retryPending();
    }

    scheduleSave() {
      if (this.saveTimer) return;
      // after a quiet moment: a save never delays the paint of the next click
      this.saveTimer = window.setTimeout(() => {
        if ('requestIdleCallback' in window) requestIdleCallback(() => this.saveNow(), {timeout: 2000});
        else this.saveNow();
      }, 300);
    }

    saveNow() {
      if (this.saveTimer) clearTimeout(this.saveTimer);
      this.saveTimer = null;
      this.save();
    }

    say(text, visible = true) {
      // re-set so the same words are announced again; a hint is read out but not shown
      // twice on screen (its panel shows it)
      const status = this.status;
      if (!status) return;
      status.classList.toggle('np-sr-only', !visible);
      status.textContent = '';
      setTimeout(() => { status.textContent = text; }, 20);
    }

    // -- solved -------------------------------------------------------------------------------
    isSolved() {
      for (let i = 0; i < this.n; i++) if (!this.board.settled(i)) return false;
      return true;
    }

    checkSolved() {
      if (this.solved || !this.isSolved()) return;
      this.solved = true;
      this.running = false;
      this.saveNow();
      this.showSolved(true);
      this.sendRecord(!this.gaveUp);
    }

    showSolved(announce) {
      const s = this.stats, g = this.data.grade || {}, p = this.solvedPanel;
      if (!p) return;
      p.textContent = '';
      const hints = hintsUsed(s);
      // the title shown once solved is veiled as the answer is (app/play.py veiled_meta)
      let solvedTitle = '';
      if (this.data.veiled_title) {
        try { solvedTitle = reveal(this.data.veiled_title, this.data.key.slice(8)); } catch (e) { solvedTitle = ''; }
      }
      const {_} = this.words;
      const title = solvedTitle ? _('Solved: {title}', {title: solvedTitle}) : _('Solved!');
      p.append(el('h2', {text: title}),
        // a puzzle without a hint table reports no hints it could not have had
        el('p', {text: this.data.hints
          ? _('Your time: {time}. Hints: {hints}, checks: {checks}, reveals: {reveals}.',
            {time: clock(s.seconds), hints, checks: s.checks, reveals: s.reveals})
          : _('Your time: {time}. Checks: {checks}, reveals: {reveals}.',
            {time: clock(s.seconds), checks: s.checks, reveals: s.reveals})}),
        this.gaveUp ? el('p', {text: _('The answer was revealed: this attempt counts as given up, not solved.')}) : '',
        g.level ? el('p', {text: [minutesText(g, this.words), _('Level: {level}.', {level: this.words.pgettext('level', g.level)}),
          g.stars ? _('Stars: {stars} ({count} of 5).', {stars: starsText(g.stars), count: g.stars}) : ''].filter(Boolean).join(' ')}) : '',
        button(_('Play again'), () => this.restart()));
      p.hidden = false;
      this.grid?.classList.add('np-complete');
      if (announce) this.say(_('Solved in {time}.', {time: clock(s.seconds)}));
      if (this.extras) this.notify('solvedPanel', announce);
    }

    restart() {
      store(this.saveKey, undefined);
      this.cells.fill(this.board.blank);
      this.locked.fill(0);
      this.givens();
      this.stats = freshStats();
      this.solved = false; this.running = true; this.startedAt = null; this.sent = false; this.gaveUp = false;
      this.recordId = uuid4(); this.undoStack = []; this.redoStack = []; this.moved = false;
      if (this.solvedPanel) this.solvedPanel.hidden = true;
      this.grid?.classList.remove('np-complete');
      this.refreshAll();
      this.say(this.words._('A fresh grid.'));
      this.notify('restarted');
    }

    // -- solve statistics: only with --collect, only while the toggle is on ------------------
    collecting() { return !!this.site.collect && !load(COLLECT_OFF) && this.board.reports; }

    collectToggle() {
      const box = /** @type {HTMLInputElement} */ (el('input', {type: 'checkbox', id: `np-collect-${this.data.key}`}));
      box.checked = !load(COLLECT_OFF);
      box.addEventListener('change', () => store(COLLECT_OFF, box.checked ? undefined : true));
      return el('p', {cls: 'np-collect'}, box,
        el('label', {for: box.id, text: ' ' + this.words._('Send anonymous solve statistics')}));
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
              player: this.site.player || 'nonopress-player', finish: finishOf(s)};
    }

    sendRecord(completed) {
      // a kind without a key the collector files solves under reports nothing (board.reports)
      if (!this.collecting() || this.sent) return;
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
      if (!Array.isArray(pending) || !pending.length || !this.site.collect || load(COLLECT_OFF)) return;
      for (const item of pending) {
        // only to this puzzle's collector: a record queued by another page goes when it is open
        if (!item || item.url !== this.site.collect) continue;
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
      this.retryTimer = window.setTimeout(() => { this.retryTimer = null; this.retryPending(); }, 30000);
    }

    dropPending(body) {
      store('nonopress-pending', (load('nonopress-pending') || []).filter((x) => x.body !== body));
    }

    sendAbandon() {
      if (!this.collecting() || this.sent || this.solved || !this.moved) return;
      const body = JSON.stringify(this.record(false));
      if (navigator.sendBeacon && navigator.sendBeacon(/** @type {string} */ (this.site.collect), new Blob([body], {type: 'text/plain'}))) {
        this.sent = true;
        this.save();
      }
    }
  }

  // -- extras: habits.js and print.js beside this script, each {join(player)} ----------------
  /** @type {any[]} */
  const extras = [];
  /** @type {Player[]} */
  const players = [];
  const EXTRAS = ['habits.js', 'print.js'];

  /** An extra's script calls this once it is read: every player, now and later, joins it. */
  function extend(api) {
    extras.push(api);
    for (const p of players) p.join(api);
  }

  /** The extras a page did not load itself (an embed's one script tag) are loaded now. */
  function loadExtras() {
    const base = SCRIPT && SCRIPT.src ? SCRIPT.src : document.baseURI;
    for (const name of EXTRAS) {
      const url = new URL(name, base).href;
      if ([...document.scripts].some((s) => s.src === url)) continue;
      const script = document.createElement('script');
      script.src = url;
      document.head.append(script);
    }
  }

  // -- the boards: boards/<kind>.js, each registering its class by its tag ------------------
  /** @type {Record<string, BoardClass>} */
  const boards = {};
  /** @type {Record<string, {promise: Promise<BoardClass>, resolve: (b: BoardClass) => void}>} */
  const waiting = {};

  /** A board script calls this once it is read. */
  function defineBoard(tag, Board) {
    boards[tag] = Board;
    if (waiting[tag]) waiting[tag].resolve(Board);
  }

  function boardUrl(tag) {
    const base = SCRIPT && SCRIPT.src ? SCRIPT.src : document.baseURI;
    return new URL(`boards/${tag}.js`, base).href;
  }

  /**
   * The board of a kind: already read, read by a script the page loads, or loaded now from
   * beside this script (never from the JSON's host: the tag is checked to be a plain word).
   */
  function needBoard(tag) {
    if (boards[tag]) return Promise.resolve(boards[tag]);
    if (waiting[tag]) return waiting[tag].promise;
    /** @type {(b: BoardClass) => void} */
    let resolve = () => {};
    /** @type {(e: Error) => void} */
    let reject = () => {};
    const promise = new Promise((yes, no) => { resolve = yes; reject = no; });
    waiting[tag] = {promise, resolve};
    const url = boardUrl(tag);
    if (![...document.scripts].some((s) => s.src === url)) {
      const script = document.createElement('script');
      script.src = url;
      script.addEventListener('error', () => {
        delete waiting[tag];
        reject(new BadPuzzle(`kind: no board for "${tag}" beside the player`));
      });
      document.head.append(script);
    }
    return promise;
  }

  // -- the words: words.js, read by a script the page loads or loaded now from beside this one
  function needWords() {
    if (globalThis.NonopressWords) return Promise.resolve();
    const url = new URL('words.js', SCRIPT && SCRIPT.src ? SCRIPT.src : document.baseURI).href;
    return new Promise((resolve, reject) => {
      let script = [...document.scripts].find((s) => s.src === url);
      if (!script) {
        script = document.createElement('script');
        script.src = url;
        document.head.append(script);
      }
      script.addEventListener('load', () => resolve(undefined));
      script.addEventListener('error', () => reject(new BadPuzzle('words.js: not beside the player')));
    });
  }

  /** @returns {import('./puzzle').Words} */
  function needWordsNow(catalogue) {
    return /** @type {import('./puzzle').WordsApi} */ (globalThis.NonopressWords).words(catalogue);
  }

  // -- the element: <nonopress-puzzle src="x.json"> or data="id of a JSON script" -----------
  function styleSheet() {
    if (document.querySelector('link[data-nonopress]') || document.querySelector('link[href$="player.css"]')) return;
    if (!SCRIPT || !SCRIPT.src) return;
    const link = el('link', {rel: 'stylesheet', href: new URL('player.css', SCRIPT.src).href, 'data-nonopress': true});
    document.head.append(link);
  }

  class NonopressPuzzle extends HTMLElement {
    constructor() {
      super();
      /** @type {Player | null} */
      this.player = null;
    }

    /**
     * Where the player is drawn. Embedded (the default): in the element's own shadow root,
     * which holds the style sheet, so the host page's CSS cannot reach the player nor the
     * player's the page (a box in it resets what the host would pass down by inheritance).
     * With the ``light`` attribute (the site's own pages, which style nothing else): in the
     * element itself, the style sheet in the page's head.
     * @returns {HTMLElement}
     */
    mount() {
      if (this.hasAttribute('light')) { styleSheet(); return this; }
      const root = this.shadowRoot || this.attachShadow({mode: 'open'});
      root.textContent = '';
      const box = el('div', {cls: 'np-shadow'});
      if (SCRIPT && SCRIPT.src) {
        const link = el('link', {rel: 'stylesheet', href: new URL('player.css', SCRIPT.src).href, 'data-nonopress': true});
        // unseen until styled: no flash of a bare grid, no cell moving under a finger
        box.style.visibility = 'hidden';
        const show = () => { box.style.visibility = ''; };
        link.addEventListener('load', show);
        link.addEventListener('error', show);
        root.append(link);
      }
      root.append(box);
      return box;
    }

    connectedCallback() {
      if (this.player) return;
      const inline = this.getAttribute('data');
      if (inline) {
        const script = document.getElementById(inline);
        try {
          this.start(this.parse(script ? script.textContent || '' : ''));
        } catch (err) {
          this.refuse(err);
        }
        return;
      }
      const src = this.getAttribute('src');
      if (!src) return;
      this.textContent = 'Loading the puzzle\u2026';
      const url = new URL(src, document.baseURI);
      fetch(url.href, {credentials: 'same-origin'})
        .then((r) => { if (!r.ok) throw new Error(`${src}: ${r.status}`); return r.text(); })
        .then((text) => {
          const data = this.parse(text);
          // solve records go where the page's own puzzles send them: a JSON from another
          // host names no collector for this page
          if (url.origin !== location.origin && data && typeof data === 'object' && data.site) {
            data.site = Object.assign({}, data.site, {collect: null});
          }
          return this.start(data);
        })
        .catch((err) => this.refuse(err));
    }

    parse(text) {
      try {
        need(text.length <= MAX_JSON, 'puzzle', `larger than ${MAX_JSON} characters`);
        return JSON.parse(text);
      } catch (err) {
        if (err instanceof BadPuzzle) throw err;
        return undefined;  // refused by the check: not a JSON object
      }
    }

    disconnectedCallback() {
      if (this.player && this.player.ticker) clearInterval(this.player.ticker);
    }

    refuse(err) {
      const message = err instanceof Error ? err.message : String(err);
      this.textContent = `The puzzle could not be loaded (${message}).`;
      // a shadow root shows what it holds: a slot shows the element's own text instead
      if (this.shadowRoot) this.shadowRoot.replaceChildren(document.createElement('slot'));
      this.dispatchEvent(new CustomEvent('nonopress-refused', {bubbles: true, detail: message}));
    }

    /**
     * Check the JSON, load its kind's board, then play.
     */
    start(data) {
      try {
        checkCommon(data);
      } catch (err) {
        this.refuse(err);
        return Promise.resolve();
      }
      return Promise.all([needBoard(data.kind), needWords()]).then(([Board]) => {
        Board.check(data, {need, isInt, isText, isObject, isList, checkRanges});
        const answer = reveal(data.solution, data.key);
        need(Board.fits(answer, data), 'solution', 'not an answer of this grid');
        this.player = new Player(this.mount(), data, Board, answer);
        if (performance.mark) performance.mark('nonopress-interactive');
        this.dispatchEvent(new CustomEvent('nonopress-ready', {bubbles: true}));
      }).catch((err) => this.refuse(err));
    }
  }

  globalThis.NonopressPlayer = {ranges, reveal, el, button, defineBoard, needBoard, Player, extend};
  // an extra read before this script waited in a queue
  for (const api of /** @type {any} */ (globalThis).NonopressExtras || []) extend(api);
  loadExtras();
  if (!customElements.get('nonopress-puzzle')) customElements.define('nonopress-puzzle', NonopressPuzzle);
})();

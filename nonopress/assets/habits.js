// The solver's habits, kept on this device only (localStorage: no account, no server):
// puzzles solved, the streak of days, best and median times by level, shown on the site's
// index and on the solved panel; a Share control that copies a card giving nothing of the
// answer away; and an optional error signal that marks, as you go, a line whose marks no
// placement of its clue can fit (off by default; each line it marks counts as a check).
//
// A classic script beside player.js. On a puzzle page it joins the shell as an extra
// (NonopressPlayer.extend); on the index it fills the page's <section data-np-habits>.
'use strict';
(function () {
  const STORE = 'nonopress-habits';
  const SIGNAL = 'nonopress-error-signal';
  const EMPTY_MARK = 255;
  /** the most solves kept: the oldest go first (a habit of years fits) */
  const MOST = 3000;

  /**
   * @typedef {{d: string, s: number, l: string, h: number}} Solve
   * @typedef {{v: 1, solves: Record<string, Solve>}} Book
   * @typedef {{rows: Record<string, string>}} Card
   */

  function load(key) {
    try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch (e) { return null; }
  }
  function store(key, value) {
    try {
      if (value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* storage full or blocked: the habit is not kept, play goes on */ }
  }

  /** @returns {Book} */
  function book() {
    const b = load(STORE);
    if (!b || b.v !== 1 || typeof b.solves !== 'object' || b.solves === null) return {v: 1, solves: {}};
    return b;
  }

  /** Today on this device's calendar, YYYY-MM-DD (a streak is of the solver's days). */
  function today(now) {
    const t = now || new Date();
    return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
  }

  function dayBefore(day) {
    const [y, m, d] = day.split('-').map(Number);
    return today(new Date(y, m - 1, d - 1));
  }

  function clock(seconds) {
    const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    const ss = String(s % 60).padStart(2, '0');
    return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
  }

  function median(values) {
    const v = values.slice().sort((a, b) => a - b), k = v.length >> 1;
    return v.length % 2 ? v[k] : (v[k - 1] + v[k]) / 2;
  }

  /**
   * What the book says: solved, the streak (days in a row up to today, or up to yesterday
   * while today's is still to do), the longest streak, and by level best and median times.
   */
  function summary(now) {
    const solves = Object.values(book().solves).filter((x) => x && typeof x.d === 'string' && typeof x.s === 'number');
    const days = new Set(solves.map((x) => x.d));
    let day = today(now);
    if (!days.has(day)) day = dayBefore(day);
    let streak = 0;
    while (days.has(day)) { streak++; day = dayBefore(day); }
    let longest = 0, run = 0, last = '';
    for (const d of [...days].sort()) {
      run = last && dayBefore(d) === last ? run + 1 : 1;
      longest = Math.max(longest, run); last = d;
    }
    /** @type {Record<string, number[]>} */
    const times = {};
    for (const x of solves) (times[x.l || 'other'] = times[x.l || 'other'] || []).push(x.s);
    const levels = Object.entries(times).map(([level, t]) => ({level, solved: t.length, best: Math.min(...t), median: median(t)}));
    return {solved: solves.length, streak, longest, levels};
  }

  /** A fresh solve joins the book once per puzzle (a replay can only better its time). */
  function remember(key, seconds, level, hints) {
    const b = book(), old = b.solves[key];
    if (old) { if (seconds < old.s) old.s = seconds; } else b.solves[key] = {d: today(), s: seconds, l: level, h: hints};
    const keys = Object.keys(b.solves);
    if (keys.length > MOST) {
      keys.sort((x, y) => (b.solves[x].d < b.solves[y].d ? -1 : 1));
      for (const k of keys.slice(0, keys.length - MOST)) delete b.solves[k];
    }
    store(STORE, b);
  }

  /**
   * The statistics as a section: a number beside "Solved", "Streak", "Best", in the words
   * of the page (words.js; English without them).
   * @param {any} [words]
   */
  function statistics(doc, words) {
    const w = words || globalThis.NonopressWords?.words();
    const {_, ngettext} = w;
    const s = summary();
    const make = (tag, text) => { const n = doc.createElement(tag); if (text) n.textContent = text; return n; };
    const section = make('section');
    section.className = 'np-habits';
    section.setAttribute('aria-label', _('Your statistics on this device'));
    section.append(make('h2', _('Your statistics')));
    const list = make('ul');
    list.append(make('li', _('Solved: {count}', {count: s.solved})),
      make('li', ngettext('Streak: {count} day', 'Streak: {count} days', s.streak)),
      make('li', ngettext('Longest streak: {count} day', 'Longest streak: {count} days', s.longest)));
    section.append(list);
    if (s.levels.length) {
      const levels = make('ul');
      levels.className = 'np-habits-levels';
      for (const x of s.levels) {
        levels.append(make('li', _('{level}: best {best}, median {median} ({count} solved)',
          {level: w.pgettext('level', x.level), best: clock(x.best), median: clock(x.median), count: x.solved})));
      }
      section.append(levels);
    }
    section.append(make('p', _('Kept in this browser only: nothing is sent anywhere.')));
    return section;
  }

  // -- a line's marks against its clue: can any placement of the runs fit them? ------------
  /**
   * True when some placement of ``runs`` ([length, colour] in order) fits ``cells`` (0 not
   * yet marked, EMPTY_MARK marked empty, k painted colour k). Runs of one colour need a gap
   * between them, runs of two colours may touch. One pass of a table of (runs placed,
   * cells covered): a line of 200 cells and 100 runs is 20,000 steps.
   */
  function fits(cells, runs) {
    const n = cells.length, R = runs.length;
    const painted = (i) => cells[i] !== 0 && cells[i] !== EMPTY_MARK;
    // ok[j * (n + 1) + i]: j runs placed within the first i cells, cell i next to decide
    const ok = new Uint8Array((R + 1) * (n + 1));
    ok[0] = 1;
    for (let j = 0; j <= R; j++) {
      for (let i = 0; i <= n; i++) {
        if (!ok[j * (n + 1) + i]) continue;
        if (i < n && !painted(i)) ok[j * (n + 1) + i + 1] = 1;  // cell i left empty
        if (j === R) continue;
        const [length, colour] = runs[j];
        const end = i + length;
        if (end > n) continue;
        let fit = true;
        for (let k = i; k < end && fit; k++) fit = cells[k] === 0 || cells[k] === colour;
        if (!fit) continue;
        const next = runs[j + 1];
        if (next && next[1] === colour) {  // the same colour next: a gap cell first
          if (end < n && !painted(end)) ok[(j + 1) * (n + 1) + end + 1] = 1;
        } else if (end === n || cells[end] !== colour) ok[(j + 1) * (n + 1) + end] = 1;
      }
    }
    return ok[R * (n + 1) + n] === 1;
  }

  // -- the extra of a player on a puzzle page ------------------------------------------------
  class Habits {
    constructor(player) {
      this.player = player;
      this.cardKey = `nonopress-card:${player.data.key}`;
      /** @type {Card} */
      this.card = load(this.cardKey) || {rows: {}};
      if (typeof this.card.rows !== 'object' || this.card.rows === null) this.card = {rows: {}};
      /** @type {Set<string>} the lines the signal marks now */
      this.flagged = new Set();
      this.board = player.board;
      // the error signal needs line clues: the line boards' (black-and-white, colour)
      this.lines = Array.isArray(this.board.rowClues) && Array.isArray(this.board.columnClues);
      this.on = false;  // the signal's switch, read from the device's setting by lint
    }

    /** Once the player is built: the error signal's switch, under the grid. */
    attach() {
      const p = this.player;
      if (this.lines) {
        const box = /** @type {HTMLInputElement} */ (document.createElement('input'));
        box.type = 'checkbox';
        box.id = `np-signal-${p.data.key}`;
        box.checked = !!load(SIGNAL);
        box.addEventListener('change', () => {
          store(SIGNAL, box.checked ? true : undefined);
          this.lint(null, true);
          p.say(box.checked ? p.words._('Lines that contradict their clue will be marked as you go.') : p.words._('Error marks off.'));
        });
        const label = document.createElement('label');
        label.htmlFor = box.id;
        label.textContent = ' ' + p.words._('Mark lines that contradict their clue as I go');
        const line = document.createElement('p');
        line.className = 'np-signal';
        line.append(box, label);
        p.extrasBar().append(line);
        this.lint(null, false);  // the marks as they were left, not counted again
      }
      if (p.solved) this.solvedPanel(false);
    }

    /** The rows a step changed, in the card: a hint, a reveal, a mistake found. */
    helped(why, cells) {
      const order = {e: 1, h: 2, r: 3};
      for (const i of cells) {
        const r = String(Math.floor(i / this.player.W));
        if ((order[this.card.rows[r]] || 0) < order[why]) this.card.rows[r] = why;
      }
      store(this.cardKey, this.card);
    }

    restarted() {
      this.card = {rows: {}};
      store(this.cardKey, undefined);
      this.lint(null, false);
    }

    /** The error signal over the lines of the changed cells (all lines for null). */
    touched(indices) { if (this.lines && this.on) this.lint(indices, true); }

    /**
     * Mark the lines of ``indices`` (every line for null) whose marks contradict their
     * clue; ``count``: a line newly marked counts as a check (not when the marks are only
     * drawn again, on a reload).
     */
    lint(indices, count) {
      if (!this.lines) return;
      const p = this.player, W = p.W, H = p.H, on = this.on = !!load(SIGNAL);
      /** @type {[string, number][]} */
      const lines = [];
      if (indices === null) {
        for (let r = 0; r < H; r++) lines.push(['row', r]);
        for (let c = 0; c < W; c++) lines.push(['column', c]);
      } else {
        const rows = new Set(), cols = new Set();
        for (const i of indices) { rows.add(Math.floor(i / W)); cols.add(i % W); }
        for (const r of rows) lines.push(['row', r]);
        for (const c of cols) lines.push(['column', c]);
      }
      const found = [];
      for (const [axis, k] of lines) {
        const name = `${axis} ${k}`;
        let bad = false;
        if (on) {
          const cells = [];
          if (axis === 'row') for (let c = 0; c < W; c++) cells.push(p.cells[k * W + c]);
          else for (let r = 0; r < H; r++) cells.push(p.cells[r * W + k]);
          bad = !fits(cells, (axis === 'row' ? this.board.rowClues : this.board.columnClues)[k]);
        }
        const head = (axis === 'row' ? this.board.rowHeads : this.board.colHeads)[k];
        if (head) head.classList.toggle('np-contradicts', bad);
        if (bad && !this.flagged.has(name)) {
          this.flagged.add(name);
          found.push(axis === 'row' ? p.words._('Row {n}', {n: k + 1}) : p.words._('Column {n}', {n: k + 1}));
          if (!count) continue;
          // the signal checked the solver's marks for them: counted as a check
          p.stats.checks++;
          if (axis === 'row') this.helped('e', [k * W]);
          else for (let r = 0; r < H; r++) if (p.cells[r * W + k] !== 0) { this.helped('e', [r * W + k]); break; }
        } else if (!bad) this.flagged.delete(name);
      }
      if (found.length && indices !== null) {
        const named = found.join(p.words._(', '));
        p.say(p.words.ngettext('{lines} cannot fit its clue.', '{lines} cannot fit their clues.', found.length, {lines: named}));
      }
    }

    /** The solved panel: the device's statistics and the Share control. */
    solvedPanel(fresh) {
      const p = this.player, panel = p.solvedPanel;
      if (!panel) return;
      if (fresh && !p.stats.reveals) {
        remember(p.data.key, Math.round(p.stats.seconds), (p.data.grade || {}).level || 'other', this.hints());
      }
      panel.querySelector('.np-habits')?.remove();
      panel.querySelector('.np-share')?.remove();
      const share = document.createElement('div');
      share.className = 'np-share';
      const out = document.createElement('pre');
      out.className = 'np-card';
      out.hidden = true;
      const go = document.createElement('button');
      go.type = 'button';
      go.textContent = p.words._('Share');
      go.setAttribute('aria-describedby', `np-share-what-${p.data.key}`);
      const what = document.createElement('span');
      what.id = `np-share-what-${p.data.key}`;
      what.className = 'np-share-what';
      what.textContent = ' ' + p.words._('copies your time and a grid of coloured squares, never the picture');
      go.addEventListener('click', () => this.share(out));
      share.append(go, what, out);
      panel.append(share, statistics(document, p.words));
    }

    hints() { return Number((this.player.stats.hints || {})[1]) || 0; }

    /** The card: the puzzle, the time, the help taken, and one square a row. */
    card_text() {
      const p = this.player, d = p.data, s = p.stats;
      const g = d.grade || {};
      const w = p.words;
      const head = [d.heading || (d.number ? w._('Puzzle {number}', {number: d.number}) : w._('Puzzle')),
        g.level && w.pgettext('level', g.level)].filter(Boolean).join(' \u00b7 ');
      const hints = this.hints();
      const help = s.reveals ? w._('Hints: {hints}, checks: {checks}, reveals: {reveals}', {hints, checks: s.checks, reveals: s.reveals})
        : w._('Hints: {hints}, checks: {checks}', {hints, checks: s.checks});
      const square = {e: '\ud83d\udfe5', h: '\ud83d\udfe8', r: '\u2b1c'};
      const rows = [];
      for (let r = 0; r < p.H; r++) rows.push(square[this.card.rows[String(r)]] || '\ud83d\udfe9');
      const bands = [];
      for (let k = 0; k < rows.length; k += 5) bands.push(rows.slice(k, k + 5).join(''));
      const lines = [head, `\u23f1 ${clock(s.seconds)} \u00b7 ${help}`, ...bands];
      if (/^https?:$/.test(location.protocol)) lines.push(location.href.split('#')[0]);
      return lines.join('\n');
    }

    share(out) {
      const text = this.card_text(), p = this.player;
      out.textContent = text;
      out.hidden = false;
      const done = () => p.say(p.words._('Copied the card: paste it anywhere.'));
      const manual = () => {
        const range = document.createRange();
        range.selectNodeContents(out);
        const selection = getSelection();
        if (selection) { selection.removeAllRanges(); selection.addRange(range); }
        p.say(p.words._('The card is shown and selected: copy it.'));
      };
      try {
        navigator.clipboard.writeText(text).then(done, manual);
      } catch (e) { manual(); }
    }
  }

  /** The index's statistics, when the page has a place for them and a solve was kept. */
  function fillIndex() {
    for (const place of document.querySelectorAll('[data-np-habits]')) {
      if (!summary().solved || !globalThis.NonopressWords) continue;
      // the index's words: the catalogue the site builder put in the page (none in English)
      const data = document.getElementById('nonopress-catalogue');
      const words = globalThis.NonopressWords.words(data ? JSON.parse(data.textContent || '{}') : undefined);
      place.replaceChildren(statistics(document, words));
      /** @type {HTMLElement} */ (place).hidden = false;
    }
  }

  const api = {summary, fits, remember, statistics, today,
               join(player) { return new Habits(player); }};
  /** @type {any} */ (globalThis).NonopressHabits = api;
  const P = /** @type {any} */ (globalThis).NonopressPlayer;
  if (P && P.extend) P.extend(api);
  else ((/** @type {any} */ (globalThis)).NonopressExtras = (/** @type {any} */ (globalThis)).NonopressExtras || []).push(api);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fillIndex);
  else fillIndex();
})();

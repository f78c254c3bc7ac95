// Printing from the page: a Print control and what it prints, chosen beside it: the grid as
// it is (the solver's progress), a blank grid, or the answer on its own. The print style
// sheet (print.css, imported by player.css) sets the clues and the grid at print sizes and
// prints no control. A blank grid or the answer is a copy of the board drawn for the page,
// the solver's own grid untouched (the board draws it: every kind prints as it plays).
//
// A classic script beside player.js, joining each player as an extra (NonopressPlayer.extend).
'use strict';
(function () {
  /** the printable width of A4 or Letter less margins, in millimetres */
  const PAGE_MM = 170;
  /** the tallest a grid may be on the page, in millimetres (the title and clues above) */
  const PAGE_TALL_MM = 200;

  class Print {
    constructor(player) {
      this.player = player;
      this.mode = 'progress';
      /** @type {HTMLElement | null} */
      this.copy = null;
    }

    attach() {
      const p = this.player, key = p.data.key;
      const select = /** @type {HTMLSelectElement} */ (document.createElement('select'));
      select.id = `np-print-what-${key}`;
      const {_} = p.words;
      for (const [value, text] of [['progress', _('the grid as it is')], ['blank', _('a blank grid')], ['answer', _('the answer')]]) {
        const option = document.createElement('option');
        option.value = value; option.textContent = text;
        select.append(option);
      }
      select.addEventListener('change', () => { this.mode = select.value; this.prepare(); });
      const label = document.createElement('label');
      label.htmlFor = select.id;
      label.textContent = _('What to print:') + ' ';
      const go = document.createElement('button');
      go.type = 'button';
      go.textContent = _('Print');
      go.addEventListener('click', () => { this.prepare(); window.print(); });
      const line = document.createElement('p');
      line.className = 'np-print-controls';
      line.append(label, select, ' ', go);
      p.extrasBar().append(line);
      this.select = select;
      // the browser's own Print (Ctrl+P) prints the choice too, drawn as things are now
      window.addEventListener('beforeprint', () => this.prepare());
      this.prepare();
    }

    /** Size the printed grid to the page and draw the copy the choice asks for. */
    prepare() {
      const p = this.player, host = p.host;
      const across = p.W + (p.clueChars || 2) * 0.36 + 0.4;
      const down = p.H + (p.clueChars || 2) * 0.36 + 0.4;
      const cell = Math.max(3, Math.min(8, PAGE_MM / across, PAGE_TALL_MM / down));
      host.style.setProperty('--print-cell', `${cell.toFixed(2)}mm`);
      host.style.setProperty('--print-rowclue', `${((p.clueChars || 2) * cell * 0.55 * 0.62 + cell * 0.4).toFixed(2)}mm`);
      for (const mode of ['progress', 'blank', 'answer']) host.classList.toggle(`np-print-${mode}`, mode === this.mode);
      if (this.copy) { this.copy.remove(); this.copy = null; }
      if (this.mode !== 'progress') this.copy = this.drawCopy(this.mode === 'answer');
    }

    /** The board drawn blank (its givens only) or solved, copied, and the solver's back. */
    drawCopy(answer) {
      const p = this.player, board = p.board, n = p.n;
      const mine = p.cells;
      const shown = board.emptyCells();
      if (answer) for (let i = 0; i < n; i++) shown[i] = board.truth(i);
      else for (const [i, value] of board.givens(p.solution)) shown[i] = value;
      p.cells = shown;
      for (let i = 0; i < n; i++) board.drawCell(i);
      board.touched(null);
      const grid = /** @type {HTMLElement} */ (p.grid.cloneNode(true));
      p.cells = mine;
      p.refreshAll();  // draws each cell's value (the check and hint marks stay as they were)
      for (const node of [grid, ...grid.querySelectorAll('*')]) {
        node.removeAttribute('id');
        node.removeAttribute('tabindex');
        node.classList.remove('np-done', 'np-show', 'np-wrong', 'np-contradicts', 'np-active', 'np-paused');
        if (answer) node.classList.remove('np-dot');  // an answer shows its ink, not dots
      }
      const copy = document.createElement('div');
      copy.className = 'np-print-copy';
      copy.setAttribute('aria-hidden', 'true');
      const caption = document.createElement('p');
      caption.className = 'np-print-caption';
      const {_} = p.words;
      // TRANSLATORS: above the printed answer grid; {title} is the puzzle's title (may be empty)
      caption.textContent = answer ? _('Answer: {title}', {title: p.data.heading || ''}).trim() : '';
      if (answer) copy.append(caption);
      copy.append(grid);
      (p.scroller || p.grid).after(copy);
      return copy;
    }
  }

  const api = {join(player) { return new Print(player); }};
  const P = /** @type {any} */ (globalThis).NonopressPlayer;
  if (P && P.extend) P.extend(api);
  else ((/** @type {any} */ (globalThis)).NonopressExtras = (/** @type {any} */ (globalThis)).NonopressExtras || []).push(api);
})();

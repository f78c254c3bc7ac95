// Draws the grid on a canvas: clues at the edges, thick rules every five cells, and the
// overlays the verdict brings (cells that differ between two solutions, the line that
// breaks, the heat of the hard steps, a proposal's flips and givens). A kind whose clues sit
// in the cells (the mosaic: a digit counting its 3x3 block) is drawn with its digits in the
// cells over a pale picture, a cursor on the cell being edited, and a proposal's clues shown
// and hidden framed.
import {clueOf} from './picture.js';

export const COLOURS = {
  ink: '#1d2330', grid: '#c9ced8', rule: '#5b6475', clueBg: '#eef0f4', clueInk: '#2b3240',
  shadeEmpty: '#f59e0b', shadeFilled: '#b45309', broken: '#c0262d',
  toFilled: '#d92d20', toEmpty: '#2f5bea', given: '#12805c',
  paleInk: '#aeb6c6', cursor: '#2f5bea', clueShown: '#12805c', clueHidden: '#d92d20',
};
// rung rank (ladder order) -> heat colour: cool for cheap rungs, hot for look-aheads
export const HEAT = ['#ffffff00', '#fde68a66', '#fcd34d88', '#fbbf24a0', '#f97316b0', '#ea580cc0',
              '#dc2626c8', '#b91c1cd0', '#7f1d1dd8'];

export class Board {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.picture = null;
    this.overlay = {differ: null, broken: null, heat: null, flips: null, givens: null, clues: null,
                    added: null, removed: null, proposed: null};
    // the clue digits of a kind whose clues sit in cells: a Picture holding digit + 1
    // (0: no clue), or null for the line puzzles; the cell being edited
    this.cellClues = null;
    this.cursor = null;
    this.cell = 24;
    this.left = 0; this.top = 0;
    // the clue bands' room, kept while the size stays: the grid must not move under the pen
    // as drawing lengthens a clue (strokes would land a row low)
    this.room = {key: '', rows: 1, columns: 1};
  }

  colourOf(value) {
    if (!value) return '#ffffff';
    const palette = this.picture.palette;
    if (!palette) return COLOURS.ink;
    const rgb = palette[value - 1].rgb;
    return rgb.startsWith('#') ? rgb : `#${rgb}`;
  }

  clues() {
    const p = this.picture;
    if (this.overlay.clues) return this.overlay.clues;  // a puzzle read as clues alone
    const rows = [], columns = [];
    for (let r = 0; r < p.height; r++) rows.push(clueOf(p.line('row', r)));
    for (let c = 0; c < p.width; c++) columns.push(clueOf(p.line('column', c)));
    return {rows, columns};
  }

  layout(maxWidth, maxHeight) {
    const p = this.picture;
    if (this.cellClues) {  // no clue bands: the digits sit in the cells
      this.cell = Math.max(12, Math.min(44, Math.floor(Math.min(maxWidth / p.width, maxHeight / p.height))));
      this.left = 2; this.top = 2;
      return {rows: [], columns: []};
    }
    const {rows, columns} = this.clues();
    // room for the longest clue a line of this size can have (a block and a gap each), or
    // for a longer one already seen at this size (colour blocks may touch): never less
    const key = `${p.width}x${p.height}`;
    if (this.room.key !== key) {
      this.room = {key, rows: Math.ceil(p.width / 2), columns: Math.ceil(p.height / 2)};
    }
    const rowClue = this.room.rows = Math.max(1, this.room.rows, ...rows.map((c) => c.length));
    const colClue = this.room.columns = Math.max(1, this.room.columns, ...columns.map((c) => c.length));
    const across = p.width + rowClue * 0.9, down = p.height + colClue * 0.9;
    this.cell = Math.max(9, Math.min(40, Math.floor(Math.min(maxWidth / across, maxHeight / down))));
    this.left = Math.ceil(rowClue * this.cell * 0.9) + 6;
    this.top = Math.ceil(colClue * this.cell * 0.9) + 6;
    return {rows, columns};
  }

  render(maxWidth, maxHeight) {
    const p = this.picture;
    if (!p) return;
    const {rows, columns} = this.layout(maxWidth, maxHeight);
    const s = this.cell, W = this.left + p.width * s + 1, H = this.top + p.height * s + 1;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(W * ratio); this.canvas.height = Math.round(H * ratio);
    this.canvas.style.width = `${W}px`; this.canvas.style.height = `${H}px`;
    const ctx = this.ctx;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, W, H);
    if (this.cellClues) { this.renderCellClues(); return; }
    // clue areas, tinted
    ctx.fillStyle = COLOURS.clueBg;
    ctx.fillRect(this.left, 0, p.width * s, this.top - 2);
    ctx.fillRect(0, this.top, this.left - 2, p.height * s);
    this.drawClues(rows, columns);
    // cells
    const differ = this.overlay.differ;
    for (let r = 0; r < p.height; r++) {
      for (let c = 0; c < p.width; c++) {
        const v = p.get(r, c);
        let fill = this.colourOf(v);
        if (differ && differ.has(r * p.width + c)) fill = v ? COLOURS.shadeFilled : COLOURS.shadeEmpty;
        ctx.fillStyle = fill;
        ctx.fillRect(this.left + c * s, this.top + r * s, s, s);
        const heat = this.overlay.heat;
        if (heat && heat[r][c] > 0) {
          ctx.fillStyle = HEAT[Math.min(HEAT.length - 1, heat[r][c])];
          ctx.fillRect(this.left + c * s, this.top + r * s, s, s);
        }
      }
    }
    this.drawRules();
    this.drawProposal();
    this.drawBroken();
  }

  // a clue-in-cell grid: the picture pale (the digits stay readable on it), shaded where
  // two solutions differ, each digit in its cell, rules, the proposal and the cursor
  renderCellClues() {
    const ctx = this.ctx, s = this.cell, p = this.picture;
    const differ = this.overlay.differ;
    const proposed = this.overlay.proposed;  // the proposal's clue grid, while one is shown
    const clues = proposed || this.cellClues;
    for (let r = 0; r < p.height; r++) {
      for (let c = 0; c < p.width; c++) {
        const v = p.get(r, c);
        let fill = v ? COLOURS.paleInk : '#ffffff';
        if (differ && differ.has(r * p.width + c)) fill = v ? COLOURS.shadeFilled : COLOURS.shadeEmpty;
        ctx.fillStyle = fill;
        ctx.fillRect(this.left + c * s, this.top + r * s, s, s);
      }
    }
    this.drawRules();
    ctx.font = `600 ${Math.round(s * 0.62)}px Inter, "DejaVu Sans", Arial, sans-serif`;
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    const frame = (r, c, colour, width) => {
      ctx.strokeStyle = colour; ctx.lineWidth = width;
      ctx.strokeRect(this.left + c * s + 2.5, this.top + r * s + 2.5, s - 5, s - 5);
    };
    for (let r = 0; r < p.height; r++) {
      for (let c = 0; c < p.width; c++) {
        const v = clues.get(r, c);
        if (!v) continue;
        ctx.fillStyle = COLOURS.clueInk;
        ctx.fillText(String(v - 1), this.left + c * s + s / 2, this.top + r * s + s / 2 + 0.5);
      }
    }
    for (const [r, c] of this.overlay.added || []) frame(r, c, COLOURS.clueShown, 2.5);
    for (const [r, c] of this.overlay.removed || []) {
      // a clue the proposal hides: its digit struck through in red
      const v = this.cellClues.get(r, c);
      const x = this.left + c * s + s / 2, y = this.top + r * s + s / 2;
      ctx.fillStyle = COLOURS.clueHidden;
      if (v) ctx.fillText(String(v - 1), x, y + 0.5);
      ctx.strokeStyle = COLOURS.clueHidden; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(x - s * 0.3, y + s * 0.3); ctx.lineTo(x + s * 0.3, y - s * 0.3); ctx.stroke();
    }
    this.drawProposal();
    this.drawBroken();
    if (this.cursor) frame(this.cursor[0], this.cursor[1], COLOURS.cursor, 2);
  }

  drawClues(rows, columns) {
    const ctx = this.ctx, s = this.cell;
    const two = [...rows, ...columns].some((clue) => clue.some(([n]) => n > 9));
    ctx.font = `600 ${Math.round(s * (two ? 0.5 : 0.6))}px Inter, "DejaVu Sans", Arial, sans-serif`;
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    const step = s * 0.9;
    // a colour clue sits on a chip of its colour, its digits black or white, whichever
    // contrasts more (WCAG): a pale yellow digit on the light clue background is unreadable
    const digit = (x, y, n, colour) => {
      if (this.picture.palette && colour) {
        const fill = this.colourOf(colour);
        ctx.fillStyle = fill;
        ctx.fillRect(x - step / 2 + 1, y - s / 2 + 2, step - 2, s - 4);
        ctx.fillStyle = readableInk(fill);
      } else {
        ctx.fillStyle = COLOURS.clueInk;
      }
      ctx.fillText(String(n), x, y + 0.5);
    };
    rows.forEach((clue, r) => {
      const y = this.top + r * s + s / 2;
      clue.forEach(([n, colour], i) => digit(this.left - 4 - (clue.length - i - 0.5) * step, y, n, colour));
    });
    columns.forEach((clue, c) => {
      const x = this.left + c * s + s / 2;
      clue.forEach(([n, colour], i) => digit(x, this.top - 4 - (clue.length - i - 0.5) * step, n, colour));
    });
  }

  drawRules() {
    const ctx = this.ctx, s = this.cell, p = this.picture;
    for (let pass = 0; pass < 2; pass++) {
      ctx.beginPath();
      for (let c = 0; c <= p.width; c++) {
        const thick = c % 5 === 0 || c === p.width;
        if (thick !== (pass === 1)) continue;
        const x = this.left + c * s + 0.5;
        ctx.moveTo(x, pass && !this.cellClues ? 0 : this.top); ctx.lineTo(x, this.top + p.height * s);
      }
      for (let r = 0; r <= p.height; r++) {
        const thick = r % 5 === 0 || r === p.height;
        if (thick !== (pass === 1)) continue;
        const y = this.top + r * s + 0.5;
        ctx.moveTo(pass && !this.cellClues ? 0 : this.left, y); ctx.lineTo(this.left + p.width * s, y);
      }
      ctx.strokeStyle = pass ? COLOURS.rule : COLOURS.grid;
      ctx.lineWidth = pass ? 1.6 : 1;
      ctx.stroke();
    }
  }

  drawProposal() {
    const ctx = this.ctx, s = this.cell;
    const frame = (r, c, colour, width) => {
      ctx.strokeStyle = colour; ctx.lineWidth = width;
      ctx.strokeRect(this.left + c * s + 2, this.top + r * s + 2, s - 4, s - 4);
    };
    for (const [r, c, toFilled] of this.overlay.flips || []) {
      ctx.fillStyle = toFilled ? COLOURS.toFilled : COLOURS.toEmpty;
      ctx.beginPath();
      ctx.arc(this.left + c * s + s / 2, this.top + r * s + s / 2, s * 0.28, 0, Math.PI * 2);
      ctx.fill();
      frame(r, c, toFilled ? COLOURS.toFilled : COLOURS.toEmpty, 2);
    }
    for (const [r, c] of this.overlay.givens || []) frame(r, c, COLOURS.given, 2.5);
  }

  drawBroken() {
    const broken = this.overlay.broken;
    if (!broken) return;
    const ctx = this.ctx, s = this.cell, p = this.picture;
    ctx.strokeStyle = COLOURS.broken; ctx.lineWidth = 3;
    if (broken.axis === 'row') ctx.strokeRect(1.5, this.top + broken.index * s + 1.5, this.left + p.width * s - 3, s - 3);
    else if (broken.axis === 'column') ctx.strokeRect(this.left + broken.index * s + 1.5, 1.5, s - 3, this.top + p.height * s - 3);
    else if (broken.cell) ctx.strokeRect(this.left + broken.cell[1] * s + 1.5, this.top + broken.cell[0] * s + 1.5, s - 3, s - 3);
  }

  // the cell under a pointer, or null
  cellAt(event) {
    const rect = this.canvas.getBoundingClientRect();
    const x = event.clientX - rect.left - this.left, y = event.clientY - rect.top - this.top;
    const c = Math.floor(x / this.cell), r = Math.floor(y / this.cell);
    if (!this.picture || r < 0 || c < 0 || r >= this.picture.height || c >= this.picture.width) return null;
    return [r, c];
  }
}

// WCAG 2 relative luminance of '#rrggbb', and the contrast ratio of two of them
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(first, second) {
  const [high, low] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (high + 0.05) / (low + 0.05);
}

// black or white digits, whichever reads better on `fill`
export function readableInk(fill) {
  return contrast('#000000', fill) >= contrast('#ffffff', fill) ? '#000000' : '#ffffff';
}

export function drawThumbnail(canvas, rows, palette) {
  const height = rows.length, width = rows[0].length;
  const scale = Math.max(1, Math.floor(Math.min(160 / width, 120 / height)));
  canvas.width = width * scale; canvas.height = height * scale;
  const ctx = canvas.getContext('2d');
  const colours = {'.': '#ffffff', '#': COLOURS.ink};
  (palette || []).forEach((c) => { colours[c.char] = c.rgb.startsWith('#') ? c.rgb : `#${c.rgb}`; });
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, canvas.width, canvas.height);
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c++) {
      if (row[c] === '.') continue;
      ctx.fillStyle = colours[row[c]] || COLOURS.ink;
      ctx.fillRect(c * scale, r * scale, scale, scale);
    }
  });
}

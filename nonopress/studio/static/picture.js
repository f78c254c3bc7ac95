// The picture being drawn: a grid of colour indices (0 = empty), with the edits an editor
// makes (resize, mirror, flip, rotate) and the clues it implies.

export class Picture {
  constructor(width, height, palette = null, cells = null) {
    this.width = width;
    this.height = height;
    this.palette = palette;  // null: black and white; else [{name, rgb, char}, ...]
    this.cells = cells || new Uint8Array(width * height);
  }

  static fromRows(rows, palette = null) {
    const height = rows.length, width = rows[0].length;
    const lookup = {'#': 1};
    if (palette) palette.forEach((colour, i) => { lookup[colour.char] = i + 1; });
    const picture = new Picture(width, height, palette);
    rows.forEach((row, r) => {
      for (let c = 0; c < width; c++) picture.cells[r * width + c] = lookup[row[c]] || 0;
    });
    return picture;
  }

  // clue rows of digits and '.' (a kind whose clues sit in cells) as digit + 1, 0 for none
  static fromClueRows(rows) {
    const height = rows.length, width = rows[0].length;
    const clues = new Picture(width, height);
    rows.forEach((row, r) => {
      for (let c = 0; c < width; c++) clues.cells[r * width + c] = row[c] === '.' ? 0 : Number(row[c]) + 1;
    });
    return clues;
  }

  get(r, c) { return this.cells[r * this.width + c]; }
  set(r, c, value) { this.cells[r * this.width + c] = value; }
  clone() { return new Picture(this.width, this.height, this.palette, this.cells.slice()); }
  equals(other) {
    return other && other.width === this.width && other.height === this.height &&
      this.cells.every((v, i) => v === other.cells[i]);
  }
  filled() { return this.cells.reduce((n, v) => n + (v ? 1 : 0), 0); }

  rows() {
    const chars = ['.', ...(this.palette ? this.palette.map((c) => c.char) : ['#'])];
    const rows = [];
    for (let r = 0; r < this.height; r++) {
      let row = '';
      for (let c = 0; c < this.width; c++) row += chars[this.get(r, c)];
      rows.push(row);
    }
    return rows;
  }

  mapped(width, height, source) {
    const out = new Picture(width, height, this.palette);
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const [sr, sc] = source(r, c);
        if (sr >= 0 && sc >= 0 && sr < this.height && sc < this.width) out.set(r, c, this.get(sr, sc));
      }
    }
    return out;
  }
  resized(width, height) { return this.mapped(width, height, (r, c) => [r, c]); }
  mirrored() { return this.mapped(this.width, this.height, (r, c) => [r, this.width - 1 - c]); }
  flipped() { return this.mapped(this.width, this.height, (r, c) => [this.height - 1 - r, c]); }
  rotated() { return this.mapped(this.height, this.width, (r, c) => [this.height - 1 - c, r]); }

  line(axis, index) {
    const values = [];
    const length = axis === 'row' ? this.width : this.height;
    for (let i = 0; i < length; i++) values.push(axis === 'row' ? this.get(index, i) : this.get(i, index));
    return values;
  }
}

// A line's clue: [[length, colour], ...] in order. The web player's own function (its
// board script, /player/boards/bw.js, loads before these modules): the clues the studio draws are
// the clues the player crosses off.
export function clueOf(values) {
  return globalThis.NonopressPlayer.clueOf(values);
}

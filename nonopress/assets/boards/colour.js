// The colour nonogram's board: the line board of bw.js with the puzzle's palette (a button
// and a key 1-9 per colour), each clue number on its colour, each painted cell in its ink.
// Colours are #rrggbb only (checked here): a value such as url(...) would make the page fetch.
'use strict';
(function () {
  const P = globalThis.NonopressPlayer;
  /**
   * @typedef {import('../puzzle').ColourPuzzle} ColourPuzzle
   * @typedef {import('../puzzle').Checks} Checks
   * @typedef {import('../puzzle').BoardClass} BoardClass
   */

  P.needBoard('bw').then((/** @type {any} */ LineBoard) => {
    class ColourBoard extends LineBoard {
      static check(d, c) {
        c.need(c.isList(d.palette, 35) && d.palette.length >= 1, 'palette', 'not a list of 1 to 35 colours');
        d.palette.forEach((colour, k) => {
          c.need(c.isObject(colour) && c.isText(colour.name, 60), `palette[${k}].name`, 'not a name of at most 60 characters');
          c.need(typeof colour.rgb === 'string' && /^#[0-9a-fA-F]{6}$/.test(colour.rgb), `palette[${k}].rgb`, 'not a colour #rrggbb');
        });
        LineBoard.checkLines(d, c, (item, where, length) => {
          c.need(Array.isArray(item) && item.length === 2 && c.isInt(item[0], 1, length)
                 && c.isInt(item[1], 1, d.palette.length), where, 'not [length, colour of the palette]');
          return item[0];
        });
      }

      palette() { return /** @type {ColourPuzzle} */ (this.data).palette; }
      pairs(clue) { return clue.map(([n, colour]) => [n, colour]); }
      toolLabel(k) { return `${k + 1}`; }
      toolName(k) { return this.words._('Paint {colour} (key {key})', {colour: this.colours[k].name, key: k + 1}); }
    }
    P.defineBoard('colour', /** @type {BoardClass} */ (/** @type {unknown} */ (ColourBoard)));
  });
})();

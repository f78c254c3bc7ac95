// The player's JSON as TypeScript types, for the JSDoc of player.js and boards/*.js (checked
// by `tsc` with checkJs in CI, .ci/js). The written format is puzzle.schema.json beside this
// file; tests/test_puzzle_schema.py holds these names to the schema's. Not shipped to sites.

export interface Grade {
  level?: string;
  stars?: number | null;
  score?: number | null;
  minutes?: number | null;
  minutes_low?: number | null;
  minutes_high?: number | null;
  grader_version?: string;
}

export interface Site {
  collect?: string | null;
  player?: string;
}

/** The player's words in the reader's language (absent in English): words.js reads them. */
export interface Catalogue {
  language: string;
  plural: string;
  messages: Record<string, string | string[]>;
}

export interface HintStep {
  r: number;
  /** the technique named in brackets when it is not the rung (rungs[n]) */
  n?: number;
  w: number;
  s: string;
  c: string;
  g?: 1;
  at?: number;
  a?: 'row' | 'column';
  i?: number;
  p?: string;
  px?: string;
  /** the player's own caches of c and of the premises, filled as hints are asked */
  _c?: number[];
  _p?: number[];
}

export interface HintTable {
  rungs: string[];
  where: string[];
  bracket?: boolean;
  steps: HintStep[];
}

/** What every kind's JSON holds. */
export interface PuzzleBase {
  format: 1;
  kind: string;
  key: string;
  width: number;
  height: number;
  solution: string;
  number?: number;
  heading?: string;
  title?: string;
  author?: string;
  note?: string;
  date?: string;
  size_label?: string;
  veiled_title?: string;
  grade?: Grade | null;
  site?: Site | null;
  catalogue?: Catalogue;
  hints?: HintTable | null;
}

export interface PaletteColour {
  name: string;
  rgb: string;
}

export interface BwPuzzle extends PuzzleBase {
  kind: 'bw';
  rows: number[][];
  columns: number[][];
  givens?: [number, number, 0 | 1][];
}

export interface ColourPuzzle extends PuzzleBase {
  kind: 'colour';
  palette: PaletteColour[];
  rows: [number, number][][];
  columns: [number, number][][];
  givens?: [number, number, 0 | 1][];
}

export type LinePuzzle = BwPuzzle | ColourPuzzle;

export interface FillinPuzzle extends PuzzleBase {
  kind: 'fillin';
  blocks: string;
  given: string;
  words: Record<string, string[]>;
  starter?: string;
  hints: null;
}

/** A step of a kind whose clues sit in cells: p the decided cells it stood on, k its clues' cells. */
export interface ClueHintStep {
  r: number;
  w: number;
  s: string;
  c: string;
  p: string;
  k: string;
  _c?: number[];
  _p?: number[];
}

export interface ClueHintTable {
  rungs: string[];
  where: string[];
  bracket?: boolean;
  steps: ClueHintStep[];
}

export interface MosaicPuzzle extends PuzzleBase {
  kind: 'mosaic';
  clues: string[];
  hints?: ClueHintTable | null;
}

export type Puzzle = BwPuzzle | ColourPuzzle | FillinPuzzle | MosaicPuzzle;

export interface Stats {
  seconds: number;
  checks: number;
  reveals: number;
  errors_found: number;
  hints: Record<number, number>;
  hint_rungs: string[];
  /** hints accepted (their cells placed by the player): a finish by hints, never clean */
  accepted: number;
}

/** What a board may ask of the shell. */
export interface Shell {
  host: HTMLElement;
  data: Puzzle;
  W: number;
  H: number;
  n: number;
  cells: any;
  solution: any;
  locked: Uint8Array;
  paused: boolean;
  undoStack: [number, any, any][][];
  apply(changes: [number, any][], record?: boolean): [number, any, any][];
  touched(indices: number[]): void;
  onKey(e: KeyboardEvent): void;
  say(text: string, visible?: boolean): void;
  /** the puzzle's words in the reader's language (words.js) */
  words: Words;
}

/** The checks a board's own check uses (the shell's). */
export interface Checks {
  need(ok: boolean, where: string, what: string): void;
  isInt(v: unknown, low: number, high: number): boolean;
  isText(v: unknown, most: number): boolean;
  isObject(v: unknown): boolean;
  isList(v: unknown, most: number): boolean;
  checkRanges(text: unknown, limit: number, where: string): void;
}

/** A kind's board: draws and edits its grid; the shell does the rest. */
export interface Board {
  blank: any;
  active: number;
  lineName: string;
  reports: boolean;
  decode(answer: string): any;
  emptyCells(): any;
  holds(v: unknown): boolean;
  givens(solution: any): [number, any][];
  cellEl(i: number): HTMLElement | undefined;
  correct(i: number): boolean;
  wrong(i: number): boolean;
  settled(i: number): boolean;
  truth(i: number): any;
  tools(): HTMLElement | null;
  moreTools(): HTMLElement[];
  after(): HTMLElement | null;
  grid(): HTMLElement;
  clueChars(): number;
  drawCell(i: number): void;
  touched(indices: number[] | null): void;
  lineCells(): number[];
  key(e: KeyboardEvent): boolean;
  premises(step: HintStep): number[];
  hintWhere(step: HintStep): string;
  hintArea(step: HintStep): number[];
  /** what a cell a hint decides becomes: filled (and in what ink) or empty; a board
   * without it has its hint's cells shown alike */
  hintCell?(i: number): {filled: boolean, colour: string | null};
}

export interface BoardClass {
  new (shell: Shell): Board;
  check(data: any, checks: Checks): void;
  fits(answer: string, data: any): boolean;
}

/** globalThis.NonopressPlayer: what the shell lends the boards (and the studio). */
export interface PlayerApi {
  ranges(text?: string): number[];
  reveal(blob: string, key: string): string;
  el(tag: string, attrs?: Record<string, any> | null, ...children: (Node | string | null)[]): HTMLElement;
  button(label: string, action: () => void, attrs?: Record<string, any>): HTMLButtonElement;
  defineBoard(tag: string, Board: BoardClass): void;
  needBoard(tag: string): Promise<BoardClass>;
  Player: unknown;
  /** an extra (habits.js, print.js): every player, now and later, joins it */
  extend(api: {join(player: any): any}): void;
  /** the line boards' (boards/bw.js): the clue of a line of values */
  clueOf?: (values: ArrayLike<number>) => [number, number][];
  EMPTY_MARK?: number;
}

/** One puzzle's words (words.js): each English message in the reader's language. */
export interface Words {
  language: string;
  _(message: string, values?: Record<string, string | number>): string;
  pgettext(context: string, message: string, values?: Record<string, string | number>): string;
  ngettext(one: string, many: string, count: number, values?: Record<string, string | number>): string;
  number(value: number): string;
}

/** globalThis.NonopressWords (words.js). */
export interface WordsApi {
  words(catalogue?: Catalogue): Words;
  pluralRule(text: string): ((n: number) => number) | null;
}

declare global {
  var NonopressPlayer: PlayerApi;
  var NonopressWords: WordsApi | undefined;
}

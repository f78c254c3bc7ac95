// The folder as a library: cards with thumbnails, size, level, stars, verdict; sort, filter,
// duplicates flagged; a card opens in the editor, its + puts it into the issue.
import {get} from './api.js';
import {drawThumbnail} from './board.js';

const $ = (id) => document.getElementById(id);
const LEVELS = ['easy', 'medium', 'hard', 'fiendish', 'needs-guessing', 'stuck', 'undecided', 'ambiguous', 'contradictory'];

export class Library {
  constructor({onOpen, onPick, picked}) {
    this.entries = [];
    this.onOpen = onOpen; this.onPick = onPick; this.picked = picked;
    this.timer = null;
    for (const id of ['lib-filter', 'lib-level', 'lib-sort']) $(id).addEventListener('input', () => this.render());
    document.addEventListener('library-changed', () => this.load());
  }

  async load() {
    clearTimeout(this.timer);
    try {
      const data = await get('/api/puzzles');
      this.entries = data.entries;
      this.pending = data.pending;
      this.render();
      if (data.pending > 0) this.timer = setTimeout(() => this.load(), 1200);
    } catch (error) {
      $('lib-summary').textContent = error.message;
    }
  }

  entry(label) { return this.entries.find((e) => e.label === label); }

  sorted() {
    const text = $('lib-filter').value.trim().toLowerCase();
    const level = $('lib-level').value;
    const rank = (e) => (e.level ? LEVELS.indexOf(e.level) : 99);
    const keys = {
      name: (a, b) => a.label.localeCompare(b.label),
      level: (a, b) => rank(a) - rank(b) || (a.score ?? 0) - (b.score ?? 0),
      size: (a, b) => a.width * a.height - b.width * b.height,
      stars: (a, b) => (a.stars ?? 9) - (b.stars ?? 9),
    };
    return this.entries
      .filter((e) => !text || e.label.toLowerCase().includes(text) || (e.title || '').toLowerCase().includes(text))
      .filter((e) => !level || e.level === level)
      .sort(keys[$('lib-sort').value] || keys.name);
  }

  render() {
    const box = $('library');
    box.replaceChildren();
    const shown = this.sorted();
    for (const entry of shown) box.appendChild(this.card(entry));
    const dups = this.entries.filter((e) => e.duplicates.length).length;
    $('lib-summary').textContent = `${shown.length} of ${this.entries.length} puzzles` +
      (this.pending ? ` · grading ${this.pending}…` : '') + (dups ? ` · ${dups} duplicates flagged` : '');
  }

  card(entry) {
    const card = document.createElement('article');
    card.className = 'card';
    card.dataset.label = entry.label;
    const canvas = document.createElement('canvas');
    if (entry.thumbnail) drawThumbnail(canvas, entry.thumbnail, entry.palette);
    const name = document.createElement('div');
    name.className = 'name';
    name.textContent = entry.title || entry.label;
    name.title = entry.label;
    const meta = document.createElement('div');
    meta.className = 'meta';
    const size = document.createElement('span');
    size.textContent = entry.error ? 'unreadable' : `${entry.width}×${entry.height}` + (entry.kind === 'colour' ? ` · ${entry.palette.length} col` : '');
    const badge = document.createElement('span');
    const verdict = entry.error ? 'error' : (entry.pending ? 'grading' : entry.verdict);
    badge.className = `badge ${verdict}`;
    badge.textContent = verdict;
    meta.append(size, badge);
    const grade = document.createElement('div');
    grade.className = 'meta';
    const level = document.createElement('span');
    level.textContent = entry.level || (entry.error ? entry.error.slice(0, 40) : '…');
    const stars = document.createElement('span');
    stars.className = 'stars';
    stars.textContent = entry.stars ? '★'.repeat(entry.stars) : '';
    grade.append(level, stars);
    card.append(canvas, name, meta, grade);
    if (entry.duplicates.length) {
      const dup = document.createElement('div');
      dup.className = 'dup';
      dup.textContent = `⚠ same design as ${entry.duplicates.join(', ')}`;
      card.appendChild(dup);
    }
    if (!entry.error) {
      const pick = document.createElement('button');
      pick.className = 'pick' + (this.picked(entry.label) ? ' on' : '');
      pick.textContent = this.picked(entry.label) ? '✓' : '+';
      pick.title = 'Put into the issue';
      pick.onclick = (event) => { event.stopPropagation(); this.onPick(entry); this.render(); };
      card.appendChild(pick);
      card.onclick = () => this.onOpen(entry);
    }
    return card;
  }
}

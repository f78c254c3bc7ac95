// The library: the folder's puzzles, or a catalogue's (studio --db). Cards with thumbnails,
// size, level, stars, verdict (and for a catalogue minutes, tags, last printed); sort,
// filter (a catalogue's level, size, tags and unused filters are asked of the server, as
// `library find` asks them); duplicates flagged; a card opens in the editor, its + puts it
// into the issue.
import {get} from './api.js';
import {drawThumbnail} from './board.js';

const $ = (id) => document.getElementById(id);
const LEVELS = ['easy', 'medium', 'hard', 'fiendish', 'needs-guessing', 'stuck', 'undecided', 'ambiguous', 'contradictory'];

export class Library {
  constructor({onOpen, onPick, picked}) {
    this.entries = [];
    this.onOpen = onOpen; this.onPick = onPick; this.picked = picked;
    this.timer = null;
    this.source = 'folder';
    this.asked = null;  // the catalogue query of the newest request (an older answer is dropped)
    for (const id of ['lib-filter', 'lib-sort']) $(id).addEventListener('input', () => this.render());
    $('lib-level').addEventListener('input', () => (this.source === 'catalogue' ? this.load() : this.render()));
    let typing = null;
    for (const id of ['lib-size', 'lib-tags', 'lib-unused']) {
      $(id).addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(() => this.load(), 250); });
    }
    document.addEventListener('library-changed', () => this.load());
  }

  // the catalogue's filters, as GET /api/puzzles takes them
  query() {
    if (this.source !== 'catalogue') return new URLSearchParams();
    const query = new URLSearchParams();
    if ($('lib-level').value) query.append('level', $('lib-level').value);
    if ($('lib-size').value.trim()) query.append('size', $('lib-size').value.trim());
    for (const tag of $('lib-tags').value.split(',')) if (tag.trim()) query.append('tag', tag.trim());
    if ($('lib-unused').value) query.append('unused_for', $('lib-unused').value);
    return query;
  }

  async load() {
    clearTimeout(this.timer);
    const query = this.query().toString();
    this.asked = query;
    try {
      const data = await get(query ? `/api/puzzles?${query}` : '/api/puzzles');
      if (this.asked !== query) return;
      this.source = data.source;
      $('lib-catalogue').hidden = data.source !== 'catalogue';
      if (data.source === 'catalogue' && !query && (this.query().toString())) { this.load(); return; }
      this.catalogue = data.catalogue || null;
      this.limit = data.limit || null;
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
      printed: (a, b) => (b.last_printed || '').localeCompare(a.last_printed || ''),
    };
    return this.entries
      .filter((e) => !text || e.label.toLowerCase().includes(text) || (e.title || '').toLowerCase().includes(text)
        || (e.tags || []).some((t) => t.toLowerCase().includes(text)))
      .filter((e) => this.source === 'catalogue' || !level || e.level === level)
      .sort(keys[$('lib-sort').value] || keys.name);
  }

  render() {
    const box = $('library');
    box.replaceChildren();
    const shown = this.sorted();
    for (const entry of shown) box.appendChild(this.card(entry));
    const dups = this.entries.filter((e) => e.duplicates.length).length;
    // the catalogue by its file's name (the whole location in the tooltip)
    const where = this.catalogue ? ` in ${this.catalogue.split('/').pop()}` : '';
    $('lib-summary').title = this.catalogue || '';
    const more = this.limit && this.entries.length >= this.limit ? ' (the first; filter to see others)' : '';
    $('lib-summary').textContent = `${shown.length} of ${this.entries.length} puzzles${where}${more}` +
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
    size.textContent = entry.error ? 'unreadable' : `${entry.width}×${entry.height}` + (entry.palette ? ` · ${entry.palette.length} col` : '');
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
    if (entry.id != null) {  // a catalogue's entry: minutes, tags, last printed
      const m = entry.effort_minutes;
      const minutes = m == null ? '' : (m < 1 ? '<1 min' : `${Math.round(m)} min`);
      const tags = document.createElement('div');
      tags.className = 'tags';
      tags.textContent = [minutes, ...entry.tags.map((t) => `#${t}`)].filter(Boolean).join(' · ');
      const printed = document.createElement('div');
      printed.className = 'printed';
      printed.textContent = entry.last_printed ? `last printed ${entry.last_printed}` : 'never printed';
      card.append(tags, printed);
      if (entry.solves) card.appendChild(solvesLine(entry.solves));
    }
    if (entry.duplicates.length) {
      const dup = document.createElement('div');
      dup.className = 'dup';
      // a catalogue's entries are named by title (the id in the tooltip), a folder's by file
      const names = this.source === 'catalogue'
        ? entry.duplicates.map((label) => (this.entry(label) || {}).title || label) : entry.duplicates;
      dup.textContent = `⚠ same design as ${names.join(', ')}`;
      dup.title = entry.duplicates.join(', ');
      card.appendChild(dup);
    }
    if (!entry.error && !entry.editable) {  // its kind's registry entry: not edited here
      card.classList.add('not-editable');
      const note = document.createElement('div');
      note.className = 'not-editable-note';
      note.textContent = 'not edited in the studio';
      card.title = 'The studio\'s editor does not edit puzzles of this kind; it can go into an issue.';
      card.appendChild(note);
    }
    if (!entry.error) {
      const pick = document.createElement('button');
      pick.className = 'pick' + (this.picked(entry.label) ? ' on' : '');
      pick.textContent = this.picked(entry.label) ? '✓' : '+';
      pick.title = 'Put into the issue';
      pick.onclick = (event) => { event.stopPropagation(); this.onPick(entry); this.render(); };
      card.appendChild(pick);
      if (entry.editable) card.onclick = () => this.onOpen(entry);
    }
    return card;
  }
}

// what the web player's solvers did (`library solves`): attempts, completed, their median
// minutes beside the grade's, hints
export function solvesLine(s) {
  const line = document.createElement('div');
  line.className = 'solves';
  const min = (m) => (m < 1 ? '<1' : `${Math.round(m)}`);
  const played = s.median_minutes == null ? ''
    : ` · played ${min(s.median_minutes)} min` + (s.predicted_minutes == null ? '' : ` (graded ${min(s.predicted_minutes)})`);
  line.textContent = `${s.solves} solve${s.solves === 1 ? '' : 's'} · ${Math.round(100 * s.completion)}% done${played} · hints ${Math.round(100 * s.hint_rate)}%`;
  line.title = `clean solves (completed, no reveal): ${s.clean}; median ${s.median_minutes ?? '-'} min against the grade's ${s.predicted_minutes ?? '-'}`
    + (s.rungs_hinted.length ? `; hinted most: ${s.rungs_hinted.map((r) => `${r.rung} ${r.hints}`).join(', ')}` : '');
  return line;
}

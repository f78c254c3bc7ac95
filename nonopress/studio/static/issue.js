// The issue: puzzles picked from the library, ordered by hand or by level, printed to a PDF
// (and LaTeX) with the profile's preflight report and page previews.
import {get, post, ApiError} from './api.js';

const $ = (id) => document.getElementById(id);

export class Issue {
  constructor(toast) {
    this.toast = toast;
    this.items = [];  // labels: "heart.yaml", "set.non#2" or "catalogue:12"
    this.titles = new Map();  // a catalogue puzzle's title, shown beside its label
    $('issue-build').onclick = () => this.build();
    this.profiles = this.loadProfiles();
  }

  // The profile menu is the server's table of print profiles, printers first.
  async loadProfiles() {
    const select = $('issue-profile');
    const {profiles} = await get('/api/profiles');
    select.replaceChildren(...profiles.map(({value, label}) => {
      const option = document.createElement('option');
      option.value = value; option.textContent = label;
      return option;
    }));
  }

  has(label) { return this.items.includes(label); }
  toggle(label, title = null) {
    if (title) this.titles.set(label, title);
    this.items = this.has(label) ? this.items.filter((l) => l !== label) : [...this.items, label];
    this.render();
  }

  move(index, by) {
    const to = index + by;
    if (to < 0 || to >= this.items.length) return;
    [this.items[index], this.items[to]] = [this.items[to], this.items[index]];
    this.render();
  }

  render() {
    $('issue-count').textContent = this.items.length;
    const list = $('issue-list');
    list.replaceChildren();
    this.items.forEach((label, i) => {
      const item = document.createElement('li');
      const number = document.createElement('b');
      number.className = 'number';
      number.textContent = `${i + 1}.`;
      const name = document.createElement('span');
      name.textContent = label.startsWith('catalogue:') && this.titles.get(label)
        ? `${this.titles.get(label)} (${label})` : label;
      const up = document.createElement('button'); up.textContent = '↑'; up.title = 'Earlier'; up.onclick = () => this.move(i, -1);
      const down = document.createElement('button'); down.textContent = '↓'; down.title = 'Later'; down.onclick = () => this.move(i, 1);
      const remove = document.createElement('button'); remove.textContent = '×'; remove.title = 'Remove'; remove.onclick = () => this.toggle(label);
      item.append(number, name, up, down, remove);
      list.appendChild(item);
    });
  }

  async build() {
    if (!this.items.length) { this.toast('Pick puzzles in the Library first.'); return; }
    const body = {name: $('issue-name').value.trim(), title: $('issue-title').value,
                  puzzles: this.items, order: $('issue-order').value,
                  profile: $('issue-profile').value, page: $('issue-page').value,
                  latex: $('issue-latex').checked};
    const button = $('issue-build');
    button.disabled = true; button.textContent = 'Writing…';
    $('issue-result').replaceChildren();
    try {
      let result;
      try {
        result = await post('/api/issue', body);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        if (!window.confirm(`${error.message}\n\nReplace them?`)) return;
        result = await post('/api/issue', {...body, overwrite: true});
      }
      this.show(result);
    } catch (error) {
      this.toast(error.message);
    } finally {
      button.disabled = false; button.textContent = 'Write the PDF';
    }
  }

  show(result) {
    if (result.order) {  // the order the issue was printed in (by level: as graded)
      this.items = result.order;
      this.render();
    }
    const box = $('issue-result');
    const report = document.createElement('div');
    report.className = 'report';
    const head = document.createElement('p');
    const link = document.createElement('a');
    link.href = `/api/file?path=${encodeURIComponent(result.pdf)}`;
    link.textContent = result.pdf; link.target = '_blank';
    head.append('Wrote ', link, ` (${result.pages} pages) and ${result.manifest}` + (result.latex ? ` and ${result.latex}` : '') + '.');
    report.appendChild(head);
    if (result.preflight) {
      const verdict = document.createElement('p');
      verdict.className = result.preflight.passed ? 'passed' : 'failed';
      verdict.textContent = `Preflight ${result.preflight.profile}: ${result.preflight.passed ? 'passes' : 'fails'}`;
      const rules = document.createElement('ul');
      for (const rule of result.preflight.rules) {
        const item = document.createElement('li');
        item.className = rule.status;
        item.textContent = `${rule.status === 'pass' ? '✓' : rule.status === 'warn' ? '!' : '✗'} ${rule.title}` +
          (rule.findings.length ? ` — ${rule.findings[0].message}` : '');
        rules.appendChild(item);
      }
      report.append(verdict, rules);
    }
    for (const warning of result.warnings) {
      const item = document.createElement('p'); item.className = 'muted'; item.textContent = warning; report.appendChild(item);
    }
    box.replaceChildren(report);
    const pages = $('issue-pages');
    pages.replaceChildren();
    result.previews.forEach((src, i) => {
      const img = document.createElement('img'); img.src = src; img.alt = `page ${i + 1}`; pages.appendChild(img);
    });
  }
}

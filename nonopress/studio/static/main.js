// Wires the page: tabs, buttons, keyboard shortcuts.
import {get} from './api.js';
import {Editor} from './editor.js';
import {Issue} from './issue.js';
import {Library} from './library.js';

const $ = (id) => document.getElementById(id);
let toastTimer = null;
function toast(message) {
  const box = $('toast');
  box.textContent = message; box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

const editor = new Editor(toast);
const issue = new Issue(toast);
const library = new Library({
  onOpen: async (entry) => {
    try {
      editor.open(await get('/api/puzzle', {path: entry.path, index: entry.index}));
      showTab('editor');
    } catch (error) { toast(error.message); }
  },
  onPick: (entry) => issue.toggle(entry.label, entry.title),
  picked: (label) => issue.has(label),
});

function showTab(name) {
  document.querySelectorAll('.tabs button').forEach((b) => b.classList.toggle('active', b.dataset.tab === name));
  document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('active', t.id === `tab-${name}`));
  if (name === 'library') library.load();
  if (name === 'editor') editor.draw();
}
document.querySelectorAll('.tabs button').forEach((b) => { b.onclick = () => showTab(b.dataset.tab); });

function setTool(tool) {
  editor.tool = tool;
  $('tool-paint').classList.toggle('active', tool === 'paint');
  $('tool-erase').classList.toggle('active', tool === 'erase');
}
$('tool-paint').onclick = () => setTool('paint');
$('tool-erase').onclick = () => setTool('erase');
$('undo').onclick = () => editor.undo();
$('redo').onclick = () => editor.redo();
$('mirror').onclick = () => editor.transform('mirrored');
$('flip').onclick = () => editor.transform('flipped');
$('rotate').onclick = () => editor.transform('rotated');
$('clear').onclick = () => editor.clear();
$('resize').onclick = () => {
  const w = Math.max(2, Math.min(120, +$('width').value || 10));
  const h = Math.max(2, Math.min(120, +$('height').value || 10));
  editor.resize(w, h);
};
// the clue pad of a kind whose clues sit in cells: the digit of the cell picked
document.querySelectorAll('#clue-pad button').forEach((b) => {
  b.onclick = () => editor.setClue(b.dataset.digit === '' ? null : +b.dataset.digit);
});
$('title').addEventListener('change', () => editor.changed());
$('picture').addEventListener('change', (event) => { editor.importPicture(event.target.files[0]); event.target.value = ''; });
$('save').onclick = () => editor.save();
$('open-file').addEventListener('change', (event) => { editor.openUpload(event.target.files[0]); event.target.value = ''; });
$('make-unique').onclick = () => editor.propose('unique');
$('use-givens').onclick = () => editor.propose('givens');
$('easier').onclick = () => editor.propose('easier');
$('harder').onclick = () => editor.propose('harder');
$('accept').onclick = () => editor.accept();
$('reject').onclick = () => editor.reject();
$('heat').onchange = () => editor.showHeat();
$('replay').onclick = () => editor.replay();
$('replay-close').onclick = () => $('replay-dialog').close();
$('play').onclick = () => editor.play();
$('play-close').onclick = () => $('play-dialog').close();

document.addEventListener('keydown', (event) => {
  if (event.altKey && ['1', '2', '3'].includes(event.key)) {
    showTab(['editor', 'library', 'issue'][+event.key - 1]); event.preventDefault(); return;
  }
  const typing = ['INPUT', 'SELECT', 'TEXTAREA'].includes(document.activeElement.tagName);
  const ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && event.key.toLowerCase() === 's') { event.preventDefault(); editor.save(); return; }
  if (typing || $('replay-dialog').open || $('play-dialog').open || !$('tab-editor').classList.contains('active')) return;
  const key = event.key.toLowerCase();
  if (ctrl && key === 'z') { event.preventDefault(); event.shiftKey ? editor.redo() : editor.undo(); return; }
  if (ctrl && key === 'y') { event.preventDefault(); editor.redo(); return; }
  if (ctrl || event.altKey) return;
  if (editor.cellClues) {  // clues in cells: digits set the picked cell's clue, arrows move
    const moves = {arrowup: [-1, 0], arrowdown: [1, 0], arrowleft: [0, -1], arrowright: [0, 1]};
    if (/^[0-9]$/.test(key)) { event.preventDefault(); editor.setClue(+key); return; }
    if (['.', 'backspace', 'delete'].includes(key)) { event.preventDefault(); editor.setClue(null); return; }
    if (moves[key]) { event.preventDefault(); editor.moveCursor(...moves[key]); return; }
  }
  const actions = {
    p: () => setTool('paint'), e: () => setTool('erase'),
    m: () => editor.transform('mirrored'), f: () => editor.transform('flipped'),
    r: () => editor.transform('rotated'), u: () => editor.propose('unique'),
    g: () => editor.propose('givens'), '[': () => editor.propose('easier'),
    ']': () => editor.propose('harder'), h: () => { $('heat').checked = !$('heat').checked; editor.showHeat(); },
    x: () => editor.replay(), enter: () => editor.accept(), escape: () => editor.reject(),
  };
  if (/^[1-9]$/.test(key) && editor.picture.palette) { editor.colour = Math.min(+key, editor.picture.palette.length); editor.renderPalette(); return; }
  if (actions[key]) { event.preventDefault(); actions[key](); }
});

library.load();

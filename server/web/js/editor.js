import { $, el } from './page.js';

// The editor: a textarea with a line-number gutter, marks from lint and a
// highlighted line.

const LH = 20; // line height, px (style.css: --lh)
const PAD = 6; // the textarea's top padding, px
export const ed = {
  ta: $('robots'), gutter: $('gutter-inner'), hl: $('hl-line'), root: $('editor'),
  lines: 1, marks: new Map(), hlLine: 0, frame: 0,
};

export function countLines(s) {
  let n = 1;
  let i = -1;
  while ((i = s.indexOf('\n', i + 1)) !== -1) n++;
  return n;
}

export function renderGutter() {
  ed.frame = 0;
  const top = ed.ta.scrollTop;
  const h = ed.ta.clientHeight || 400;
  const first = Math.max(0, Math.floor((top - PAD) / LH));
  const last = Math.min(ed.lines, Math.ceil((top + h) / LH) + 1);
  const frag = document.createDocumentFragment();
  for (let i = first; i < last; i++) {
    const n = i + 1;
    const d = el('div', { class: 'ln' }, String(n));
    const m = ed.marks.get(n);
    if (m) {
      d.classList.add('mark-' + m.severity);
      d.dataset.mark = m.severity === 'error' ? '✖' : m.severity === 'warning' ? '▲' : 'ℹ';
    }
    if (n === ed.hlLine) d.classList.add('ln-hl');
    frag.append(d);
  }
  ed.gutter.replaceChildren(frag);
  ed.gutter.style.transform = `translateY(${PAD + first * LH - top}px)`;
  if (ed.hlLine > 0 && ed.hlLine <= ed.lines) {
    ed.hl.hidden = false;
    ed.hl.style.transform = `translateY(${PAD + (ed.hlLine - 1) * LH - top}px)`;
  } else {
    ed.hl.hidden = true;
  }
}

export function scheduleGutter() {
  if (!ed.frame) ed.frame = requestAnimationFrame(renderGutter);
}


// lineText is line n of the editor (1-based).
export function lineText(n) {
  const s = ed.ta.value;
  let start = 0;
  for (let i = 1; i < n; i++) {
    const j = s.indexOf('\n', start);
    if (j < 0) return '';
    start = j + 1;
  }
  const end = s.indexOf('\n', start);
  return s.slice(start, end < 0 ? s.length : end).replace(/\r$/, '');
}

export function highlight(n, kind) {
  ed.hlLine = n || 0;
  ed.root.dataset.highlight = String(ed.hlLine);
  ed.hl.className = 'hl-line' + (kind ? ' hl-' + kind : '');
  if (ed.hlLine) {
    const y = PAD + (n - 1) * LH;
    const ta = ed.ta;
    if (y < ta.scrollTop || y + LH > ta.scrollTop + ta.clientHeight) {
      ta.scrollTop = Math.max(0, y - ta.clientHeight / 3);
    }
    $('editor-status').textContent = `Line ${n} highlighted: ${lineText(n)}`;
  }
  renderGutter();
}

export function caretLine() {
  const s = ed.ta.value;
  const p = ed.ta.selectionStart;
  let n = 1;
  let i = -1;
  while ((i = s.indexOf('\n', i + 1)) !== -1 && i < p) n++;
  return n;
}

export function showCaretLine() {
  const n = caretLine();
  const m = ed.marks.get(n);
  const st = $('editor-status');
  if (m) {
    st.replaceChildren(`Line ${n}: `, ...m.findings.map((f) => el('span', { class: 'sev-' + f.severity }, `${f.severity} ${f.code}: ${f.message} `)));
  } else {
    st.textContent = `Line ${n} of ${ed.lines}`;
  }
}

ed.ta.addEventListener('scroll', scheduleGutter);
window.addEventListener('resize', scheduleGutter);
ed.ta.addEventListener('keyup', showCaretLine);
ed.ta.addEventListener('click', showCaretLine);

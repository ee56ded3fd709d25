// Dialects: the file read by each dialect, side by side.
import { $, api, el } from './page.js';
import { S } from './state.js';
import { highlight } from './editor.js';
import { askBody, shortVerdict, verdictLabel } from './results.js';

export async function runCompare() {
  const q = S.lastQuestion;
  if (!q) return;
  S.dialectsDirty = false;
  const my = S.seq;
  const out = $('dialects-out');
  out.replaceChildren(el('p', { class: 'hint' }, 'Reading the file in every dialect …'));
  let c;
  try {
    c = await api('POST', '/v1/compare', Object.assign(askBody(q), $('dialects-original').checked ? { original: true } : {}));
  } catch (e) {
    out.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
    S.dialectsDirty = true;
    return;
  }
  if (my !== S.seq) return;
  renderCompare(c);
}

// renderCompare shows a comparison: a column per dialect the server
// compared (c.dialects: the dialects crawlers read by, and original
// when asked for), as the server names them.
function renderCompare(c) {
  const dialects = c.dialects || [];
  const head = el('tr', null, el('th', { scope: 'col' }, 'Crawler'), el('th', { scope: 'col' }, 'URL'),
    el('th', { scope: 'col' }, 'Its own engine'), dialects.map((d) => el('th', { scope: 'col' }, d)), el('th', { scope: 'col' }, 'Note'));
  const rows = [];
  let disagree = 0;
  for (const row of c.rows || []) {
    for (const cell of row.cells || []) {
      const tr = el('tr', { class: cell.disagree ? 'disagree' : null },
        el('th', { scope: 'row' }, row.crawler, el('span', { class: 'sub' }, row.dialect)),
        el('td', { class: 'url' }, cell.url),
        el('td', null, el('button', { type: 'button', class: 'cell ' + (cell.allowed ? 'allowed' : 'blocked'), onclick: () => highlight(cell.line, cell.allowed ? 'allow' : 'block'), title: cell.rule || cell.group, 'aria-label': `its own engine: ${verdictLabel(cell.allowed, cell.line)}` }, shortVerdict(cell.allowed, cell.line))));
      for (const d of dialects) {
        const v = (cell.dialects || {})[d];
        if (!v) { tr.append(el('td', null, '—')); continue; }
        const odd = cell.disagree && v.allowed !== cell.allowed;
        tr.append(el('td', { class: odd ? 'odd' : null }, el('button', {
          type: 'button', class: 'cell ' + (v.allowed ? 'allowed' : 'blocked'), title: v.policy ? 'fetch policy ' + v.policy : (v.rule || 'no rule matches'),
          onclick: () => highlight(v.line, v.allowed ? 'allow' : 'block'), 'aria-label': `${d}: ${verdictLabel(v.allowed, v.line)}`,
        }, shortVerdict(v.allowed, v.line))));
      }
      if (cell.disagree) disagree++;
      tr.append(el('td', null, cell.note ? el('a', { href: '#note-' + cell.note, class: 'note-ref', 'aria-label': 'note ' + cell.note }, `[${cell.note}]`) : ''));
      rows.push(tr);
    }
  }
  const parts = [
    el('p', { class: disagree ? 'summary warn' : 'summary' }, disagree ? `${disagree} of ${rows.length} answers differ between dialects.` : `All dialects agree on these ${rows.length} answers.`),
    el('div', { class: 'table-wrap' }, el('table', { class: 'data dialects', id: 'dialects-table' }, el('thead', null, head), el('tbody', null, rows))),
  ];
  if ((c.disagreements || []).length) {
    parts.push(el('h3', null, 'Why they disagree'), el('ol', { class: 'explanations' }, c.disagreements.map((d) => el('li', { id: 'note-' + d.note, value: d.note, tabindex: -1 },
      d.explanation, ' ', el('span', { class: 'sub' }, '(' + (d.cells || []).map((x) => `${x.crawler} ${x.url}`).join('; ') + ')')))));
  }
  if ((c.notes || []).length) parts.push(el('ul', { class: 'notes' }, c.notes.map((s) => el('li', null, s))));
  $('dialects-out').replaceChildren(...parts);
}

$('dialects-original').addEventListener('change', () => { if (S.lastQuestion) runCompare(); });

$('dialects-out').addEventListener('click', (ev) => {
  const a = ev.target.closest('a.note-ref');
  if (!a) return;
  ev.preventDefault(); // keep the permalink in the address
  const li = $(a.getAttribute('href').slice(1));
  if (li) { li.scrollIntoView({ block: 'nearest' }); li.focus(); }
});

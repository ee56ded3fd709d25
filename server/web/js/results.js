// Check: the results table (a cell a URL and a crawler) and the detail
// of the selected cell.
import { $, api, el, setStatus } from './page.js';
import { S } from './state.js';
import { highlight } from './editor.js';
import { kv, subject } from './source.js';
import { agentList, selectedCrawlers, urlList } from './questions.js';
import { runCompare } from './dialects.js';
import { runLint } from './lint.js';
import { markAIDirty } from './ai.js';
import { schedulePermalink } from './permalink.js';

export function question() {
  const urls = urlList();
  if (!urls.length) { setStatus('Give at least one URL (a path such as /private/ is enough).', true); $('urls').focus(); return null; }
  return { sub: subject(), urls, crawlers: selectedCrawlers(), agents: agentList() };
}

export function askBody(q) {
  const b = Object.assign({}, q.sub, { urls: q.urls });
  if (q.crawlers.length) b.crawlers = q.crawlers;
  if (q.agents.length) b.agents = q.agents;
  return b;
}

export async function run(restoreSel) {
  const q = question();
  if (!q) return;
  const my = ++S.seq;
  S.lastQuestion = q;
  S.dialectsDirty = true;
  S.lintDirty = true;
  markAIDirty();
  setStatus('Testing …');
  const t0 = performance.now();
  let rep;
  try {
    rep = await api('POST', '/v1/check', askBody(q));
  } catch (e) {
    if (my === S.seq) setStatus(e.message, true);
    return;
  }
  if (my !== S.seq) return;
  renderResults(rep, q);
  const ms = Math.round(performance.now() - t0);
  document.body.dataset.checkMs = String(ms);
  setStatus(`${rep.results.length} answers: ${rep.allowed} allowed, ${rep.blocked} blocked (${ms} ms).`);
  if (restoreSel) selectCell(restoreSel[0], restoreSel[1], false);
  runLint();
  if (S.view === 'dialects') runCompare();
  schedulePermalink();
}

$('run').addEventListener('click', () => run());
document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); }
});

export function verdictText(allowed, line) {
  return (allowed ? '✓ allowed' : '✗ blocked') + (line ? ` · line ${line}` : '');
}

// shortVerdict is the text of a cell of the wide dialect table.
export function shortVerdict(allowed, line) {
  return line ? `${allowed ? '✓' : '✗'} line ${line}` : (allowed ? '✓ allowed' : '✗ blocked');
}

export function verdictLabel(allowed, line) {
  return (allowed ? 'allowed' : 'blocked') + (line ? ' by line ' + line : '');
}

function renderResults(rep, q) {
  S.report = rep;
  S.selected = null;
  const res = rep.results || [];
  const n = q.urls.length;
  const k = n ? Math.floor(res.length / n) : 0;
  S.report.cols = k;
  const head = el('tr', null, el('th', { scope: 'col' }, 'URL'));
  for (let j = 0; j < k; j++) {
    const r = res[j];
    head.append(el('th', { scope: 'col', title: r.agents ? 'product token(s) ' + r.agents.join(', ') : 'crawler from the table' }, r.who, el('span', { class: 'sub' }, r.dialect)));
  }
  const rows = [];
  for (let i = 0; i < n; i++) {
    const first = res[i * k] || {};
    const tr = el('tr', null, el('th', { scope: 'row', class: 'url', title: first.url && first.url !== q.urls[i] ? 'read as ' + first.url : null }, q.urls[i]));
    for (let j = 0; j < k; j++) {
      const r = res[i * k + j];
      tr.append(el('td', null, el('button', {
        type: 'button', class: 'cell ' + (r.allowed ? 'allowed' : 'blocked'), tabindex: i === 0 && j === 0 ? 0 : -1,
        'data-row': i, 'data-col': j, 'aria-pressed': 'false',
        'aria-label': `${r.who}, ${q.urls[i]}: ${r.allowed ? 'allowed' : 'blocked'}${r.line ? ' by line ' + r.line : ''}`,
      }, verdictText(r.allowed, r.line))));
    }
    rows.push(tr);
  }
  const t = el('table', { class: 'data results', id: 'results-table' }, el('thead', null, head), el('tbody', null, rows));
  const notes = (rep.notes || []).map((s) => el('li', null, s));
  const parts = [t];
  if (notes.length) parts.push(el('ul', { class: 'notes' }, notes));
  if (rep.size_notes) parts.push(el('ul', { class: 'notes' }, rep.size_notes.map((s) => el('li', null, s))));
  $('results-out').replaceChildren(...parts);
  $('export-row').hidden = res.length === 0;
  $('detail').replaceChildren();
  highlight(0);
}

function cellButton(i, j) {
  return $('results-out').querySelector(`button[data-row="${i}"][data-col="${j}"]`);
}

function selectCell(i, j, focus) {
  if (!S.report) return;
  const k = S.report.cols;
  const r = S.report.results[i * k + j];
  if (!r) return;
  const prev = S.selected && cellButton(S.selected[0], S.selected[1]);
  if (prev) { prev.setAttribute('aria-pressed', 'false'); prev.tabIndex = -1; }
  const first = cellButton(0, 0);
  if (first) first.tabIndex = -1;
  S.selected = [i, j];
  const b = cellButton(i, j);
  if (b) { b.setAttribute('aria-pressed', 'true'); b.tabIndex = 0; if (focus) b.focus(); }
  highlight(r.line, r.allowed ? 'allow' : 'block');
  renderDetail(r, S.lastQuestion ? S.lastQuestion.urls[i] : r.url);
  schedulePermalink();
}

$('results-out').addEventListener('click', (ev) => {
  const b = ev.target.closest('button.cell');
  if (b) selectCell(+b.dataset.row, +b.dataset.col, true);
});
$('results-out').addEventListener('keydown', (ev) => {
  const b = ev.target.closest('button.cell');
  if (!b || !S.report) return;
  let i = +b.dataset.row;
  let j = +b.dataset.col;
  const rows = S.lastQuestion.urls.length;
  const cols = S.report.cols;
  switch (ev.key) {
    case 'ArrowRight': j = Math.min(cols - 1, j + 1); break;
    case 'ArrowLeft': j = Math.max(0, j - 1); break;
    case 'ArrowDown': i = Math.min(rows - 1, i + 1); break;
    case 'ArrowUp': i = Math.max(0, i - 1); break;
    case 'Home': j = 0; break;
    case 'End': j = cols - 1; break;
    default: return;
  }
  ev.preventDefault();
  selectCell(i, j, true);
});

export function lineButton(n, kind, label) {
  if (!n) return el('span', null, label || 'none');
  return el('button', { type: 'button', class: 'linkish', onclick: () => highlight(n, kind) }, label || `line ${n}`);
}

function renderDetail(r, asked) {
  const kind = r.allowed ? 'allow' : 'block';
  const matches = r.matches || [];
  const group = r.group || {};
  $('detail').replaceChildren(...[
    el('h3', null, `${r.who} · ${asked}`),
    el('p', { class: 'verdict ' + (r.allowed ? 'allowed' : 'blocked') }, r.allowed ? 'Allowed' : 'Blocked', ': ', r.reason || ''),
    kv([
      ['URL read as', r.url !== asked ? r.url : ''],
      ['Path matched', r.path],
      ['Dialect', r.dialect + (r.fetch_policy && r.fetch_policy !== r.dialect ? ` (fetch policy: ${r.fetch_policy})` : '')],
      ['Fetch policy', r.policy],
      ['Deciding line', r.line ? el('span', null, lineButton(r.line, kind), ' ', el('code', null, r.rule || '')) : 'none: no rule matches'],
      ['Group', el('span', null, `${group.kind || 'none'}${group.token ? ' (' + group.token + ')' : ''}: ${group.reason || ''}`,
        (group.lines || []).length ? ' · show ' : '',
        ...(group.lines || []).map((n, i) => el('span', null, i ? ', ' : '', lineButton(n, 'group')))) ],
      ['Crawl-delay', r.crawl_delay != null ? el('span', null, `${r.crawl_delay} s, `, lineButton(r.crawl_delay_line, 'group')) : ''],
    ]),
    el('h4', null, matches.length ? 'Rules that matched' : 'No rule matched'),
    matches.length ? el('ol', { class: 'matches' }, matches.map((m) => el('li', { class: m.lost ? 'lost' : 'won' },
      lineButton(m.line, m.allow ? 'allow' : 'block', m.line ? `line ${m.line}` : 'implicit'), ' ',
      el('code', null, m.text || (m.allow ? 'Allow: ' : 'Disallow: ') + m.pattern), ' ',
      el('span', { class: 'why' }, m.lost ? 'lost: ' + m.lost : 'decided')))) : null,
  ].filter(Boolean));
}

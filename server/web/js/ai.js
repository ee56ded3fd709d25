// AI: who may use the content (the report of POST /v1/ai), and the
// policy writer (POST /v1/policy).
import { $, api, cap, el, setStatus } from './page.js';
import { S } from './state.js';
import { ed, highlight } from './editor.js';
import { kv, renderUndo, setEditor, setMode, subject } from './source.js';
import { urlList } from './questions.js';
import { lineButton, verdictText } from './results.js';
import { schedulePermalink } from './permalink.js';

// The purposes, in the order the report and the form show them, with a
// short name (the report gives each section's longer title).
const PURPOSES = [
  ['search', 'Search'], ['ai-training', 'AI training'], ['ai-search', 'AI search'], ['user-fetch', 'User fetches'],
  ['agent', 'Agents'], ['token-only', 'Tokens'], ['preview', 'Link previews'], ['ads', 'Ads'],
  ['archive', 'Archives'], ['seo-tool', 'SEO tools'], ['other', 'Other'], ['unknown', 'Not in the catalogue'],
];
const PURPOSE_NAME = Object.fromEntries(PURPOSES);
// What each purpose's crawlers do, for the form (the report's titles).
const PURPOSE_TITLE = {
  search: 'search engines’ indexes', 'ai-training': 'training AI models', 'ai-search': 'AI answers and AI search (retrieval)',
  'user-fetch': 'fetches a person asked an assistant for', agent: 'agents that browse and act for a person',
  'token-only': 'tokens that fetch nothing: they say whether what other crawlers fetch may be used for AI',
  preview: 'link previews', ads: 'advertising', archive: 'web archives', 'seo-tool': 'SEO tools', other: 'other uses',
};

let aiSeq = 0;
let aiTimer = 0;
let aiReport = null;
// The stances of the policy form: purpose or crawler name -> 'allow' | 'deny'.
export const stances = { purposes: Object.create(null), crawlers: Object.create(null) };

export function markAIDirty() {
  S.aiDirty = true;
  if (S.view !== 'ai') return;
  clearTimeout(aiTimer);
  aiTimer = setTimeout(runAI, 500);
}

function aiBody() {
  const b = Object.assign({}, subject());
  const urls = urlList();
  if (urls.length) b.urls = urls;
  if ($('ai-all').checked) b.all = true;
  return b;
}

export async function runAI() {
  clearTimeout(aiTimer);
  S.aiDirty = false;
  const my = ++aiSeq;
  const out = $('ai-out');
  out.setAttribute('aria-busy', 'true');
  if (!aiReport) out.replaceChildren(el('p', { class: 'hint' }, 'Asking who may fetch the site …'));
  let rep;
  try {
    rep = await api('POST', '/v1/ai', aiBody());
  } catch (e) {
    if (my !== aiSeq) return;
    out.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
    out.setAttribute('aria-busy', 'false');
    S.aiDirty = true;
    return;
  }
  if (my !== aiSeq) return;
  aiReport = rep;
  renderAI(rep);
  renderCrawlerStances(rep);
  out.setAttribute('aria-busy', 'false');
}

// usageText says the preferences a Content-Usage answer states: the
// categories it names y or n ("train-ai=n, search=y"); "" when none.
function usageText(u) {
  const parts = [];
  for (const k of ['train-ai', 'search']) if (u[k] === 'y' || u[k] === 'n') parts.push(`${k}=${u[k]}`);
  for (const [k, v] of Object.entries(u.other || {})) if (v === 'y' || v === 'n') parts.push(`${k}=${v}`);
  return parts.join(', ');
}

function lineButtons(lines, kind) {
  return (lines || []).map((n) => el('span', null, ' ', lineButton(n, kind)));
}

function fetchCell(a) {
  const kind = a.allowed ? 'allow' : 'block';
  return el('span', { class: 'verdict ' + (a.allowed ? 'allowed' : 'blocked') },
    a.allowed ? '✓ may fetch' : '✗ may not fetch',
    a.line ? el('span', null, ' · ', lineButton(a.line, kind), ' ', el('code', null, a.rule)) : el('span', { class: 'sub' }, a.policy ? `fetch policy: ${a.policy}` : 'no rule matches'));
}

function usageCell(a) {
  if (!a.usage) return el('span', { class: 'sub' }, a.allowed ? 'none: no rules apply' : 'none: it may not fetch');
  const u = a.usage;
  const text = usageText(u);
  const cls = u['train-ai'] === 'n' ? 'pref-no' : u['train-ai'] === 'y' ? 'pref-yes' : 'pref-unknown';
  return el('span', null, text ? el('code', { class: cls }, text) : el('span', { class: 'sub-inline' }, (u.lines || []).length ? 'states nothing known' : 'none stated'),
    lineButtons(u.lines, 'group'));
}

function signalCell(s) {
  if (!s) return el('span', { class: 'sub' }, 'none');
  return el('span', null, el('code', null, s.text), ' ', lineButton(s.line, 'group'));
}

function crawlerCell(c) {
  const who = el('th', { scope: 'row', class: 'who' }, c.name);
  const facts = [];
  if (c.name === '*') facts.push('any crawler no group names');
  else if (!c.known) facts.push(`not in the catalogue${c.line ? ', named on line ' + c.line : ''}`);
  else if (c.operator) facts.push(c.operator);
  if (c.name !== '*' && c.known) {
    const obeys = { yes: 'obeys robots.txt', no: 'ignores robots.txt', partly: 'obeys robots.txt in part', unknown: 'obeys robots.txt: not said' }[c.obeys_robots] || '';
    if (obeys) facts.push(obeys);
  }
  who.append(el('span', { class: 'sub', title: c.robots_note || null }, facts.join(' · ')));
  const g = c.group || {};
  const gl = (g.lines || [])[0];
  const group = g.kind === 'specific' ? 'its own group' : g.kind === 'global' ? 'the * group' : 'no group';
  who.append(el('span', { class: 'sub' }, group, gl ? el('span', null, ', ', lineButton(gl, 'group')) : null));
  return who;
}

// aiRows are the table rows of crawlers: one per URL, the crawler and
// its signals spanning them.
function aiRows(crawlers, urls) {
  const rows = [];
  for (const c of crawlers) {
    const answers = c.answers || [];
    answers.forEach((a, i) => {
      const tr = el('tr', { 'data-crawler': c.name, class: i === 0 ? 'first' : null });
      if (i === 0) tr.append(Object.assign(crawlerCell(c), { rowSpan: answers.length }));
      if (urls.length > 1) tr.append(el('td', { class: 'url', 'data-label': 'URL' }, a.url));
      tr.append(el('td', { class: 'fetch', 'data-label': 'May fetch' }, fetchCell(a)));
      tr.append(el('td', { class: 'usage', 'data-label': 'Content-Usage' }, usageCell(a)));
      if (i === 0) tr.append(el('td', { class: 'signal', 'data-label': 'Content-Signal', rowSpan: answers.length }, signalCell(c.signals)));
      rows.push(tr);
    });
  }
  return rows;
}

function aiTable(crawlers, urls, caption) {
  const head = el('tr', null, el('th', { scope: 'col' }, 'Crawler'), urls.length > 1 ? el('th', { scope: 'col' }, 'URL') : null,
    el('th', { scope: 'col' }, 'May fetch' + (urls.length === 1 ? ' ' + urls[0] : '')), el('th', { scope: 'col' }, 'Content-Usage'), el('th', { scope: 'col' }, 'Content-Signal'));
  // The same columns in every section's table (style.css: col.c-*).
  const cols = ['who', urls.length > 1 ? 'url' : null, 'fetch', 'usage', 'signal'].filter(Boolean);
  return el('div', { class: 'table-wrap' }, el('table', { class: 'data ai' + (urls.length > 1 ? ' multi' : '') },
    caption ? el('caption', { class: 'visually-hidden' }, caption) : null,
    el('colgroup', null, cols.map((c) => el('col', { class: 'c-' + c }))),
    el('thead', null, head), el('tbody', null, aiRows(crawlers, urls))));
}

function renderAI(rep) {
  const findings = rep.findings || [];
  const urls = rep.urls || [];
  $('tab-ai').textContent = findings.length ? `AI (${findings.length})` : 'AI';
  const byName = new Map((rep.crawlers || []).map((c) => [c.name, c]));
  const parts = [];
  const counts = [];
  if (rep.errors) counts.push(`${rep.errors} ${rep.errors === 1 ? 'contradiction' : 'contradictions'}`);
  if (rep.warnings) counts.push(`${rep.warnings} ${rep.warnings === 1 ? 'warning' : 'warnings'}`);
  if (rep.infos) counts.push(`${rep.infos} ${rep.infos === 1 ? 'note' : 'notes'}`);
  const states = rep.usage_lines || rep.signal_lines
    ? `The file has ${rep.usage_lines} Content-Usage and ${rep.signal_lines} Content-Signal ${rep.usage_lines + rep.signal_lines === 1 ? 'line' : 'lines'}.`
    : 'The file states no AI usage preference (no Content-Usage or Content-Signal line): only whether each crawler may fetch.';
  // The answer first: a line a purpose, as the server computed it
  // (tester.AISummary; robotstxt ai prints the same lines).
  const short = rep.summary || [];
  if (short.length) {
    parts.push(el('ul', { class: 'ai-answer', id: 'ai-summary', 'aria-label': 'In short' }, short.map((l) => el('li', {
      'data-purpose': l.purpose, class: l.blocked && l.blocked === l.crawlers ? 'all-blocked' : l.blocked || l.partly ? 'some-blocked' : '',
    }, el('strong', null, l.title), ': ', l.text.startsWith(l.title + ': ') ? l.text.slice(l.title.length + 2) : l.text))));
  }
  parts.push(el('p', { class: 'summary' + (rep.errors ? ' warn' : '') }, `${(rep.crawlers || []).length} crawlers asked about ${urls.join(', ')}. `, states, ' ',
    counts.length ? counts.join(', ') + '.' : 'No contradiction found.'));
  if (findings.length) {
    // Each finding's message is open on a wide screen; on a phone its
    // first line says what and whom, and a tap opens it.
    const open = !window.matchMedia('(max-width: 640px)').matches;
    parts.push(el('h4', null, 'What contradicts itself'), el('ul', { class: 'findings ai-findings', id: 'ai-findings' }, findings.map((f) => el('li', { class: 'sev-' + f.severity, 'data-code': f.code },
      el('details', { open },
        el('summary', null, el('span', { class: 'badge' }, f.severity), ' ', el('code', null, f.code),
          (f.crawlers || []).length ? el('span', { class: 'who-list' }, ' ', f.crawlers.slice(0, 6).join(', ') + (f.crawlers.length > 6 ? ', …' : '')) : null),
        el('p', null, f.message, ' ',
          el('span', { class: 'lines' }, (f.lines || []).map((l) => el('span', null, ' ', el('button', {
            type: 'button', class: 'linkish', title: l.text, onclick: () => highlight(l.line, f.severity === 'error' ? 'block' : 'group'),
          }, `line ${l.line}`))))))))));
  }
  for (const n of rep.notes || []) parts.push(el('p', { class: 'notes' }, n));
  if (rep.others) {
    parts.push(el('section', { class: 'ai-section', 'data-purpose': 'others' }, el('h4', null, 'Every other crawler ', el('span', { class: 'sub-inline' }, 'the * group: what a crawler no group names reads')),
      aiTable([rep.others], urls, 'Every other crawler')));
  }
  for (const sec of rep.sections || []) {
    const crawlers = (sec.crawlers || []).map((n) => byName.get(n)).filter(Boolean);
    parts.push(el('section', { class: 'ai-section', 'data-purpose': sec.purpose },
      el('h4', null, PURPOSE_NAME[sec.purpose] || sec.purpose, ' ', el('span', { class: 'sub-inline' }, sec.title)),
      aiTable(crawlers, urls, PURPOSE_NAME[sec.purpose] || sec.purpose)));
  }
  if (rep.size_notes) parts.push(el('ul', { class: 'notes' }, rep.size_notes.map((s) => el('li', null, s))));
  $('ai-out').replaceChildren(...parts);
}

$('ai-run').addEventListener('click', runAI);
$('ai-all').addEventListener('change', () => { runAI(); schedulePermalink(); });

// stanceGroup is a row of the policy form: a name and three radios.
function stanceGroup(kind, key, label, sub) {
  const name = `st-${kind}-${key}`;
  const cur = stances[kind][key] || 'leave';
  const radios = ['allow', 'deny', 'leave'].map((v) => el('label', { class: 'pill pill-' + v },
    el('input', { type: 'radio', name, value: v, checked: v === cur, 'data-kind': kind, 'data-key': key }), ' ', cap(v)));
  return el('div', { class: 'stance', role: 'radiogroup', 'aria-label': `${label}: allow, deny or leave as the file says` },
    el('span', { class: 'stance-name' }, label, sub ? el('span', { class: 'sub' }, sub) : null), el('span', { class: 'pills' }, radios));
}

export function renderPurposeStances() {
  $('policy-purpose-list').replaceChildren(...PURPOSES.filter(([p]) => p !== 'unknown').map(([p, label]) => stanceGroup('purposes', p, label, PURPOSE_TITLE[p])));
}

function renderCrawlerStances(rep) {
  const box = $('policy-crawler-list');
  const parts = [];
  const shown = new Set();
  const byName = new Map((rep.crawlers || []).map((c) => [c.name, c]));
  for (const sec of rep.sections || []) {
    const names = sec.crawlers || [];
    if (!names.length) continue;
    parts.push(el('p', { class: 'stance-head' }, PURPOSE_NAME[sec.purpose] || sec.purpose));
    for (const n of names) {
      const c = byName.get(n) || {};
      const key = c.known === false ? c.token || n : n;
      shown.add(key);
      parts.push(stanceGroup('crawlers', key, n, c.operator || (c.known === false ? 'not in the catalogue' : '')));
    }
  }
  // Stances taken on crawlers the report no longer lists still count:
  // they are shown, to be left.
  const rest = Object.keys(stances.crawlers).filter((k) => !shown.has(k));
  if (rest.length) {
    parts.push(el('p', { class: 'stance-head' }, 'Chosen before, not in this report'));
    for (const k of rest) parts.push(stanceGroup('crawlers', k, k, ''));
  }
  if (parts.length) box.replaceChildren(...parts);
}

$('policy-form').addEventListener('change', (ev) => {
  const i = ev.target;
  if (i.type !== 'radio' || !i.dataset.kind) return;
  if (i.value === 'leave') delete stances[i.dataset.kind][i.dataset.key];
  else stances[i.dataset.kind][i.dataset.key] = i.value;
  schedulePermalink();
});

$('policy-clear').addEventListener('click', () => {
  stances.purposes = Object.create(null);
  stances.crawlers = Object.create(null);
  for (const i of $('policy-form').querySelectorAll('input[type=radio][value=leave]')) i.checked = true;
  $('policy-deny-more').value = '';
  $('policy-allow-more').value = '';
  $('policy-out').replaceChildren();
  schedulePermalink();
});

function nameList(s) {
  return s.split(',').map((x) => x.trim()).filter(Boolean);
}

function policyBody() {
  const b = Object.assign({}, subject());
  const pick = (m, v) => Object.keys(m).filter((k) => m[k] === v);
  b.deny = pick(stances.purposes, 'deny');
  b.allow = pick(stances.purposes, 'allow');
  b.deny_crawlers = pick(stances.crawlers, 'deny').concat(nameList($('policy-deny-more').value));
  b.allow_crawlers = pick(stances.crawlers, 'allow').concat(nameList($('policy-allow-more').value));
  return b;
}

let policyReport = null;
let policyFrom = null; // the editor's text the policy was written from

$('policy-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const out = $('policy-out');
  const b = policyBody();
  if (!b.deny.length && !b.allow.length && !b.deny_crawlers.length && !b.allow_crawlers.length) {
    out.replaceChildren(el('p', { class: 'error', role: 'alert' }, 'Choose allow or deny for a purpose or a crawler first.'));
    return;
  }
  out.replaceChildren(el('p', { class: 'hint' }, 'Writing the policy …'));
  $('policy-run').disabled = true;
  const from = ed.ta.value;
  let rep;
  try {
    rep = await api('POST', '/v1/policy', b);
  } catch (e) {
    out.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
    return;
  } finally {
    $('policy-run').disabled = false;
  }
  policyReport = rep;
  policyFrom = from;
  renderPolicy(rep);
});

// unifiedDiff shows a unified diff, its lines marked.
function unifiedDiff(text) {
  const lines = text.replace(/\n$/, '').split('\n');
  return el('pre', { class: 'linediff unified', id: 'policy-diff' }, lines.map((l) => el('span', {
    class: l.startsWith('+++') || l.startsWith('---') ? 'head' : l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx',
  }, l + '\n')));
}

// changeGroups folds the verdicts that change into one row per URL and
// change, naming the crawlers: a policy changes many crawlers alike.
function changeGroups(changes) {
  const groups = new Map();
  for (const c of changes) {
    const key = [c.url, c.old.allowed, c.old.line, c.new.allowed, c.new.line].join('\u0000');
    let g = groups.get(key);
    if (!g) { g = { url: c.url, old: c.old, new: c.new, crawlers: [] }; groups.set(key, g); }
    g.crawlers.push(c.crawler);
  }
  return [...groups.values()];
}

const MAX_GROUPS = 300;

function renderPolicy(rep) {
  const out = $('policy-out');
  const v = rep.verdicts || {};
  const changes = v.changes || [];
  const denied = (rep.crawlers || []).filter((c) => !c.allow).length;
  const allowed = (rep.crawlers || []).length - denied;
  const parts = [el('p', { class: 'summary' + (rep.changed ? ' warn' : '') },
    rep.changed ? 'The file changes' : 'The file already says this: nothing changes',
    ` (${denied} crawlers denied, ${allowed} allowed).`)];
  const st = [];
  if (rep.content_usage) st.push(['Content-Usage of *', rep.content_usage]);
  if (rep.content_signal) st.push(['Content-Signal of *', rep.content_signal]);
  if (st.length) parts.push(kv(st));
  for (const n of rep.notes || []) parts.push(el('p', { class: 'notes' }, n));
  if (rep.changed) {
    parts.push(el('div', { class: 'row' }, el('button', { type: 'button', class: 'primary', id: 'policy-apply', onclick: applyPolicy }, 'Put the new file in the editor'),
      el('span', { class: 'sub-inline' }, 'the text now in the editor is kept, to put back with one click')));
    parts.push(el('h4', null, 'The lines that change'), unifiedDiff(rep.diff));
  }
  const groups = changeGroups(changes);
  const verdict = (x) => el('span', { class: x.allowed ? 'allowed' : 'blocked' }, verdictText(x.allowed, x.line), x.rule ? el('code', null, ' ' + x.rule) : '');
  parts.push(el('h4', null, changes.length ? `${changes.length} verdicts change` : 'No verdict changes'),
    el('p', { class: 'hint' }, `For * and the ${(v.crawlers || []).length - 1} crawlers of the stances, at ${v.urls || 0} URLs derived from the rules of both files; one row per URL and change.`));
  if (groups.length) {
    parts.push(el('div', { class: 'table-wrap' }, el('table', { class: 'data changes', id: 'policy-changes' },
      el('thead', null, el('tr', null, ['URL', 'Old', 'New', 'Crawlers'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', null, groups.slice(0, MAX_GROUPS).map((g) => el('tr', null, el('td', { class: 'url' }, g.url), el('td', null, verdict(g.old)), el('td', null, verdict(g.new)),
        el('td', { class: 'names' }, `${g.crawlers.length}: ${g.crawlers.slice(0, 12).join(', ')}${g.crawlers.length > 12 ? ', …' : ''}`)))))));
    if (groups.length > MAX_GROUPS) parts.push(el('p', { class: 'hint' }, `… and ${groups.length - MAX_GROUPS} more rows.`));
  }
  for (const n of v.notes || []) parts.push(el('p', { class: 'notes' }, n));
  out.replaceChildren(...parts);
}

// applyPolicy puts the policy's file in the editor. What the editor held
// is kept aside (the undo bar puts it back), whoever wrote it, and
// becomes the Diff view's old version unless the user gave one.
function applyPolicy() {
  const rep = policyReport;
  if (!rep) return;
  const cur = ed.ta.value;
  if (cur !== policyFrom && !(S.mode === 'live' && S.liveBody !== null)) {
    setStatus('The editor changed since the policy was written: write it again first.', true);
    return;
  }
  if (cur !== rep.body) {
    const label = S.loaded && cur === S.loaded.text ? S.loaded.label : 'your text';
    S.kept = label === 'your text' ? { text: cur, label, button: 'Put back my text' } : { text: cur, label, button: 'Put back ' + label };
  }
  if ($('old').value === '' || $('old').value === S.oldLoaded) {
    $('old').value = cur;
    S.oldLoaded = cur;
  }
  S.loaded = { text: rep.body, label: 'the file the policy wrote' };
  setEditor(rep.body);
  setMode('paste', true);
  renderUndo();
  policyReport = null;
  $('policy-out').replaceChildren(el('p', { class: 'summary' }, 'The new file is in the editor; the Diff view compares it with the old one.'));
  setStatus('The file the policy wrote is in the editor; the text it replaced is kept above the editor.');
  schedulePermalink();
}

// The tester: the file (pasted or live), the questions (URLs, crawlers,
// tokens) and the views that answer them (results, dialects, lint, AI and
// the policy writer, diff, history), with the permalink that keeps it all
// in the address. Its sections share the page's state, so they live in one
// module; the parts that stand alone (the editor, the line diff, the
// permalink's codec, files out) are modules of their own.
import { $, el, api, setStatus, cap, counted } from './page.js';
import { ed, countLines, renderGutter, highlight } from './editor.js';
import { lineDiff } from './linediff.js';
import { VIEWS, encodeState, decodeState } from './permalink.js';
import { save, copyText, toCSV, toMarkdown } from './files.js';
import { S } from './state.js';

// The example a fresh page starts from: Test answers on the first click.
const EXAMPLE = `# An example: edit it, or paste your own file.
User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: Googlebot
Disallow: /search

User-agent: GPTBot
User-agent: CCBot
Disallow: /
`;
const EXAMPLE_URLS = '/\n/private/report.pdf\n/private/press/launch\n/search?q=robots';

function editorChanged() {
  markAIDirty();
  ed.lines = countLines(ed.ta.value);
  ed.root.style.setProperty('--digits', String(Math.max(2, String(ed.lines).length)));
  renderGutter();
  scheduleFileNames();
}
ed.ta.addEventListener('input', () => {
  editorChanged();
  if (S.mode === 'live' && S.liveBody !== null && ed.ta.value !== S.liveBody) {
    // An edited live file is a pasted one; the live one stays the old
    // version of the diff view.
    setMode('paste', true);
    setStatus('The live file was edited: tests now use the edited copy; the Diff view compares it with the live one.');
  }
});

// ---- Source: pasted or live ---------------------------------------------

function setEditor(text) {
  ed.ta.value = text;
  editorChanged();
  highlight(0);
}

// putInEditor shows a file the page loaded (label names it: "the live
// file of https://example.com"). Text the user typed, pasted or edited
// is kept aside, and the undo bar offers to put it back.
function putInEditor(text, label) {
  const cur = ed.ta.value;
  if (cur !== text && cur.trim() !== '' && !(S.loaded && cur === S.loaded.text)) {
    S.kept = { text: cur, label: 'your text', button: 'Put back my text' };
  }
  S.loaded = { text, label };
  setEditor(text);
  renderUndo();
}

function renderUndo() {
  const bar = $('undo-bar');
  if (!S.kept || S.kept.text === ed.ta.value) { bar.hidden = true; return; }
  $('undo-text').textContent = S.kept.label === 'your text'
    ? `${cap(S.loaded ? S.loaded.label : 'a loaded file')} replaced your text in the editor; your text is kept here.`
    : `${cap(S.kept.label)} is kept here.`;
  $('undo-btn').textContent = S.kept.button;
  bar.hidden = false;
}

$('undo-btn').addEventListener('click', () => {
  if (!S.kept) return;
  const back = S.kept;
  const cur = ed.ta.value;
  if (cur.trim() === '') S.kept = null;
  else if (S.loaded && cur === S.loaded.text) S.kept = { text: cur, label: S.loaded.label, button: 'Put back ' + S.loaded.label };
  else S.kept = { text: cur, label: 'the edited file', button: 'Put back the edited file' };
  setEditor(back.text);
  // The live file back in the editor is the live file again; any other
  // text is the user's own, which tests ask about.
  setMode(S.liveBody !== null && back.text === S.liveBody ? 'live' : 'paste', true);
  renderUndo();
  setStatus(`${cap(back.label)} is back in the editor${S.kept ? `; ${S.kept.label} is kept aside` : ''}.`);
  schedulePermalink();
});

function setMode(m, keepFocus) {
  S.mode = m;
  const paste = $('mode-paste');
  const live = $('mode-live');
  paste.setAttribute('aria-selected', String(m === 'paste'));
  live.setAttribute('aria-selected', String(m === 'live'));
  paste.tabIndex = m === 'paste' ? 0 : -1;
  live.tabIndex = m === 'live' ? 0 : -1;
  $('paste-note').hidden = m !== 'paste';
  $('live-panel').hidden = m !== 'live';
  if (!keepFocus && m === 'live') $('origin').focus();
}

function tabKeys(tabs, activate) {
  tabs.forEach((t, i) => t.addEventListener('keydown', (ev) => {
    let j = -1;
    if (ev.key === 'ArrowRight') j = (i + 1) % tabs.length;
    else if (ev.key === 'ArrowLeft') j = (i + tabs.length - 1) % tabs.length;
    else if (ev.key === 'Home') j = 0;
    else if (ev.key === 'End') j = tabs.length - 1;
    if (j < 0) return;
    ev.preventDefault();
    tabs[j].focus();
    activate(j);
  }));
}

$('mode-paste').addEventListener('click', () => setMode('paste'));
$('mode-live').addEventListener('click', () => setMode('live'));
tabKeys([$('mode-paste'), $('mode-live')], (j) => setMode(j ? 'live' : 'paste', true));

function originValue() {
  let o = $('origin').value.trim();
  if (o && !/^[a-z][a-z0-9+.-]*:\/\//i.test(o)) o = 'https://' + o;
  return o;
}

function kv(list) {
  const dl = el('dl', { class: 'kv' });
  for (const [k, v] of list) {
    if (v === undefined || v === null || v === '') continue;
    dl.append(el('dt', null, k), el('dd', null, v));
  }
  return dl;
}

// fetchedWhen says where a fetch's answer came from, in words.
function fetchedWhen(info) {
  if (info.refused) return 'not fetched: this server refused';
  if (info.source === 'network') return 'fetched now';
  const at = info.fetched_at ? ', fetched at ' + info.fetched_at : '';
  if (info.source === 'stale-cache') return `from the server's cache${at}: fetching it again failed`;
  return `from the server's cache${at}`;
}

// urlText is a URL as text that wraps after its slashes (and before a
// query), not inside a word: "…/robots.txt", never "robots.tx / t".
function urlText(u) {
  const parts = String(u || '').split(/(?<=\/)|(?=\?)/);
  const span = el('span');
  parts.forEach((p, i) => { if (i) span.append(el('wbr')); span.append(p); });
  return span;
}

function renderFetch(info) {
  const out = $('fetch-trace');
  const trace = info.trace || [];
  const table = el('table', { class: 'data trace' },
    el('caption', null, 'Requests'),
    el('thead', null, el('tr', null, ['#', 'URL', 'Status', 'Bytes', 'Location', 'Type', 'Cache-Control'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', null, trace.map((r, i) => el('tr', null,
      el('td', null, String(i + 1)), el('td', { class: 'url' }, urlText(r.url)), el('td', null, String(r.status || '')),
      el('td', null, String(r.bytes ?? '')), el('td', { class: 'url' }, urlText(r.location)),
      el('td', null, r.content_type || ''), el('td', null, r.cache_control || '')))));
  // A fetch this server refused (its address guard) is not the site's
  // answer: say so, and why, instead of the policy it stands in for.
  const head = info.refused
    ? el('div', { class: 'policy policy-refused', role: 'alert' },
      el('p', null, el('strong', null, 'Refused by this server'), ' — ', info.refused),
      el('p', { class: 'sub' }, 'The site was not asked, so nothing is known of its robots.txt: this is not its answer. Paste the file to test it; the tests ask about the editor’s text.'))
    : el('p', { class: 'policy policy-' + (info.policy || 'none') }, el('strong', null, info.policy || 'no answer'), ' — ', info.reason || '');
  const when = el('div', { class: 'row fetched' },
    el('span', { id: 'fetched-when', class: info.source === 'network' && !info.refused ? 'now' : 'cached' }, cap(fetchedWhen(info)) + '.'),
    el('button', { type: 'button', id: 'fetch-again', title: 'Fetch the robots.txt as it is now, after a change on the site (the server\'s cache is not used)', onclick: () => fetchLive() }, 'Fetch again'));
  out.replaceChildren(
    head, when,
    kv([['robots.txt', info.robots_url ? urlText(info.robots_url) : ''], ['Status', info.status ? String(info.status) : ''], ['Bytes', String(info.bytes ?? 0) + (info.truncated ? ' (cut at 500 KiB)' : '')],
      ['Fetched', info.fetched_at], ['Expires', info.expires_at], ['Failing since', info.failing_since], ['Error', info.error], ['Store', info.store]]),
    el('div', { class: 'table-wrap' }, table));
}

// fetchBusy disables the fetch buttons while a fetch is under way.
function fetchBusy(on) {
  S.fetching = on;
  for (const b of [$('live-form').querySelector('button'), $('fetch-again')]) if (b) b.disabled = on;
  $('fetch-trace').setAttribute('aria-busy', String(on));
}

// fetchLive fetches the origin's robots.txt as it is now (a site owner
// checks the file just changed: the server's cache is not used) and, when
// there is a file, shows it in the editor. A fetch that gets no file (an
// error answer, an unreachable site, a refusal) leaves the editor as it
// is: the tests then ask about the editor's text.
async function fetchLive(quiet) {
  const origin = originValue();
  if (!origin) { setStatus('Give an origin to fetch, e.g. https://example.com', true); return false; }
  if (S.fetching) return false;
  setMode('live', true);
  setStatus('Fetching ' + origin + ' …');
  fetchBusy(true);
  try {
    return await fetchLiveFrom(origin, quiet);
  } finally {
    fetchBusy(false);
  }
}

async function fetchLiveFrom(origin, quiet) {
  let info;
  try {
    info = await api('GET', '/v1/fetch?refresh=true&url=' + encodeURIComponent(origin));
  } catch (e) {
    S.liveBody = null;
    S.liveInfo = null;
    setStatus(e.message + ' (the editor keeps its text)', true);
    $('fetch-trace').replaceChildren(el('p', { class: 'error' }, e.message));
    return false;
  }
  S.liveInfo = info;
  renderFetch(info);
  if (info.policy !== 'rules') {
    S.liveBody = null;
    if (info.refused) setStatus(`This server refused to fetch ${origin}: ${info.refused}. The editor keeps its text; tests ask about it.`, true);
    else setStatus(`No robots.txt to show from ${origin} (${info.policy}: ${info.reason}). The editor keeps its text; tests ask about it.`);
    return false;
  }
  // The body comes from the history, which keeps each version fetched;
  // the newest is this one when its size is the fetch's.
  let body = null;
  try {
    const h = await api('GET', '/v1/history?origin=' + encodeURIComponent(origin));
    const v0 = (h.versions || [])[0];
    if (v0 && v0.size === info.bytes) {
      const v = await api('GET', `/v1/history/version?origin=${encodeURIComponent(origin)}&hash=${encodeURIComponent(v0.hash)}`);
      body = v.body || '';
    }
  } catch (e) { /* the trace says what there is */ }
  if (body === null) {
    S.liveBody = null;
    setStatus(`Fetched ${origin} (${fetchedWhen(info)}), but this server keeps no copy of the file's text to show (its history is off or failed). The editor keeps its text; tests ask about it.`, true);
    return false;
  }
  S.liveBody = body;
  putInEditor(body, `the live file of ${origin}`);
  if ($('old').value === '' || $('old').value === S.oldLoaded) {
    $('old').value = body;
    S.oldLoaded = body;
  }
  setMode('live', true);
  if (!quiet) setStatus(`${origin}: ${info.policy} (${fetchedWhen(info)}). Tests now ask the server about the live file.`);
  return true;
}

$('live-form').addEventListener('submit', (ev) => { ev.preventDefault(); fetchLive(); });

// subject is the file part of a request: the live origin, or the text.
function subject() {
  if (S.mode === 'live' && S.liveBody !== null) return { origin: originValue() };
  return { robots: ed.ta.value };
}

// ---- Questions: URLs, crawlers, tokens ------------------------------------

function renderCrawlers(chosen) {
  const box = $('crawler-list');
  const sel = new Set(chosen);
  // The chosen crawlers first, so that they are all in view in the
  // list's box, the rest in the table's order.
  const order = S.table.crawlers.map((c, i) => [c, i]);
  order.sort((a, b) => (sel.has(b[0].name) - sel.has(a[0].name)) || (a[1] - b[1]));
  box.replaceChildren(...order.map(([c, i]) => el('label', {
    class: 'crawler', title: `${c.operator}: ${c.purpose}. Token ${c.token}, ${c.dialect} dialect` + (c.ignores_global ? ', ignores the * group' : ''),
  }, el('input', { type: 'checkbox', value: c.name, id: 'cr-' + i, checked: sel.has(c.name) }), ' ', c.name)));
}

function showChosen() {
  const names = selectedCrawlers();
  $('crawlers-chosen').textContent = names.length ? `Chosen: ${names.join(', ')}` : 'None chosen: Googlebot is asked unless tokens are given.';
}

function selectedCrawlers() {
  return [...$('crawler-list').querySelectorAll('input:checked')].map((i) => i.value);
}

function setCrawlers(names) {
  const want = new Set(names);
  for (const i of $('crawler-list').querySelectorAll('input')) i.checked = want.has(i.value);
  showChosen();
}
$('crawler-list').addEventListener('change', () => { showChosen(); renderFileNames(); });

// The crawlers the file names (its user-agent lines) that are not asked
// about are offered, as the CLI's compare adds them: a crawler of the
// table by its token, any other name as a product token.
// What the file's user-agent lines name is the server's reading (the
// rows POST /v1/compare adds for the crawlers a file names, each with
// its line): a crawler of the table, or a product token. The page reads
// no user-agent line itself.
let fileNamesTimer = 0;
let fileNamed = []; // [{crawler} | {token}], in file order
let fileNamedFor = null; // the text fileNamed was read from
function scheduleFileNames() {
  clearTimeout(fileNamesTimer);
  fileNamesTimer = setTimeout(readFileNames, 250);
}

async function readFileNames() {
  const text = ed.ta.value;
  if (text === fileNamedFor) { renderFileNames(); return; }
  let named = [];
  if (/user-?agent/i.test(text)) {
    let c;
    try {
      c = await api('POST', '/v1/compare', { robots: text, urls: ['/'] });
    } catch (e) {
      return; // offers are a help: an error leaves the last ones
    }
    if (ed.ta.value !== text) return; // a newer text is on its way
    for (const r of c.rows || []) {
      if (!(r.line > 0)) continue;
      named.push(r.known ? { crawler: r.crawler } : { token: r.token });
    }
  }
  fileNamed = named;
  fileNamedFor = text;
  renderFileNames();
}

// fileOffers are the crawlers ({crawler}) and tokens ({token}) the file
// names that are not asked about.
function fileOffers() {
  const chosen = new Set(selectedCrawlers());
  const agents = new Set(agentList().map((a) => a.toLowerCase()));
  return fileNamed.filter((o) => o.crawler ? !chosen.has(o.crawler) : !agents.has(o.token.toLowerCase()));
}

function addOffer(o) {
  if (o.crawler) {
    for (const i of $('crawler-list').querySelectorAll('input')) if (i.value === o.crawler) i.checked = true;
    showChosen();
  } else {
    const a = agentList();
    a.push(o.token);
    $('agents').value = a.join(', ');
  }
}

let fileNamesKey = '';
function renderFileNames() {
  const box = $('file-names');
  const offers = fileOffers();
  // The same offers keep their buttons (one may be under the pointer).
  const key = JSON.stringify(offers);
  if (key === fileNamesKey) return;
  fileNamesKey = key;
  if (!offers.length) { box.hidden = true; box.replaceChildren(); return; }
  const name = (o) => o.crawler || o.token;
  box.replaceChildren(
    el('span', null, 'The file names, not asked about: '),
    ...offers.map((o) => el('button', {
      type: 'button', class: 'offer', 'data-name': name(o),
      title: o.crawler ? 'Ask about this crawler of the table' : 'Not in the crawler table: ask about it as a product token',
      onclick: () => { addOffer(o); renderFileNames(); },
    }, '+ ' + name(o))),
    offers.length > 1 ? el('button', {
      type: 'button', id: 'file-names-all',
      onclick: () => { for (const o of offers) addOffer(o); renderFileNames(); },
    }, 'Add all') : null);
  box.hidden = false;
}
$('agents').addEventListener('input', () => renderFileNames());

$('crawlers-default').addEventListener('click', () => setCrawlers(S.table.defaults));
$('crawlers-none').addEventListener('click', () => setCrawlers([]));
$('crawler-filter').addEventListener('input', () => {
  const f = $('crawler-filter').value.trim().toLowerCase();
  for (const l of $('crawler-list').children) l.hidden = !!f && !l.textContent.toLowerCase().includes(f) && !l.title.toLowerCase().includes(f);
});

function agentList() {
  return $('agents').value.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
}

// urlList reads the URL box: absolute URLs as given, host/path with
// https://, paths after the origin of a live file, as typed (a path's
// dot segments are the server's to read, as check reads them).
function urlList() {
  const out = [];
  const origin = S.mode === 'live' ? originValue() : '';
  for (let line of $('urls').value.split('\n')) {
    line = line.trim();
    if (!line) continue;
    if (/^(https?|ftp):\/\//i.test(line)) out.push(line);
    else if (line.startsWith('/')) out.push(origin ? safeJoin(origin, line) : line);
    else if (/^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/|$)/i.test(line)) out.push('https://' + line);
    else out.push(origin ? safeJoin(origin, '/' + line) : '/' + line);
  }
  return out;
}

// safeJoin puts a path typed after the origin's scheme and authority,
// byte for byte: new URL(path, origin) would resolve "/a/../private" to
// "/private" and escape what the server reads as given.
function safeJoin(origin, path) {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(origin);
  return m ? m[0] + path : path;
}

// ---- Views ----------------------------------------------------------------

const viewTabs = VIEWS.map((v) => $('tab-' + v));

function showView(v, focus) {
  if (!VIEWS.includes(v)) v = 'results';
  S.view = v;
  VIEWS.forEach((name, i) => {
    const on = name === v;
    viewTabs[i].setAttribute('aria-selected', String(on));
    viewTabs[i].tabIndex = on ? 0 : -1;
    $('view-' + name).hidden = !on;
  });
  if (focus) viewTabs[VIEWS.indexOf(v)].focus();
  if (v === 'dialects' && S.dialectsDirty && S.lastQuestion) runCompare();
  if (v === 'lint' && S.lintDirty && S.lastQuestion) runLint();
  if (v === 'ai' && S.aiDirty) runAI();
  schedulePermalink();
}

viewTabs.forEach((t, i) => t.addEventListener('click', () => showView(VIEWS[i])));
tabKeys(viewTabs, (j) => showView(VIEWS[j]));

// ---- Check: the results table ---------------------------------------------

function question() {
  const urls = urlList();
  if (!urls.length) { setStatus('Give at least one URL (a path such as /private/ is enough).', true); $('urls').focus(); return null; }
  return { sub: subject(), urls, crawlers: selectedCrawlers(), agents: agentList() };
}

function askBody(q) {
  const b = Object.assign({}, q.sub, { urls: q.urls });
  if (q.crawlers.length) b.crawlers = q.crawlers;
  if (q.agents.length) b.agents = q.agents;
  return b;
}

async function run(restoreSel) {
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

function verdictText(allowed, line) {
  return (allowed ? '✓ allowed' : '✗ blocked') + (line ? ` · line ${line}` : '');
}

// shortVerdict is the text of a cell of the wide dialect table.
function shortVerdict(allowed, line) {
  return line ? `${allowed ? '✓' : '✗'} line ${line}` : (allowed ? '✓ allowed' : '✗ blocked');
}

function verdictLabel(allowed, line) {
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

function lineButton(n, kind, label) {
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

// ---- Dialects -------------------------------------------------------------

async function runCompare() {
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

// ---- Lint -----------------------------------------------------------------

async function runLint() {
  const q = S.lastQuestion;
  if (!q) return;
  S.lintDirty = false;
  const my = S.seq;
  let rep;
  try {
    rep = await api('POST', '/v1/lint', Object.assign({}, q.sub, $('lint-original').checked ? { original: true } : {}));
  } catch (e) {
    $('lint-out').replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
    S.lintDirty = true;
    return;
  }
  if (my !== S.seq) return;
  renderLint(rep);
}

const SEV_RANK = { error: 3, warning: 2, info: 1 };

function renderLint(rep) {
  const findings = rep.findings || [];
  ed.marks = new Map();
  for (const f of findings) {
    const m = ed.marks.get(f.line) || { severity: f.severity, findings: [] };
    if ((SEV_RANK[f.severity] || 0) > (SEV_RANK[m.severity] || 0)) m.severity = f.severity;
    m.findings.push(f);
    ed.marks.set(f.line, m);
  }
  renderGutter();
  $('tab-lint').textContent = findings.length ? `Lint (${findings.length})` : 'Lint';
  const parts = [el('p', { class: 'summary' }, findings.length ? `${counted(rep.errors, 'error', 'errors')}, ${counted(rep.warnings, 'warning', 'warnings')}, ${counted(rep.infos, 'note', 'notes')}.` : 'No finding: the file reads the same everywhere.')];
  if (findings.length) {
    parts.push(el('ul', { class: 'findings' }, findings.slice(0, 2000).map((f) => el('li', { class: 'sev-' + f.severity },
      lineButton(f.line, f.severity === 'error' ? 'block' : 'group', `line ${f.line}${f.column ? ':' + f.column : ''}`), ' ',
      el('span', { class: 'badge' }, f.severity), ' ', el('code', null, f.code), ' ', f.message,
      (f.dialects || []).length ? el('span', { class: 'sub' }, ' (' + f.dialects.join(', ') + ')') : null))));
    if (findings.length > 2000) parts.push(el('p', { class: 'hint' }, `… and ${findings.length - 2000} more (the margin marks them all).`));
  }
  for (const n of rep.notes || []) parts.push(el('p', { class: 'notes' }, n.note));
  $('lint-out').replaceChildren(...parts);
}

$('lint-original').addEventListener('change', () => { if (S.lastQuestion) runLint(); });

// ---- AI: who may use the content, and a policy writer ----------------------

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
const stances = { purposes: Object.create(null), crawlers: Object.create(null) };

function markAIDirty() {
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

async function runAI() {
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

function renderPurposeStances() {
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

// ---- Diff -----------------------------------------------------------------

function renderChanges(rep, out, extra) {
  const changes = rep.changes || [];
  const v = (x) => el('span', { class: x.allowed ? 'allowed' : 'blocked' }, verdictText(x.allowed, x.line), x.rule ? el('code', null, ' ' + x.rule) : '');
  const parts = [el('p', { class: 'summary' + (changes.length ? ' warn' : '') },
    changes.length ? `${counted(changes.length, 'verdict changes', 'verdicts change')}` : 'No verdict changes',
    ` (${counted(rep.urls, 'URL', 'URLs')}${rep.derived ? ' derived from the rules' : ''} × ${counted((rep.crawlers || []).length, 'crawler', 'crawlers')}: ${(rep.crawlers || []).join(', ')}).`)];
  if (changes.length) {
    // As robotstxt diff says it: the verdicts that change per crawler,
    // then the edits that changed them (the rule that decided before
    // and the one that decides now), each with its changes.
    const dirs = (blocked, allowed) => [blocked ? `${blocked} now blocked` : '', allowed ? `${allowed} now allowed` : ''].filter(Boolean).join(', ');
    const byCrawler = rep.by_crawler || [];
    if (byCrawler.length) {
      parts.push(el('h4', null, 'By crawler'), el('ul', { class: 'by-crawler' }, byCrawler.map((c) => el('li', null, el('span', { class: 'name' }, c.crawler), ': ', dirs(c.blocked, c.allowed)))));
    }
    const ruleText = (r, old) => r ? `${old ? 'old line' : 'line'} ${r.line}: ${r.rule}` : 'no rule';
    const sum = rep.summary || {};
    const agentsAt = (gs, line) => ((gs || []).find((g) => g.line === line) || { agents: ['?'] }).agents.join(', ');
    const causeLabel = (k) => [
      ...(k.groups_removed || []).map((l) => `− group ${agentsAt(sum.groups_removed, l)} (old line ${l}, removed)`),
      ...(k.groups_added || []).map((l) => `+ group ${agentsAt(sum.groups_added, l)} (line ${l}, added)`),
      ...(k.kind === 'added' ? [`+ ${ruleText(k.new)} (added)`]
        : k.kind === 'removed' ? [`− ${ruleText(k.old, true)} (removed)`]
          : k.kind === 'replaced' ? [`− ${ruleText(k.old, true)} (removed)`, `+ ${ruleText(k.new)} (added)`]
            : [`other groups apply: ${ruleText(k.old, true)}, now ${ruleText(k.new)}`])];
    const keyOf = (oldLine, newLine) => `${oldLine || 0}>${newLine || 0}`;
    const causes = rep.causes || [];
    const groups = new Map(causes.map((k) => [keyOf(k.old && k.old.line, k.new && k.new.line), []]));
    const rest = [];
    for (const c of changes) {
      const g = groups.get(keyOf(c.old.line, c.new.line));
      (g || rest).push(c);
    }
    const row = (c) => el('tr', null, el('th', { scope: 'row' }, c.crawler, el('span', { class: 'sub' }, c.dialect)),
      el('td', { class: 'url' }, c.url), el('td', null, v(c.old)), el('td', null, v(c.new)));
    const bodies = [];
    if (causes.length) {
      parts.push(el('h4', null, 'The edits that changed them'), el('ol', { class: 'causes' }, causes.map((k) => el('li', null,
        // Each edit on a line of its own, then what it changed.
        causeLabel(k).map((l) => el('code', { class: 'edit ' + (l.startsWith('+') ? 'add' : l.startsWith('−') ? 'del' : '') }, l)),
        el('span', { class: 'sub' }, `${dirs(k.blocked, k.allowed)} for ${(k.crawlers || []).join(', ')}; ${counted(k.urls, 'URL', 'URLs')}`)))));
      for (const k of causes) {
        bodies.push(el('tbody', null, el('tr', { class: 'cause' }, el('th', { scope: 'rowgroup', colspan: 4 }, causeLabel(k).join(' · '))),
          groups.get(keyOf(k.old && k.old.line, k.new && k.new.line)).map(row)));
      }
    }
    if (rest.length) bodies.push(el('tbody', null, rest.map(row)));
    parts.push(el('div', { class: 'table-wrap' }, el('table', { class: 'data changes' },
      el('thead', null, el('tr', null, ['Crawler', 'URL', 'Old', 'New'].map((h) => el('th', { scope: 'col' }, h)))),
      bodies)));
  }
  for (const n of rep.notes || []) parts.push(el('p', { class: 'notes' }, n));
  if (rep.probes_left_out) parts.push(el('p', { class: 'notes' }, `${rep.probes_left_out} derived URLs were left out.`));
  if (extra) parts.push(extra);
  out.replaceChildren(...parts);
}

async function diffFiles(oldText, newText, mine) {
  const b = { old: oldText, new: newText };
  if (mine && S.lastQuestion) {
    const q = question();
    if (q) {
      b.urls = q.urls;
      if (q.crawlers.length) b.crawlers = q.crawlers;
      if (q.agents.length) b.agents = q.agents;
    }
  }
  return api('POST', '/v1/diff', b);
}

$('diff-run').addEventListener('click', async () => {
  const out = $('diff-out');
  out.replaceChildren(el('p', { class: 'hint' }, 'Comparing …'));
  try {
    const rep = await diffFiles($('old').value, ed.ta.value, $('diff-mine').checked);
    renderChanges(rep, out, lineDiff($('old').value, ed.ta.value));
  } catch (e) {
    out.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
  }
  schedulePermalink();
});

// ---- History --------------------------------------------------------------

let versions = [];

async function loadHistory() {
  const origin = originValue();
  const out = $('history-out');
  if (!origin) { out.replaceChildren(el('p', { class: 'error', role: 'alert' }, 'Give an origin under “Fetch a live file” first.')); return; }
  out.replaceChildren(el('p', { class: 'hint' }, 'Loading …'));
  let h;
  try {
    h = await api('GET', '/v1/history?origin=' + encodeURIComponent(origin));
  } catch (e) {
    out.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
    return;
  }
  versions = h.versions || [];
  if (!versions.length) { out.replaceChildren(el('p', null, `No version of ${h.origin} is kept yet: fetch it live first.`)); return; }
  const rows = versions.map((v, i) => el('tr', null,
    el('td', null, el('input', { type: 'radio', name: 'h-old', value: i, checked: i === Math.min(1, versions.length - 1), 'aria-label': 'old: ' + v.fetched_at })),
    el('td', null, el('input', { type: 'radio', name: 'h-new', value: i, checked: i === 0, 'aria-label': 'new: ' + v.fetched_at })),
    el('td', null, v.fetched_at), el('td', null, String(v.status)), el('td', null, v.policy), el('td', null, String(v.size) + (v.truncated ? ' (cut)' : '')),
    el('td', null, el('code', { title: v.hash }, v.hash.slice(0, 12))),
    el('td', null, el('button', { type: 'button', class: 'linkish', onclick: () => loadVersion(origin, v) }, 'edit'))));
  out.replaceChildren(
    el('p', null, versions.length === 1 ? `1 version of ${h.origin}.` : `${versions.length} versions of ${h.origin}, newest first.`),
    el('table', { class: 'data history' }, el('thead', null, el('tr', null, ['Old', 'New', 'Fetched', 'Status', 'Policy', 'Bytes', 'SHA-256', ''].map((t) => el('th', { scope: 'col' }, t)))), el('tbody', null, rows)),
    el('div', { class: 'row' }, el('button', { type: 'button', class: 'primary', id: 'history-compare', onclick: () => compareVersions(origin) }, 'Compare the two versions')));
}

async function versionBody(origin, v) {
  const a = await api('GET', `/v1/history/version?origin=${encodeURIComponent(origin)}&hash=${encodeURIComponent(v.hash)}`);
  return a.body || '';
}

async function loadVersion(origin, v) {
  try {
    const body = await versionBody(origin, v);
    setMode('paste', true);
    putInEditor(body, `the version fetched at ${v.fetched_at}`);
    setStatus(`The version fetched at ${v.fetched_at} is in the editor.`);
  } catch (e) { setStatus(e.message, true); }
}

async function compareVersions(origin) {
  const pick = (name) => { const r = document.querySelector(`input[name="${name}"]:checked`); return r ? versions[+r.value] : null; };
  const o = pick('h-old');
  const n = pick('h-new');
  const out = $('history-diff');
  if (!o || !n) return;
  out.replaceChildren(el('p', { class: 'hint' }, 'Comparing …'));
  try {
    const [a, b] = await Promise.all([versionBody(origin, o), versionBody(origin, n)]);
    const rep = await diffFiles(a, b, false);
    renderChanges(rep, out, lineDiff(a, b));
  } catch (e) {
    out.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
  }
}

$('history-load').addEventListener('click', loadHistory);

// ---- Permalink: the whole state in the address's fragment -------------------

// getState is the page's state as a permalink keeps it.
function getState() {
  return {
    v: 1, mode: S.mode, origin: $('origin').value, robots: ed.ta.value, urls: $('urls').value,
    crawlers: selectedCrawlers(), agents: $('agents').value, view: S.view, sel: S.selected, old: $('old').value,
    aiAll: $('ai-all').checked, stances, denyMore: $('policy-deny-more').value, allowMore: $('policy-allow-more').value,
  };
}

let permalinkTimer = 0;
let restoring = false;

function schedulePermalink() {
  if (restoring) return;
  clearTimeout(permalinkTimer);
  permalinkTimer = setTimeout(updatePermalink, 150);
}

async function updatePermalink() {
  const frag = await encodeState(getState());
  const url = location.href.split('#')[0] + '#' + frag;
  history.replaceState(null, '', url);
  $('permalink').value = url;
  return url;
}

$('permalink-btn').addEventListener('click', async () => {
  const url = await updatePermalink();
  const input = $('permalink');
  try {
    await navigator.clipboard.writeText(url);
    setStatus(`Permalink copied (${url.length} characters; the state travels in the address, nothing is stored on the server).`);
  } catch (e) {
    input.focus();
    input.select();
    setStatus('Permalink selected below the title: copy it with Ctrl+C.');
  }
});

async function restore(hash) {
  let st;
  try {
    st = await decodeState(hash);
  } catch (e) {
    setStatus('This permalink cannot be read: ' + e.message, true);
    return;
  }
  if (!st) return;
  restoring = true;
  try {
    $('origin').value = st.origin;
    $('urls').value = st.urls;
    $('agents').value = st.agents;
    if (st.crawlers) setCrawlers(st.crawlers);
    $('old').value = st.old;
    $('ai-all').checked = st.aiAll;
    stances.purposes = st.stances.purposes;
    stances.crawlers = st.stances.crawlers;
    $('policy-deny-more').value = st.denyMore;
    $('policy-allow-more').value = st.allowMore;
    renderPurposeStances();
    ed.ta.value = st.robots;
    editorChanged();
    S.liveBody = null;
    S.kept = null;
    renderUndo();
    if (st.mode === 'live' && st.origin) {
      // The permalink's text was the live file then: the file fetched
      // now replaces it, it is not the user's.
      loaded = { text: st.robots, label: 'the file of the permalink' };
      await fetchLive(true);
    } else {
      setMode('paste', true);
    }
    showView(st.view);
    if (urlList().length) await run(st.sel);
  } finally {
    restoring = false;
  }
  document.body.dataset.restored = 'true';
  schedulePermalink();
}

window.addEventListener('hashchange', () => restore(location.hash));

$('token-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const token = $('token').value.trim();
  sessionStorage.setItem('robotstxt-token', token);
  $('token-form').hidden = true;
  init();
});

// ---- Files out: the edited file, the results as CSV and Markdown -----------

$('load-example').addEventListener('click', () => {
  setMode('paste', true);
  putInEditor(EXAMPLE, 'the example');
  $('urls').value = EXAMPLE_URLS;
  setCrawlers(S.table.defaults || []);
  setStatus('The example is in the editor: press Test.');
  schedulePermalink();
});
$('copy-file').addEventListener('click', () => copyText(ed.ta.value, 'the file'));
$('download-file').addEventListener('click', () => save(ed.ta.value, 'robots.txt', 'text/plain'));

// exportRows are the results one row a URL and crawler, as the CLI's
// check --csv writes them.
const EXPORT_HEAD = ['url', 'crawler', 'dialect', 'verdict', 'line', 'rule', 'policy'];
function exportRows() {
  const res = (S.report && S.report.results) || [];
  return res.map((r) => [r.url, r.who, r.dialect, r.allowed ? 'allowed' : 'blocked', r.line ? String(r.line) : '', r.rule || '', r.policy || '']);
}

$('export-csv').addEventListener('click', () => save(toCSV(EXPORT_HEAD, exportRows()), 'robots-check.csv', 'text/csv'));
$('export-md').addEventListener('click', () => copyText(toMarkdown(EXPORT_HEAD, exportRows()), 'the results as Markdown'));

async function init() {
  try {
    S.table = await api('GET', '/v1/crawlers');
  } catch (e) {
    setStatus('The crawler table cannot be loaded: ' + e.message, true);
  }
  renderCrawlers(S.table.defaults || []);
  $('default-dialects').textContent = (S.table.default_dialects || []).join(', ');
  renderPurposeStances();
  showChosen();
  editorChanged();
  setMode('paste', true);
  if (location.hash.length > 1) await restore(location.hash);
  else if (ed.ta.value === '' && $('urls').value === '') {
    putInEditor(EXAMPLE, 'the example');
    $('urls').value = EXAMPLE_URLS;
  }
  document.body.dataset.ready = 'true';
}

// ---- Start ----------------------------------------------------------------

init();

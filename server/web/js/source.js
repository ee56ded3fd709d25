// The file the tests ask about: pasted in the editor or fetched live from
// an origin, with the undo bar that puts back what the page replaced.
import { $, api, cap, el, setStatus } from './page.js';
import { S } from './state.js';
import { countLines, ed, highlight, renderGutter } from './editor.js';
import { scheduleFileNames } from './questions.js';
import { markAIDirty } from './ai.js';
import { schedulePermalink } from './permalink.js';

// editorChanged brings what depends on the editor's text up to date: the
// line count and gutter, the AI view's freshness, the names the file gives.
export function editorChanged() {
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

export function setEditor(text) {
  ed.ta.value = text;
  editorChanged();
  highlight(0);
}

// putInEditor shows a file the page loaded (label names it: "the live
// file of https://example.com"). Text the user typed, pasted or edited
// is kept aside, and the undo bar offers to put it back.
export function putInEditor(text, label) {
  const cur = ed.ta.value;
  if (cur !== text && cur.trim() !== '' && !(S.loaded && cur === S.loaded.text)) {
    S.kept = { text: cur, label: 'your text', button: 'Put back my text' };
  }
  S.loaded = { text, label };
  setEditor(text);
  renderUndo();
}

export function renderUndo() {
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

export function setMode(m, keepFocus) {
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

export function tabKeys(tabs, activate) {
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

export function originValue() {
  let o = $('origin').value.trim();
  if (o && !/^[a-z][a-z0-9+.-]*:\/\//i.test(o)) o = 'https://' + o;
  return o;
}

export function kv(list) {
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
export async function fetchLive(quiet) {
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
export function subject() {
  if (S.mode === 'live' && S.liveBody !== null) return { origin: originValue() };
  return { robots: ed.ta.value };
}

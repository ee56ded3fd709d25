// History: the versions of the live file the server has seen.
import { $, api, el, setStatus } from './page.js';
import { lineDiff } from './linediff.js';
import { originValue, putInEditor, setMode } from './source.js';
import { diffFiles, renderChanges } from './diff.js';

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

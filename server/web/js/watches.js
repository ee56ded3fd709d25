// Watches (issue 29): a section of its own, on the page's helpers. It lists
// the server's watches, makes and deletes them, and shows a watch's history:
// each change's verdict flips, fetch-state change and summary of the new
// version. Everything from the server is put in the page as text.
import { $, el, api } from './page.js';

function startWatches() {
  if (!$('watches')) return;

  function status(text, isError) {
    const s = $('watch-status');
    s.textContent = text;
    s.classList.toggle('error', !!isError);
  }

  const when = (t) => (t ? String(t).replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : '');
  const sev = (s) => el('span', { class: 'sev-' + (s || 'info') }, el('span', { class: 'badge' }, s || 'info'));
  const verdict = (v) => el('span', { class: 'verdict ' + (v.allowed ? 'allowed' : 'blocked') }, v.allowed ? 'allowed' : 'blocked',
    v.line ? ` (line ${v.line}${v.rule ? ': ' + v.rule : ''})` : '');

  let selected = '';

  async function refresh() {
    status('Loading the watches…');
    let data;
    try {
      data = await api('GET', '/v1/watches');
    } catch (e) {
      status(e.message, true);
      return;
    }
    const ws = data.watches || [];
    status(ws.length === 0 ? 'No watch yet.' : `${ws.length} ${ws.length === 1 ? 'watch' : 'watches'}; an origin is fetched at most every ${data.min_interval}.`);
    if (ws.length === 0) {
      $('watch-list').replaceChildren();
      $('watch-detail').replaceChildren();
      return;
    }
    const rows = ws.map((w) => el('tr', { class: w.id === selected ? 'sel' : '', 'data-id': w.id },
      el('th', { scope: 'row', class: 'url' }, w.origin),
      el('td', null, String(w.urls.length)),
      el('td', null, w.crawlers.length > 4 ? `${w.crawlers.slice(0, 4).join(', ')} +${w.crawlers.length - 4}` : w.crawlers.join(', ')),
      el('td', null, w.every),
      el('td', null, w.state),
      el('td', null, w.last_check ? when(w.last_check) : 'not yet'),
      el('td', null, w.severity ? sev(w.severity) : '—'),
      el('td', null, w.webhook ? (w.secret ? 'yes, signed' : 'yes') : 'no'),
      el('td', null,
        el('button', { type: 'button', class: 'watch-show', onclick: () => show(w.id) }, 'History'), ' ',
        el('button', { type: 'button', class: 'watch-delete', onclick: (ev) => remove(w.id, w.origin, ev.currentTarget) }, 'Delete'))));
    $('watch-list').replaceChildren(el('table', { class: 'data', id: 'watch-table' },
      el('thead', null, el('tr', null, ['Origin', 'URLs', 'Crawlers', 'Every', 'State', 'Last check', 'Last change', 'Webhook', ''].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', null, rows)));
    if (selected && ws.some((w) => w.id === selected)) await show(selected);
  }

  function summaryBlock(lines) {
    return el('pre', { class: 'summary' }, lines.map((l) => el('span', { class: l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : '' }, l + '\n')));
  }

  function eventBlock(ev) {
    const parts = [el('h4', null, sev(ev.severity), ' ', when(ev.at), ev.baseline ? ' — first check (the baseline)' : '')];
    if (ev.fetch) {
      parts.push(el('p', null, 'The fetch: ', el('strong', null, ev.fetch.before.state || 'new'), ' → ', el('strong', null, ev.fetch.after.state),
        ev.fetch.after.reason ? ` (${ev.fetch.after.reason})` : ''));
    }
    if (ev.changes && ev.changes.length > 0) {
      parts.push(el('table', { class: 'data watch-flips' },
        el('thead', null, el('tr', null, ['URL', 'Crawler', 'Before', 'After'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', null, ev.changes.map((f) => el('tr', { class: 'sev-' + f.severity },
          el('td', { class: 'url' }, f.url), el('td', null, f.crawler), el('td', null, verdict(f.before)), el('td', null, verdict(f.after), ' ', sev(f.severity)))))));
      if (ev.flips > ev.changes.length) parts.push(el('p', { class: 'hint' }, `${ev.flips - ev.changes.length} more flips are in the alert.`));
    }
    if (ev.summary && ev.summary.length > 0) {
      parts.push(el('p', { class: 'small' }, 'What changed in the file', ev.previous && ev.previous.hash ? ` (version ${ev.previous.hash.slice(0, 8)} → ${ev.version.hash.slice(0, 8)})` : '', ':'), summaryBlock(ev.summary));
    } else if (ev.baseline && ev.version) {
      parts.push(el('p', { class: 'small' }, `Version ${ev.version.hash ? ev.version.hash.slice(0, 8) : '(no file)'}: ${ev.version.size} bytes, HTTP ${ev.version.status}.`));
    }
    return el('div', { class: 'watch-event sev-' + ev.severity }, parts);
  }

  async function show(id) {
    selected = id;
    for (const tr of document.querySelectorAll('#watch-table tbody tr')) tr.classList.toggle('sel', tr.dataset.id === id);
    let w;
    try {
      w = await api('GET', '/v1/watches/' + encodeURIComponent(id));
    } catch (e) {
      $('watch-detail').replaceChildren(el('p', { class: 'error' }, e.message));
      return;
    }
    const head = el('h3', { id: 'watch-detail-h' }, `History of ${w.origin}`);
    const few = (xs) => (xs.length > 6 ? `${xs.slice(0, 6).join(', ')} and ${xs.length - 6} more` : xs.join(', '));
    const facts = el('p', { class: 'small' }, `Watching ${few(w.urls)} for ${few(w.crawlers)}, every ${w.every}; ${w.checks} ${w.checks === 1 ? 'check' : 'checks'}`,
      w.next_check ? `, next at ${when(w.next_check)}` : '', '.', w.error ? el('span', { class: 'error' }, ` The last check failed: ${w.error}`) : '');
    const events = (w.history || []).map(eventBlock);
    $('watch-detail').replaceChildren(head, facts, events.length ? el('div', { id: 'watch-events' }, events) : el('p', { class: 'hint' }, 'Not checked yet.'));
  }

  // remove deletes a watch on the second click of its button: the first
  // asks, in the button itself, for a confirmation.
  async function remove(id, origin, btn) {
    if (btn.dataset.armed !== 'true') {
      btn.dataset.armed = 'true';
      btn.textContent = 'Really delete';
      btn.title = `Stop watching ${origin}; its history goes too`;
      status(`Press "Really delete" to stop watching ${origin}: its history goes too.`);
      return;
    }
    try {
      await api('DELETE', '/v1/watches/' + encodeURIComponent(id));
    } catch (e) {
      status(e.message, true);
      return;
    }
    if (selected === id) {
      selected = '';
      $('watch-detail').replaceChildren();
    }
    await refresh();
  }

  $('watch-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const split = (s, re) => s.split(re).map((x) => x.trim()).filter((x) => x !== '');
    const body = { origin: $('watch-origin').value.trim(), urls: split($('watch-urls').value, /\n/) };
    const crawlers = split($('watch-crawlers').value, /,/);
    if (crawlers.length) body.crawlers = crawlers;
    for (const k of ['every', 'webhook', 'secret']) {
      const v = $('watch-' + k).value.trim();
      if (v) body[k] = v;
    }
    let w;
    try {
      w = await api('POST', '/v1/watches', body);
    } catch (e) {
      status(e.message, true);
      return;
    }
    $('watch-secret').value = '';
    if (w.owner_secret) localStorage.setItem('robotstxt-watch-owner', w.owner_secret);
    selected = w.id;
    await refresh();
    status(`Watching ${w.origin} (${w.urls.length} ${w.urls.length === 1 ? 'URL' : 'URLs'}, ${w.crawlers.length} ${w.crawlers.length === 1 ? 'crawler' : 'crawlers'}); the first check sets the baseline.`);
  });
  $('watch-refresh').addEventListener('click', refresh);
}

startWatches();

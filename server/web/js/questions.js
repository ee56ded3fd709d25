// The questions: the URLs, the crawlers of the table and the other
// product tokens, and the crawlers the file names that are not asked about.
import { $, api, el } from './page.js';
import { S } from './state.js';
import { ed } from './editor.js';
import { originValue } from './source.js';

export function renderCrawlers(chosen) {
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

export function showChosen() {
  const names = selectedCrawlers();
  $('crawlers-chosen').textContent = names.length ? `Chosen: ${names.join(', ')}` : 'None chosen: Googlebot is asked unless tokens are given.';
}

export function selectedCrawlers() {
  return [...$('crawler-list').querySelectorAll('input:checked')].map((i) => i.value);
}

export function setCrawlers(names) {
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
export function scheduleFileNames() {
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

export function agentList() {
  return $('agents').value.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
}

// urlList reads the URL box: absolute URLs as given, host/path with
// https://, paths after the origin of a live file, as typed (a path's
// dot segments are the server's to read, as check reads them).
export function urlList() {
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

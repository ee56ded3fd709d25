// Audit an access log (issue 27): a section of its own, on the page's
// helpers. It sends the pasted log and the file in the editor to
// POST /v1/audit and shows the report: the crawlers with their requests,
// disallowed requests and identities, and each crawler's top disallowed
// paths, each a link that opens the tester (a permalink: the file, the path
// and the crawler). Everything from the server is put in the page as text.
import { $, el } from './page.js';
import { b64u } from './statecodec.js';

function startAudit() {
  if (!$('audit')) return;

  function status(text, isError) {
    const s = $('audit-status');
    s.textContent = text;
    s.classList.toggle('error', !!isError);
  }

  const n = (x) => Number(x || 0).toLocaleString('en-US');
  const plural = (k, one, many) => `${n(k)} ${k === 1 ? one : many}`;

  // testerLink is the address of the tester with the file, one URL and one
  // crawler, as a permalink holds them (#j=: JSON, base64url).
  function testerLink(robots, path, crawler) {
    const st = { v: 1, mode: 'paste', robots, urls: path, crawlers: [crawler], agents: '', view: 'results' };
    const bytes = new TextEncoder().encode(JSON.stringify(st));
    return location.href.split('#')[0] + '#j=' + b64u(bytes);
  }

  function table(head, rows) {
    return el('table', { class: 'data' },
      el('thead', null, el('tr', null, head.map(([h, num]) => el('th', { class: num ? 'num' : null, scope: 'col' }, h)))),
      el('tbody', null, rows));
  }

  function render(rep, robots) {
    const out = [];
    out.push(el('p', { id: 'audit-summary' },
      `${plural(rep.lines, 'line', 'lines')} (${rep.format}), ${n(rep.unparsed)} unparsed; ${plural(rep.requests, 'request', 'requests')}, ${n(rep.crawler_requests)} by known crawlers, ${n(rep.disallowed)} disallowed.`));
    if ((rep.unparsed_samples || []).length) {
      out.push(el('ul', { class: 'audit-samples' }, rep.unparsed_samples.map((s) => el('li', null, `line ${s.line}: ${s.error.replace(/^accesslog: /, '')}`))));
    }
    const crawlers = rep.crawlers || [];
    if (!crawlers.length) {
      out.push(el('p', null, 'No request named a known crawler.'));
    } else {
      out.push(table([['Crawler'], ['Requests', 1], ['Disallowed', 1], ['Verified', 1], ['Spoofed', 1], ['Unverified', 1], ['First seen'], ['Last seen']],
        crawlers.map((c) => el('tr', { 'data-crawler': c.crawler },
          el('th', { scope: 'row' }, c.crawler),
          [c.requests, c.disallowed, c.verified, c.spoofed, c.unverified].map((x) => el('td', { class: 'num' }, n(x))),
          el('td', null, c.first_seen || ''), el('td', null, c.last_seen || '')))));
    }
    for (const c of crawlers) {
      if (!c.disallowed) continue;
      out.push(el('div', { class: 'audit-crawler' },
        el('h3', null, `${c.crawler}: ${plural(c.disallowed, 'disallowed request', 'disallowed requests')}`),
        table([['Requests', 1], ['Path'], ['Deciding line']], (c.top_disallowed || []).map((p) => el('tr', null,
          el('td', { class: 'num' }, (p.count_error ? '≤ ' : '') + n(p.count)),
          el('td', { class: 'audit-paths' }, el('a', { class: 'url', href: testerLink(robots, p.path, c.crawler), title: `Open ${p.path} for ${c.crawler} in the tester` }, p.path)),
          el('td', null, p.line ? `line ${p.line}: ${p.rule}` : '')))),
      ));
    }
    if ((rep.unknown_bots || []).length) {
      out.push(el('h3', null, 'Unknown bot-like agents'));
      out.push(table([['Requests', 1], ['Agent']], rep.unknown_bots.map((u) => el('tr', null, el('td', { class: 'num' }, n(u.requests)), el('td', { class: 'url' }, u.agent)))));
    }
    $('audit-out').replaceChildren(...out);
  }

  async function runAudit() {
    const log = $('audit-log').value;
    const robots = $('robots').value;
    if (!log.trim()) {
      status('Paste some lines of an access log first.', true);
      $('audit-log').focus();
      return;
    }
    const body = { log, robots: robots === '' ? '\n' : robots };
    const format = $('audit-format').value;
    if (format) body.format = format;
    if ($('audit-unknown').checked) body.unknown_bots = true;
    const headers = { 'Content-Type': 'application/json' };
    const token = sessionStorage.getItem('robotstxt-token') || '';
    if (token) headers.Authorization = 'Bearer ' + token;
    status('Auditing …');
    let resp, data = null;
    try {
      resp = await fetch('/v1/audit', { method: 'POST', headers, body: JSON.stringify(body) });
      try { data = await resp.json(); } catch (e) { /* not JSON */ }
    } catch (e) {
      status('The server does not answer: ' + e.message, true);
      return;
    }
    if (!resp.ok) {
      if (resp.status === 401 && $('token-form')) $('token-form').hidden = false;
      status((data && typeof data.error === 'string') ? data.error : `POST /v1/audit: HTTP ${resp.status}`, true);
      return;
    }
    render(data, body.robots);
    status(`${plural(data.disallowed, 'disallowed request', 'disallowed requests')} by ${plural((data.crawlers || []).filter((c) => c.disallowed).length, 'crawler', 'crawlers')}.`);
  }

  $('audit-run').addEventListener('click', runAudit);
}

startAudit();

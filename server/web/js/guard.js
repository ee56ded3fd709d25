// The guard's decisions (issue 37): a section of its own, on the page's
// helpers. It reads GET /v1/guard, the end of the decision log that
// robotstxt guard --decisions writes (serve --guard-decisions FILE names
// it), and shows the counts by crawler, outcome and action and the last
// decisions; "Follow" reads it again every 5 seconds while the page is
// shown. Everything from the server is put in the page as text.
import { $, el, api, counted } from './page.js';

function startGuard() {
  if (!$('guard')) return;
  let timer = null;

  function status(text, isError) {
    const s = $('guard-status');
    s.textContent = text;
    s.classList.toggle('error', !!isError);
  }

  const n = (x) => Number(x || 0).toLocaleString('en-US');

  function table(head, rows) {
    return el('table', { class: 'data' },
      el('thead', null, el('tr', null, head.map(([h, num]) => el('th', { class: num ? 'num' : null, scope: 'col' }, h)))),
      el('tbody', null, rows));
  }

  // blocks says whether an action answered in the site's place.
  const blocks = (a) => a === '403' || a === '402' || a === '429' || a === 'tarpit';

  function render(v) {
    const out = [];
    if (!v.configured) {
      out.push(el('p', null, 'No decision log: start the server with --guard-decisions FILE, the file robotstxt guard --decisions writes.'));
      $('guard-out').replaceChildren(...out);
      return;
    }
    out.push(el('p', { id: 'guard-summary' },
      `${counted(v.read, 'decision', 'decisions')} at the end of ${v.file}` +
      (v.from ? `, ${v.from} to ${v.to}` : '') + (v.unparsed ? `; ${n(v.unparsed)} lines not decisions` : '') + '.'));
    if (v.counts.length) {
      out.push(el('h3', null, 'By crawler, outcome and action'));
      out.push(table([['Crawler'], ['Outcome'], ['Action'], ['Decisions', 1]],
        v.counts.map((c) => el('tr', { class: blocks(c.action) ? 'guard-blocked' : null },
          el('th', { scope: 'row' }, c.crawler), el('td', null, c.outcome), el('td', null, c.action),
          el('td', { class: 'num' }, n(c.count))))));
    }
    if (v.recent.length) {
      out.push(el('h3', null, 'Last decisions, newest first'));
      out.push(table([['Time'], ['Address'], ['Crawler'], ['Identity'], ['Request'], ['Outcome'], ['Action'], ['Deciding line']],
        v.recent.map((d) => el('tr', { class: blocks(d.action) ? 'guard-blocked' : null },
          el('td', null, d.time || ''), el('td', null, d.ip || ''), el('td', null, d.claimed || ''),
          el('td', null, d.identity ? d.identity.outcome : ''),
          el('td', { class: 'url' }, `${d.method || 'GET'} ${d.host || ''}${d.path || ''}`),
          el('td', null, d.outcome || ''),
          el('td', null, d.action === d.would || !d.would ? (d.action || '') : `${d.action} (would ${d.would})`),
          el('td', null, d.line ? `line ${d.line}: ${d.line_text || ''}` : '')))));
    }
    $('guard-out').replaceChildren(...out);
  }

  async function load() {
    try {
      const v = await api('GET', '/v1/guard');
      render(v);
      status(v.configured ? `Read at ${new Date().toLocaleTimeString()}.` : '');
    } catch (e) {
      status(e.message, true);
    }
  }

  function follow(on) {
    if (timer) clearInterval(timer);
    timer = null;
    if (on) {
      load();
      timer = setInterval(() => { if (!document.hidden) load(); }, 5000);
    }
  }

  $('guard-refresh').addEventListener('click', load);
  $('guard-follow').addEventListener('change', (e) => follow(e.target.checked));
}

startGuard();

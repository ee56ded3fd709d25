// Diff: what changes between two versions of the file, verdict by
// verdict (POST /v1/diff), and their lines.
import { $, api, counted, el } from './page.js';
import { S } from './state.js';
import { ed } from './editor.js';
import { lineDiff } from './linediff.js';
import { question, verdictText } from './results.js';
import { schedulePermalink } from './permalink.js';

export function renderChanges(rep, out, extra) {
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

export async function diffFiles(oldText, newText, mine) {
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

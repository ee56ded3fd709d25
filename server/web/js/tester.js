// The tester: the file (pasted or live, source.js), the questions
// (questions.js) and the views that answer them (results, dialects, lint,
// AI and the policy writer, diff, history), with the permalink that keeps
// it all in the address. This module starts it: it loads the sections,
// holds the example and the files out (the edited file, the results as
// CSV and Markdown), and loads the crawler table. The state the sections
// share is in state.js.
import { $, api, setStatus } from './page.js';
import { S } from './state.js';
import { ed } from './editor.js';
import { copyText, save, toCSV, toMarkdown } from './files.js';
import { editorChanged, putInEditor, setMode } from './source.js';
import { renderCrawlers, setCrawlers, showChosen } from './questions.js';
import { renderPurposeStances } from './ai.js';
import { restore, schedulePermalink } from './permalink.js';
import './views.js';
import './results.js';
import './dialects.js';
import './lint.js';
import './diff.js';
import './history.js';

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

$('token-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const token = $('token').value.trim();
  sessionStorage.setItem('robotstxt-token', token);
  $('token-form').hidden = true;
  init();
});
// ---- Start ----------------------------------------------------------------

init();

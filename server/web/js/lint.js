// Lint: the findings, in the view and as marks in the editor's gutter.
import { $, api, counted, el } from './page.js';
import { S } from './state.js';
import { ed, renderGutter } from './editor.js';
import { lineButton } from './results.js';

export async function runLint() {
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

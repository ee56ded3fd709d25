// The tabs of the views: results, dialects, lint, AI, diff, history.
import { $ } from './page.js';
import { S } from './state.js';
import { VIEWS } from './statecodec.js';
import { tabKeys } from './source.js';
import { runCompare } from './dialects.js';
import { runLint } from './lint.js';
import { runAI } from './ai.js';
import { schedulePermalink } from './permalink.js';

const viewTabs = VIEWS.map((v) => $('tab-' + v));

export function showView(v, focus) {
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

// The permalink: the page's whole state in the address's fragment, kept
// up to date and restored on load (the codec is statecodec.js).
import { $, setStatus } from './page.js';
import { S } from './state.js';
import { ed } from './editor.js';
import { decodeState, encodeState } from './statecodec.js';
import { editorChanged, fetchLive, renderUndo, setMode } from './source.js';
import { selectedCrawlers, setCrawlers, urlList } from './questions.js';
import { showView } from './views.js';
import { run } from './results.js';
import { renderPurposeStances, stances } from './ai.js';

// getState is the page's state as a permalink keeps it.
function getState() {
  return {
    v: 1, mode: S.mode, origin: $('origin').value, robots: ed.ta.value, urls: $('urls').value,
    crawlers: selectedCrawlers(), agents: $('agents').value, view: S.view, sel: S.selected, old: $('old').value,
    aiAll: $('ai-all').checked, stances, denyMore: $('policy-deny-more').value, allowMore: $('policy-allow-more').value,
  };
}

let permalinkTimer = 0;
let restoring = false;

export function schedulePermalink() {
  if (restoring) return;
  clearTimeout(permalinkTimer);
  permalinkTimer = setTimeout(updatePermalink, 150);
}

async function updatePermalink() {
  const frag = await encodeState(getState());
  const url = location.href.split('#')[0] + '#' + frag;
  history.replaceState(null, '', url);
  $('permalink').value = url;
  return url;
}

$('permalink-btn').addEventListener('click', async () => {
  const url = await updatePermalink();
  const input = $('permalink');
  try {
    await navigator.clipboard.writeText(url);
    setStatus(`Permalink copied (${url.length} characters; the state travels in the address, nothing is stored on the server).`);
  } catch (e) {
    input.focus();
    input.select();
    setStatus('Permalink selected below the title: copy it with Ctrl+C.');
  }
});

export async function restore(hash) {
  let st;
  try {
    st = await decodeState(hash);
  } catch (e) {
    setStatus('This permalink cannot be read: ' + e.message, true);
    return;
  }
  if (!st) return;
  restoring = true;
  try {
    $('origin').value = st.origin;
    $('urls').value = st.urls;
    $('agents').value = st.agents;
    if (st.crawlers) setCrawlers(st.crawlers);
    $('old').value = st.old;
    $('ai-all').checked = st.aiAll;
    stances.purposes = st.stances.purposes;
    stances.crawlers = st.stances.crawlers;
    $('policy-deny-more').value = st.denyMore;
    $('policy-allow-more').value = st.allowMore;
    renderPurposeStances();
    ed.ta.value = st.robots;
    editorChanged();
    S.liveBody = null;
    S.kept = null;
    renderUndo();
    if (st.mode === 'live' && st.origin) {
      // The permalink's text was the live file then: the file fetched
      // now replaces it, it is not the user's.
      loaded = { text: st.robots, label: 'the file of the permalink' };
      await fetchLive(true);
    } else {
      setMode('paste', true);
    }
    showView(st.view);
    if (urlList().length) await run(st.sel);
  } finally {
    restoring = false;
  }
  document.body.dataset.restored = 'true';
  schedulePermalink();
}

window.addEventListener('hashchange', () => restore(location.hash));

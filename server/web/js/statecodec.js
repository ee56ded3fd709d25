import { $ } from './page.js';

// The permalink's codec: the page's state as JSON, deflated where the
// browser can, in base64url after the address's #z= (or #j=: JSON only).

// VIEWS are the tester's views, in the order of their tabs.
export const VIEWS = ['results', 'dialects', 'lint', 'ai', 'diff', 'history'];

const MAX_STATE = 16 << 20;

export function b64u(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function unb64u(s) {
  s = s.replace(/-/g, '+').replace(/_/g, '/');
  while (s.length % 4) s += '=';
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export async function readAll(stream) {
  const reader = stream.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > MAX_STATE) { reader.cancel(); throw new Error('the permalink holds more than 16 MiB'); }
    chunks.push(value);
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) { out.set(c, o); o += c.length; }
  return out;
}

export async function encodeState(st) {
  const bytes = new TextEncoder().encode(JSON.stringify(st));
  if (typeof CompressionStream === 'function') {
    const z = await readAll(new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw')));
    return 'z=' + b64u(z);
  }
  return 'j=' + b64u(bytes);
}

export async function decodeState(hash) {
  const m = /^#([zj])=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!m) return null;
  let bytes = unb64u(m[2]);
  if (m[1] === 'z') bytes = await readAll(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')));
  const st = JSON.parse(new TextDecoder().decode(bytes));
  if (!st || typeof st !== 'object') throw new Error('not a state');
  const str = (v) => (typeof v === 'string' ? v : '');
  return {
    mode: st.mode === 'live' ? 'live' : 'paste', origin: str(st.origin), robots: str(st.robots), urls: str(st.urls),
    crawlers: Array.isArray(st.crawlers) ? st.crawlers.filter((c) => typeof c === 'string') : null,
    agents: str(st.agents), view: VIEWS.includes(st.view) ? st.view : 'results', old: str(st.old),
    sel: Array.isArray(st.sel) && st.sel.length === 2 && st.sel.every((x) => Number.isInteger(x) && x >= 0) ? st.sel : null,
    aiAll: st.aiAll === true, stances: { purposes: stanceMap(st.stances, 'purposes'), crawlers: stanceMap(st.stances, 'crawlers') },
    denyMore: str(st.denyMore), allowMore: str(st.allowMore),
  };
}

// stanceMap reads one map of a permalink's stances: names to 'allow' or
// 'deny', nothing else.
export function stanceMap(st, kind) {
  const out = Object.create(null);
  const m = st && typeof st === 'object' ? st[kind] : null;
  if (!m || typeof m !== 'object') return out;
  for (const [k, v] of Object.entries(m)) {
    if ((v === 'allow' || v === 'deny') && k.length <= 256) out[k] = v;
  }
  return out;
}

// The helpers every section of the page uses: $, el and api, the status
// line and the wording of counts. Everything read from the file, the
// server or a permalink is put in the page as text (textContent, text
// nodes, attribute values): never as HTML.

export const $ = (id) => document.getElementById(id);

// el builds an element: props set attributes (class, text, on<event>),
// children are nodes or strings (strings become text nodes).
export function el(tag, props, ...kids) {
  const e = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const k of kids.flat()) {
    if (k === undefined || k === null || k === false) continue;
    e.append(k instanceof Node ? k : String(k));
  }
  return e;
}

// api calls the server's API with the token the page was given, if any:
// the answer's JSON, or an Error saying what went wrong (the API's error
// message, with its status and field). A 401 shows the token form.
export async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = sessionStorage.getItem('robotstxt-token') || '';
  if (token) headers.Authorization = 'Bearer ' + token;
  // The watches this browser made are owned by the secret their first
  // creation answered (docs/watch.md): kept here, and shown to no one.
  const owner = path.startsWith('/v1/watches') ? (localStorage.getItem('robotstxt-watch-owner') || '') : '';
  if (owner) headers['X-Robotstxt-Owner'] = owner;
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error('the server does not answer: ' + e.message);
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { /* not JSON */ }
  if (!resp.ok) {
    if (resp.status === 401 && $('token-form')) $('token-form').hidden = false;
    const err = new Error((data && typeof data.error === 'string') ? data.error : `${method} ${path}: HTTP ${resp.status}`);
    err.status = resp.status;
    err.field = data && data.field;
    throw err;
  }
  return data;
}

// ---- Status -------------------------------------------------------------

export function setStatus(text, isError) {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', !!isError);
  s.setAttribute('role', isError ? 'alert' : 'status');
}

export function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
// counted is n with its noun: "1 warning", "2 warnings".
export function counted(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

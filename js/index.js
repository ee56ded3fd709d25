'use strict';
// robotstxt: Google's exact robots.txt answers for JavaScript, from the
// robotstxt Go core compiled to WebAssembly (robotstxt.wasm, a WASI
// reactor built by `make js`). A drop-in for robots-parser:
//
//   const robotsParser = require('./js');
//   const robots = robotsParser('https://example.com/robots.txt', body);
//   robots.isAllowed('https://example.com/a', 'MyBot/1.0');
//
// plus decide() (the deciding line, rule and group), usage() (AI usage
// preferences), forStatus() (the fetch-status rules) and more. The module
// is ready when require returns: it compiles the WebAssembly synchronously.

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const WASM = path.join(__dirname, 'robotstxt.wasm');

const ENOSYS = 52;
const EBADF = 8;

// The few WASI calls the Go runtime makes, on the module's memory.
function wasiImports(getMemory) {
  const view = () => new DataView(getMemory().buffer);
  const impl = {
    args_sizes_get(argc, size) { const v = view(); v.setUint32(argc, 0, true); v.setUint32(size, 0, true); return 0; },
    args_get() { return 0; },
    environ_sizes_get(n, size) { const v = view(); v.setUint32(n, 0, true); v.setUint32(size, 0, true); return 0; },
    environ_get() { return 0; },
    clock_time_get(id, _precision, out) {
      const ns = id === 0 ? BigInt(Date.now()) * 1000000n : process.hrtime.bigint();
      view().setBigUint64(out, ns, true);
      return 0;
    },
    random_get(ptr, len) {
      crypto.randomFillSync(new Uint8Array(getMemory().buffer, ptr, len));
      return 0;
    },
    fd_write(fd, iovs, iovsLen, nwritten) {
      const v = view();
      let n = 0;
      const parts = [];
      for (let i = 0; i < iovsLen; i++) {
        const p = v.getUint32(iovs + i * 8, true);
        const l = v.getUint32(iovs + i * 8 + 4, true);
        parts.push(Buffer.from(new Uint8Array(getMemory().buffer, p, l)));
        n += l;
      }
      if (fd === 1 || fd === 2) {
        (fd === 1 ? process.stdout : process.stderr).write(Buffer.concat(parts));
      }
      v.setUint32(nwritten, n, true);
      return 0;
    },
    fd_fdstat_get(fd, out) {
      if (fd > 2) return EBADF;
      const v = view();
      for (let i = 0; i < 24; i++) v.setUint8(out + i, 0);
      v.setUint8(out, 2); // a character device
      return 0;
    },
    fd_prestat_get() { return EBADF; },
    sched_yield() { return 0; },
    proc_exit(code) { throw new Error('robotstxt: the WebAssembly module exited (' + code + ')'); },
  };
  return new Proxy(impl, {
    get(target, name) { return target[name] || (() => ENOSYS); },
  });
}

let memory;
const wasmModule = new WebAssembly.Module(fs.readFileSync(WASM));
const instance = new WebAssembly.Instance(wasmModule, {
  wasi_snapshot_preview1: wasiImports(() => memory),
});
const X = instance.exports;
memory = X.memory;
X._initialize();

const encoder = new TextEncoder();
const decoder = new TextDecoder();

let inPtr = 0;
let inCap = 0;
let bytes = new Uint8Array(memory.buffer);

// The input buffer, at least n bytes, and a current view of memory.
function input(n) {
  if (n > inCap) {
    lastAgent = null;
    inCap = Math.max(n, 2 * inCap, 1024);
    inPtr = X.rtx_input(inCap);
  }
  if (bytes.buffer !== memory.buffer) bytes = new Uint8Array(memory.buffer);
}

// The agent whose bytes are at the start of the input buffer (so that a
// run of questions from one agent writes only their URLs), and its length.
let lastAgent = null;
let lastAgentLen = 0;

// Writes agent then url into the input buffer; returns their lengths.
function putAsk(agent, url) {
  const room = url.length * 3;
  if (agent === lastAgent && lastAgentLen + room <= inCap) {
    if (bytes.buffer !== memory.buffer) bytes = new Uint8Array(memory.buffer);
    return write(url, inPtr + lastAgentLen, room);
  }
  const [na, nu] = put(agent, url);
  lastAgent = agent;
  lastAgentLen = na;
  return nu;
}

// Writes the strings one after the other into the input buffer; returns
// their lengths in bytes.
function put(a, b) {
  lastAgent = null;
  const la = typeof a === 'string' ? a.length * 3 : a.length;
  const lb = b === undefined ? 0 : (typeof b === 'string' ? b.length * 3 : b.length);
  input(la + lb);
  const na = write(a, inPtr, la);
  const nb = b === undefined ? 0 : write(b, inPtr + na, lb);
  return [na, nb];
}

function write(s, at, room) {
  if (typeof s === 'string') {
    return encoder.encodeInto(s, bytes.subarray(at, at + room)).written;
  }
  bytes.set(s, at);
  return s.length;
}

function output(n) {
  const p = X.rtx_output();
  return decoder.decode(new Uint8Array(memory.buffer, p, n));
}

function check(n) {
  if (n < 0) {
    const msg = output(X.rtx_output_len());
    throw new (msg.includes('internal error') ? Error : RangeError)(msg);
  }
  return n;
}

const TOKEN = 0;
const HEADER = 1;
const CRAWLER = 2;
const dialects = new Map();

function dialectNumber(d) {
  if (d === undefined || d === null) return 0;
  if (typeof d === 'number') return d;
  let n = dialects.get(d);
  if (n === undefined) {
    const [len] = put(String(d));
    n = check(X.rtx_dialect(len));
    dialects.set(d, n);
  }
  return n;
}

// Who asks: opts.token (a product token, matched as given), opts.crawler
// (a catalogue crawler's name) or a User-Agent header (its product token).
function who(ua, opts) {
  if (opts && opts.token !== undefined) return [String(opts.token), TOKEN];
  if (opts && opts.crawler !== undefined) return [String(opts.crawler), CRAWLER];
  return [ua === undefined || ua === null ? '' : String(ua), HEADER];
}

function bodyBytes(contents) {
  if (contents === undefined || contents === null) return new Uint8Array(0);
  if (typeof contents === 'string') return encoder.encode(contents);
  if (contents instanceof Uint8Array) return contents;
  if (contents instanceof ArrayBuffer) return new Uint8Array(contents);
  return encoder.encode(String(contents));
}

const registry = new FinalizationRegistry((h) => X.rtx_free(h));

// The product token of a User-Agent header (robotstxt.ProductToken),
// remembered for the last few headers seen.
const tokens = new Map();
function productToken(ua) {
  ua = ua === undefined || ua === null ? '' : String(ua);
  let t = tokens.get(ua);
  if (t === undefined) {
    const [n] = put(ua);
    t = output(check(X.rtx_token(n)));
    if (tokens.size >= 256) tokens.clear();
    tokens.set(ua, t);
  }
  return t;
}

function json(n) { return JSON.parse(output(check(n))); }

class Robots {
  constructor(url, handle) {
    this._url = url;
    this._h = handle;
    this._info = null;
    this._origin = null;
    this._prefix = null;
    try {
      const u = new URL(url);
      this._origin = u;
      this._prefix = u.protocol + '//' + u.host;
    } catch (e) {
      // robots-parser's rule: no URL is valid for a file without one.
    }
    registry.register(this, handle, this);
  }

  // Whether url belongs to the origin of the robots.txt URL (as
  // robots-parser checks it: protocol, host name and port).
  _sameOrigin(url) {
    const p = this._prefix;
    if (p === null) return false;
    if (url.startsWith(p)) {
      const c = url.charCodeAt(p.length);
      if (Number.isNaN(c) || c === 47 || c === 63 || c === 35) return true; // end, '/', '?', '#'
    }
    let u;
    try { u = new URL(url); } catch (e) { return false; }
    const o = this._origin;
    return u.protocol === o.protocol && u.hostname === o.hostname && u.port === o.port;
  }

  _ask(url, ua, kind, dialect) {
    url = String(url);
    const [na, nu] = put(ua, url);
    return check(X.rtx_ask(this._h, na, kind, nu, dialect));
  }

  /** Whether ua (a User-Agent header or product token) may fetch url:
   * Google's answer; undefined when url is not of this file's origin. */
  isAllowed(url, ua) {
    url = String(url);
    if (!this._sameOrigin(url)) return undefined;
    const token = productToken(ua);
    const nu = putAsk(token, url);
    return check(X.rtx_allowed(this._h, lastAgentLen, TOKEN, nu, 0)) === 1;
  }

  /** The negation of isAllowed (true when url is not of this origin, as
   * robots-parser answers). */
  isDisallowed(url, ua) { return !this.isAllowed(url, ua); }

  /** The line of the rule that decides, -1 when none does (or url is not
   * of this origin). */
  getMatchingLineNumber(url, ua) {
    if (!this._sameOrigin(String(url))) return -1;
    const line = this._ask(url, ua === undefined ? '' : String(ua), HEADER, 0) >> 1;
    return line === 0 ? -1 : line;
  }

  /** The verdict and deciding line for a product token as given (Google's
   * OneAgentAllowedByRobots), with no origin check: {allowed, line}. */
  allowed(url, token, dialect) {
    const v = this._ask(url, String(token), TOKEN, dialectNumber(dialect));
    return { allowed: (v & 1) === 1, line: v >> 1 };
  }

  /** The crawl-delay in seconds that applies to ua, or undefined. */
  getCrawlDelay(ua) {
    const cd = this.pace(ua).crawl_delay;
    return cd === null ? undefined : cd;
  }

  /** crawl-delay, request-rate and visit-time, as the file asks them of
   * ua (or opts.token, opts.crawler), with their lines. */
  pace(ua, opts) {
    const [a, kind] = who(ua, opts);
    const [na] = put(a);
    return json(X.rtx_crawl_delay(this._h, na, kind, dialectNumber(opts && opts.dialect)));
  }

  _infoJSON() {
    if (this._info === null) this._info = json(X.rtx_info(this._h));
    return this._info;
  }

  /** The sitemap URLs, in file order. */
  getSitemaps() { return this._infoJSON().sitemaps.map((s) => s.url); }

  /** The first host line's value, or null. */
  getPreferredHost() {
    const h = this._infoJSON().hosts;
    return h.length ? h[0].value : null;
  }

  /** "rules", "allow-all" or "disallow-all" (see forStatus). */
  get policy() { return this._infoJSON().policy; }

  /** Why the policy applies, in words. */
  get reason() { return this._infoJSON().reason; }

  /** Whether the answer must be retried (5xx, 429, no answer). */
  get unreachable() { return this._infoJSON().unreachable; }

  /** The verdict for url with what decided it: {allowed, line, dialect,
   * path, rule, group, reason, crawl_delay, crawl_delay_line}. Who asks:
   * ua, or opts.token or opts.crawler; opts.dialect names a dialect. */
  decide(url, ua, opts) {
    const [a, kind] = who(ua, opts);
    const [na, nu] = put(a, String(url));
    return json(X.rtx_decide(this._h, na, kind, nu, dialectNumber(opts && opts.dialect)));
  }

  /** The AI usage preferences for url: {allowed, line, usage, signals}. */
  usage(url, ua, opts) {
    const [a, kind] = who(ua, opts);
    const [na, nu] = put(a, String(url));
    return json(X.rtx_usage(this._h, na, kind, nu, dialectNumber(opts && opts.dialect)));
  }

  /** Releases the file now; later questions throw. */
  free() {
    if (this._h > 0) {
      X.rtx_free(this._h);
      registry.unregister(this);
      this._h = 0;
    }
  }
}

/** Parses contents (a string or bytes), the robots.txt at url. */
function robotsParser(url, contents) {
  const body = bodyBytes(contents);
  input(body.length);
  bytes.set(body, inPtr);
  return new Robots(String(url), check(X.rtx_parse(body.length)));
}

/** The answer to a request for the robots.txt at url, under the fetch
 * rules of opts.dialect (Google's by default): 2xx, its rules; 3xx and
 * 4xx, allow all; 429, 5xx and no answer (status 0), disallow all. */
function forStatus(url, status, contents, opts) {
  const body = bodyBytes(contents);
  const ct = encoder.encode((opts && opts.contentType) || '');
  input(ct.length + body.length);
  bytes.set(ct, inPtr);
  bytes.set(body, inPtr + ct.length);
  const h = check(X.rtx_for_status(status | 0, ct.length, body.length, dialectNumber(opts && opts.dialect)));
  return new Robots(String(url), h);
}

module.exports = robotsParser;
module.exports.robotsParser = robotsParser;
module.exports.forStatus = forStatus;
module.exports.Robots = Robots;
module.exports.alive = () => X.rtx_alive();
module.exports.default = robotsParser;

'use strict';
// Side by side: this package and robots-parser against Google's answers,
// and their speed, in one run (docs/bindings.md shows the table).
//
//   node js/bench/compare.js [--sample N] [--repeat R] [--peer DIR]
//
// robots-parser is loaded from DIR (a folder holding node_modules, by
// default js/.dev, where `make js-compare` installs it with npm); without
// it only this package's rows are printed. Agreement: Google's 145 suite
// cases (verdict) and the corpus's golden questions (verdict and line;
// robots-parser's line is its matching line). Speed, medians over the
// files: a question after the parse (the file's questions asked once,
// then R times timed),
// and a parse plus first answer (mean of 3); each parser runs over every
// file in its own pass, twice, and each file's better time counts.
const path = require('path');
const robotsParser = require('..');
const { googleCases, goldenCases } = require('../test/data');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}
const sample = Number(arg('--sample', 0));
const repeat = Number(arg('--repeat', 20));
const peerDir = arg('--peer', path.join(__dirname, '..', '.dev'));

let peer = null;
try {
  peer = require(require.resolve('robots-parser', { paths: [peerDir] }));
} catch (e) {
  peer = null;
}

// The robots.txt URL of a question's origin (robots-parser answers only
// for URLs of its file's origin).
function robotsURL(url) {
  try {
    const u = new URL(url);
    return u.protocol + '//' + u.host + '/robots.txt';
  } catch (e) {
    return 'http://example.com/robots.txt';
  }
}

const suite = googleCases();
let files = goldenCases();
if (sample) files = files.filter((_, i) => i % Math.max(1, Math.floor(files.length / sample)) === 0);
const nq = files.reduce((n, f) => n + f.questions.length, 0);

const res = { oursSuite: 0, oursVerdict: 0, oursLine: 0, peerSuite: 0, peerVerdict: 0, peerLine: 0 };
for (const c of suite) {
  const r = robotsParser(robotsURL(c.url), c.robots);
  res.oursSuite += r.allowed(c.url, c.ua).allowed === c.allowed;
  r.free();
  if (peer) res.peerSuite += peer(robotsURL(c.url), c.robots.toString('utf8')).isAllowed(c.url, c.ua) === c.allowed;
}
for (const f of files) {
  const r = robotsParser('http://example.com/robots.txt', f.body);
  const text = f.body.toString('utf8');
  const peers = new Map();
  for (const q of f.questions) {
    const got = r.allowed(q.url, q.ua);
    res.oursVerdict += got.allowed === q.allowed;
    res.oursLine += got.allowed === q.allowed && got.line === q.line;
    if (peer) {
      const ru = robotsURL(q.url);
      if (!peers.has(ru)) peers.set(ru, peer(ru, text));
      const p = peers.get(ru);
      const ok = p.isAllowed(q.url, q.ua) === q.allowed;
      res.peerVerdict += ok;
      const line = p.getMatchingLineNumber(q.url, q.ua);
      res.peerLine += ok && (line === -1 ? 0 : line) === q.line;
    }
  }
  r.free();
}

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

function pass(parse) {
  const q = [];
  const f = [];
  for (const file of files) {
    const u = file.questions[0].url;
    const ru = robotsURL(u);
    const ua = file.questions[0].ua;
    const body = file.input;
    let t = process.hrtime.bigint();
    for (let k = 0; k < 3; k++) {
      const r = parse(ru, body);
      r.isAllowed(u, ua);
      if (r.free) r.free();
    }
    f.push(Number(process.hrtime.bigint() - t) / 3);
    const r = parse(ru, body);
    const qs = file.questions.filter((x) => robotsURL(x.url) === ru);
    for (const x of qs) r.isAllowed(x.url, x.ua); // the first answers (a file's first are read from its lines)
    t = process.hrtime.bigint();
    for (let k = 0; k < repeat; k++) for (const x of qs) r.isAllowed(x.url, x.ua);
    q.push(Number(process.hrtime.bigint() - t) / (repeat * qs.length));
    if (r.free) r.free();
  }
  return [q, f];
}

for (const f of files) f.input = f.body.toString('utf8');
const rounds = [];
for (let i = 0; i < 2; i++) rounds.push([pass(robotsParser), peer ? pass(peer) : [[], []]]);
const best = (p, k) => rounds[0][p][k].map((v, i) => Math.min(v, rounds[1][p][k][i]));
const qOurs = median(best(0, 0)) / 1000;
const fOurs = median(best(0, 1)) / 1000;
const qPeer = median(best(1, 0)) / 1000;
const fPeer = median(best(1, 1)) / 1000;

console.log('| parser | Google\'s suite | corpus verdicts | corpus lines | question (median) | parse + first answer (median) |');
console.log('|---|---|---|---|---|---|');
console.log(`| robotstxt (this package) | ${res.oursSuite}/${suite.length} | ${res.oursVerdict}/${nq} | ${res.oursLine}/${nq} | ${qOurs.toFixed(2)} µs | ${fOurs.toFixed(1)} µs |`);
if (peer) {
  const v = require(require.resolve('robots-parser/package.json', { paths: [peerDir] })).version;
  console.log(`| robots-parser ${v} | ${res.peerSuite}/${suite.length} | ${res.peerVerdict}/${nq} | ${res.peerLine}/${nq} | ${qPeer.toFixed(2)} µs | ${fPeer.toFixed(1)} µs |`);
  console.log(`\n${files.length} files; a question ${(qPeer / qOurs).toFixed(1)}x faster than robots-parser, parse + first answer ${(fPeer / fOurs).toFixed(1)}x`);
} else {
  console.log(`\n(robots-parser not found under ${peerDir}: make js-compare installs it with npm)`);
}
process.exitCode = res.oursSuite === suite.length && res.oursVerdict === nq && res.oursLine === nq ? 0 : 1;

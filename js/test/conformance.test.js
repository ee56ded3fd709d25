'use strict';
// Google's answers through the JavaScript binding: the 145 cases of
// Google's suite and the corpus's 52,698 golden questions, verdict and line.
const test = require('node:test');
const assert = require('node:assert');
const robotsParser = require('..');
const { googleCases, goldenCases } = require('./data');

test("Google's suite: 145 of 145", () => {
  const cases = googleCases();
  assert.strictEqual(cases.length, 145);
  const bad = [];
  for (const c of cases) {
    const r = robotsParser('http://foo.bar/robots.txt', c.robots);
    const { allowed } = r.allowed(c.url, c.ua);
    const decided = r.decide(c.url, undefined, { token: c.ua }).allowed;
    if (allowed !== c.allowed || decided !== c.allowed) bad.push(c.name);
    r.free();
  }
  assert.deepStrictEqual(bad, []);
});

test('the corpus: 52,698 golden answers with lines', () => {
  let n = 0;
  const bad = [];
  for (const { file, body, questions } of goldenCases()) {
    const r = robotsParser('http://example.com/robots.txt', body);
    for (const q of questions) {
      n++;
      const got = r.allowed(q.url, q.ua);
      if (got.allowed !== q.allowed || got.line !== q.line) bad.push({ file, ...q, got });
    }
    r.free();
  }
  assert.strictEqual(n, 52698);
  assert.deepStrictEqual(bad.slice(0, 5), [], `${bad.length} of ${n} differ from Google`);
});

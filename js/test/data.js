'use strict';
// The repository's test data: Google's conformance cases and the corpus.
const fs = require('fs');
const path = require('path');

const TESTDATA = path.join(__dirname, '..', '..', 'testdata');

function lines(file) {
  return fs.readFileSync(path.join(TESTDATA, 'conformance', file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

// The 145 allow/disallow cases of Google's suite, robots as bytes.
function googleCases() {
  return lines('google_robots_test.jsonl').map((r) => ({
    ...r,
    robots: r.robots_b64 !== undefined ? Buffer.from(r.robots_b64, 'base64') : Buffer.from(r.robots, 'utf8'),
  }));
}

// The 52,698 golden questions, grouped by file: [{body, questions}].
function goldenCases() {
  const byFile = new Map();
  for (const r of lines('corpus_golden.jsonl')) {
    if (!byFile.has(r.file)) byFile.set(r.file, []);
    byFile.get(r.file).push(r);
  }
  return [...byFile].map(([file, questions]) => ({
    file,
    body: fs.readFileSync(path.join(TESTDATA, 'corpus', file)),
    questions,
  }));
}

module.exports = { googleCases, goldenCases, TESTDATA };

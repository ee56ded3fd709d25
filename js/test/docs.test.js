'use strict';
// The Node example of docs/bindings.md runs as written and prints what the
// page says it prints.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');

function example(name) {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'bindings.md'), 'utf8');
  const rest = text.slice(text.indexOf(`<!-- example ${name} -->`));
  const blocks = [...rest.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]);
  return [blocks[0], blocks[1]];
}

test('the Node example', () => {
  const [code, want] = example('node');
  // From the repository's root, as the page says (node example.js).
  const out = spawnSync(process.execPath, ['-'], { input: code, cwd: ROOT, encoding: 'utf8', timeout: 60000 });
  assert.strictEqual(out.status, 0, out.stderr);
  assert.strictEqual(out.stdout, want);
});

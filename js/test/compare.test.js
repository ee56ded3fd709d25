'use strict';
// bench/compare.js (the side-by-side table of docs/bindings.md) runs, and
// our rows agree with Google everywhere. robots-parser is installed with
// npm into js/.dev when missing; only without a registry is its row left
// out (our agreement is checked either way).
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const DEV = path.join(__dirname, '..', '.dev');

function peerInstalled() {
  try {
    require.resolve('robots-parser', { paths: [DEV] });
    return true;
  } catch (e) {
    return false;
  }
}

test('compare.js: our rows, and robots-parser side by side', (t) => {
  if (!peerInstalled()) {
    fs.mkdirSync(DEV, { recursive: true });
    fs.writeFileSync(path.join(DEV, 'package.json'), '{"private": true}\n');
    const npm = spawnSync('npm', ['install', '--silent', '--no-package-lock', 'robots-parser@3'], { cwd: DEV, timeout: 120000, encoding: 'utf8' });
    if (npm.status !== 0) t.diagnostic(`npm install robots-parser failed (offline?): ${npm.stderr}`);
  }
  const out = spawnSync(process.execPath, [path.join(__dirname, '..', 'bench', 'compare.js'), '--sample', '60', '--repeat', '2'], { encoding: 'utf8', timeout: 300000 });
  assert.strictEqual(out.status, 0, out.stdout + out.stderr);
  const ours = out.stdout.split('\n').filter((l) => l.startsWith('| robotstxt'));
  assert.strictEqual(ours.length, 1, out.stdout);
  const cells = ours[0].split('|').map((c) => c.trim());
  assert.strictEqual(cells[2], '145/145');
  const [a, b] = cells[3].split('/');
  assert.strictEqual(a, b);
  assert.strictEqual(cells[4], cells[3]); // lines too
  if (peerInstalled()) assert.match(out.stdout, /\| robots-parser /);
});

'use strict';
// The JavaScript API: robots-parser's, and what it adds.
const test = require('node:test');
const assert = require('node:assert');
const robotsParser = require('..');

const FILE = `User-agent: Googlebot
Disallow: /private/
Allow: /private/press/

User-agent: *
Disallow: /tmp/
Crawl-delay: 5
Content-Usage: train-ai=n
Content-Signal: search=yes, ai-train=no

Host: example.com
Sitemap: https://example.com/sitemap.xml
`;
const URL_ = 'https://example.com/robots.txt';

test("robots-parser's API", () => {
  const r = robotsParser(URL_, FILE);
  assert.strictEqual(r.isAllowed('https://example.com/private/x', 'Googlebot'), false);
  assert.strictEqual(r.isAllowed('https://example.com/private/press/1', 'Googlebot/2.1'), true);
  assert.strictEqual(r.isAllowed('https://example.com/tmp/x', 'Googlebot'), true);
  assert.strictEqual(r.isAllowed('https://example.com/tmp/x', 'Mozilla/5.0 (compatible; GPTBot/1.0)'), false);
  assert.strictEqual(r.isAllowed('https://example.com/tmp/x'), false); // no user agent: the * group
  assert.strictEqual(r.isDisallowed('https://example.com/tmp/x', 'GPTBot'), true);
  // Another origin: not this file's question.
  assert.strictEqual(r.isAllowed('http://example.com/tmp/x', 'GPTBot'), undefined);
  assert.strictEqual(r.isAllowed('https://example.com:8443/tmp/x', 'GPTBot'), undefined);
  assert.strictEqual(r.isAllowed('https://EXAMPLE.com:443/tmp/x', 'GPTBot'), false);
  assert.strictEqual(r.isAllowed('/tmp/x', 'GPTBot'), undefined);
  assert.strictEqual(r.getMatchingLineNumber('https://example.com/private/press/a', 'Googlebot'), 3);
  assert.strictEqual(r.getMatchingLineNumber('https://example.com/free', 'Googlebot'), -1);
  assert.strictEqual(r.getCrawlDelay('ExampleBot'), 5);
  assert.strictEqual(robotsParser(URL_, '').getCrawlDelay('x'), undefined);
  assert.deepStrictEqual(r.getSitemaps(), ['https://example.com/sitemap.xml']);
  assert.strictEqual(r.getPreferredHost(), 'example.com');
  assert.strictEqual(robotsParser(URL_, '').getPreferredHost(), null);
});

test('decide, allowed, usage, pace', () => {
  const r = robotsParser(URL_, Buffer.from(FILE));
  const d = r.decide('https://example.com/private/press/a', 'Googlebot');
  assert.strictEqual(d.allowed, true);
  assert.strictEqual(d.line, 3);
  assert.strictEqual(d.rule.text, 'Allow: /private/press/');
  assert.strictEqual(d.group.kind, 'specific');
  const b = r.decide('/tmp/a', undefined, { crawler: 'bingbot' });
  assert.deepStrictEqual([b.allowed, b.line, b.dialect, b.crawl_delay], [false, 6, 'bing', 5]);
  assert.deepStrictEqual(r.allowed('/tmp/a', 'GPTBot'), { allowed: false, line: 6 });
  const r2 = robotsParser(URL_, 'User-agent: *\nDisallow: /a\nAllow: /a/b\n');
  assert.strictEqual(r2.allowed('/a/b', 'x', 'google').allowed, true);
  assert.strictEqual(r2.allowed('/a/b', 'x', 'baidu').allowed, false);
  const u = r.usage('https://example.com/a', 'ExampleBot');
  assert.strictEqual(u.usage['train-ai'], 'n');
  assert.strictEqual(u.signals.search, 'yes');
  assert.strictEqual(r.usage('/tmp/a', 'ExampleBot').usage, null);
  assert.strictEqual(r.pace(undefined, { crawler: 'Googlebot' }).ignored, true);
});

test('forStatus: the fetch-status rules', () => {
  for (const [status, policy, allowed] of [[200, 'rules', false], [404, 'allow-all', true], [503, 'disallow-all', false],
    [0, 'disallow-all', false], [429, 'disallow-all', false]]) {
    const r = robotsParser.forStatus(URL_, status, FILE);
    assert.strictEqual(r.policy, policy, String(status));
    assert.strictEqual(r.isAllowed('https://example.com/tmp/x', 'ExampleBot'), allowed, String(status));
    assert.ok(r.reason);
    r.free();
  }
  const down = robotsParser.forStatus(URL_, 503, '<html>');
  assert.strictEqual(down.unreachable, true);
  assert.strictEqual(down.isAllowed('https://example.com/robots.txt', 'x'), true);
  assert.strictEqual(robotsParser.forStatus(URL_, 503, '', { dialect: 'yandex' }).policy, 'allow-all');
});

test('errors and freeing', () => {
  const r = robotsParser(URL_, FILE);
  assert.throws(() => r.decide('/', undefined, { crawler: 'NoSuchCrawlerAtAll' }), /unknown crawler/);
  assert.throws(() => r.decide('/', 'x', { dialect: 'klingon' }), /unknown dialect/);
  assert.throws(() => robotsParser.forStatus(URL_, -5, ''), /out of range/);
  const before = robotsParser.alive();
  for (let i = 0; i < 100; i++) robotsParser(URL_, FILE).free();
  assert.strictEqual(robotsParser.alive(), before);
  r.free();
  assert.throws(() => r.isAllowed('https://example.com/', 'x'), /unknown handle/);
  r.free(); // twice is fine
});

test('large and odd inputs', () => {
  const big = 'User-agent: *\nDisallow: /a\n' + '#'.repeat(700000);
  const r = robotsParser(URL_, big);
  assert.strictEqual(r.isAllowed('https://example.com/a', 'x'), false);
  const long = 'https://example.com/' + 'x'.repeat(100000);
  assert.strictEqual(r.isAllowed(long, 'y'.repeat(5000)), true);
  const u = robotsParser(URL_, 'User-agent: *\nDisallow: /ツ\n');
  assert.strictEqual(u.isAllowed('https://example.com/%E3%83%84', 'x'), false);
  assert.strictEqual(u.decide('https://example.com/ツ', 'x').allowed, true); // URLs are taken as given
});

test('ES module import', async () => {
  const m = await import('../index.mjs');
  assert.strictEqual(m.default('https://a.com/robots.txt', 'User-agent: *\nDisallow: /\n').isAllowed('https://a.com/x', 'b'), false);
  assert.strictEqual(typeof m.forStatus, 'function');
});

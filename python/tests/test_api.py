"""The Python API: Protego's, and what it adds."""

import datetime
import threading
import unittest

import robotstxt
from robotstxt import Protego

FILE = b"""User-agent: Googlebot
Disallow: /private/
Allow: /private/press/

User-agent: *
Disallow: /tmp/
Crawl-delay: 5
Request-rate: 1/10s 0600-0845
Visit-time: 2200-0600
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Signal: search=yes, ai-train=no

Host: example.com
Sitemap: https://example.com/sitemap.xml
Sitemap: https://example.com/news.xml
"""


class ProtegoAPI(unittest.TestCase):
    def setUp(self):
        self.rp = Protego.parse(FILE.decode())

    def test_can_fetch(self):
        rp = self.rp
        self.assertFalse(rp.can_fetch("https://example.com/private/x", "Googlebot"))
        self.assertTrue(rp.can_fetch("https://example.com/private/press/1", "Googlebot"))
        # The '*' group does not apply to a crawler with a group of its own.
        self.assertTrue(rp.can_fetch("https://example.com/tmp/x", "Googlebot"))
        self.assertFalse(rp.can_fetch("https://example.com/tmp/x", "GPTBot"))
        # A User-Agent header: its product token asks.
        ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
        self.assertFalse(rp.can_fetch("https://example.com/private/x", ua))
        self.assertFalse(rp.can_fetch(b"https://example.com/tmp/x", b"Scrapy/2.8 (+https://scrapy.org)"))

    def test_pace(self):
        rp = self.rp
        self.assertEqual(rp.crawl_delay("ExampleBot"), 5.0)
        self.assertIsInstance(rp.crawl_delay("ExampleBot"), float)
        self.assertEqual(rp.request_rate("ExampleBot"),
                         robotstxt.RequestRate(1, 10, datetime.time(6, 0), datetime.time(8, 45)))
        self.assertEqual(rp.visit_time("ExampleBot"),
                         robotstxt.VisitTime(datetime.time(22, 0), datetime.time(6, 0)))
        # Googlebot's group has none of them, and the '*' group's apply
        # to it only as a fallback (as Bing reads crawl-delay).
        self.assertEqual(rp.crawl_delay("Googlebot"), 5.0)
        self.assertTrue(rp.pace(crawler="Googlebot")["ignored"])
        self.assertIsNone(Protego.parse("User-agent: *\nDisallow: /\n").crawl_delay("x"))
        self.assertIsNone(Protego.parse("").request_rate("x"))
        self.assertIsNone(Protego.parse("").visit_time("x"))

    def test_file(self):
        rp = self.rp
        self.assertEqual(list(rp.sitemaps), ["https://example.com/sitemap.xml", "https://example.com/news.xml"])
        self.assertEqual(rp.sitemap_lines[1], ("https://example.com/news.xml", 16))
        self.assertEqual(rp.preferred_host, "example.com")
        self.assertIsNone(Protego.parse("").preferred_host)
        self.assertEqual(rp.policy, "rules")
        self.assertFalse(rp.truncated)
        big = Protego.parse(b"User-agent: *\nDisallow: /a\n" + b"#" * 600000)
        self.assertTrue(big.truncated)


class More(unittest.TestCase):
    def setUp(self):
        self.rp = Protego.parse(FILE)

    def test_decide(self):
        d = self.rp.decide("https://example.com/private/press/a", token="Googlebot")
        self.assertTrue(d.allowed)
        self.assertTrue(d)
        self.assertEqual(d.line, 3)
        self.assertEqual(d.rule, robotstxt.Rule(3, True, "/private/press/", "Allow: /private/press/", False))
        self.assertEqual(d.group.kind, "specific")
        self.assertEqual(d.group.lines, [1])
        self.assertEqual(d.path, "/private/press/a")
        d = self.rp.decide("/tmp/a", crawler="bingbot")
        self.assertEqual((d.allowed, d.line, d.dialect, d.crawl_delay), (False, 6, "bing", 5))
        d = self.rp.decide("/free", "AnyBot/2.0")
        self.assertEqual((d.allowed, d.line, d.rule), (True, 0, None))
        self.assertEqual(d.group.kind, "global")
        # Dialects by name.
        rp = Protego.parse("User-agent: *\nDisallow: /a\nAllow: /a/b\n")
        self.assertTrue(rp.decide("/a/b", token="x", dialect="google").allowed)
        self.assertFalse(rp.decide("/a/b", token="x", dialect="baidu").allowed)
        self.assertEqual(rp.allowed("/a/b", "x", dialect="original"), (False, 2))

    def test_usage(self):
        u = self.rp.usage("https://example.com/a", "ExampleBot")
        self.assertTrue(u.allowed)
        self.assertEqual(u.preferences["train-ai"], "n")
        self.assertEqual(u.lines, [10])
        self.assertEqual(u.signals["search"], "yes")
        self.assertEqual(self.rp.usage("/ai-ok/x", token="ExampleBot").preferences["train-ai"], "y")
        u = self.rp.usage("/tmp/x", token="ExampleBot")
        self.assertEqual((u.allowed, u.line, u.preferences), (False, 6, None))

    def test_for_status(self):
        for status, policy, allowed in [(200, "rules", False), (404, "allow-all", True),
                                        (503, "disallow-all", False), (None, "disallow-all", False),
                                        (429, "disallow-all", False), (301, "allow-all", True)]:
            rp = robotstxt.for_status(status, FILE)
            self.assertEqual(rp.policy, policy, status)
            self.assertEqual(rp.can_fetch("https://example.com/tmp/x", "ExampleBot"), allowed, status)
            self.assertTrue(rp.reason, status)
            self.assertEqual(rp.unreachable, status in (503, None, 429), status)
        rp = robotstxt.for_status(503, b"")
        self.assertTrue(rp.can_fetch("https://example.com/robots.txt", "ExampleBot"))
        # Yandex reads any answer but 200 as no restrictions.
        self.assertEqual(robotstxt.for_status(503, b"", dialect="yandex").policy, "allow-all")
        self.assertEqual(robotstxt.for_status(200, FILE, content_type="text/html").policy, "rules")
        self.assertIn("HTML", robotstxt.for_status(200, FILE, content_type="text/html").reason)

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "unknown crawler"):
            self.rp.decide("/", crawler="NoSuchCrawlerAtAll")
        with self.assertRaisesRegex(ValueError, "unknown dialect"):
            self.rp.decide("/", token="x", dialect="klingon")
        with self.assertRaises(TypeError):
            self.rp.decide("/", "a", token="b")
        with self.assertRaisesRegex(ValueError, "out of range"):
            robotstxt.for_status(-5, b"")
        rp = Protego.parse("")
        rp.close()
        with self.assertRaisesRegex(ValueError, "unknown handle"):
            rp.can_fetch("/", "x")
        rp.close()  # twice is fine

    def test_handles_freed(self):
        before = robotstxt.lib.rtx_alive()
        for _ in range(1000):
            Protego.parse(FILE).can_fetch("/", "x")
        with Protego.parse(FILE) as rp:
            rp.can_fetch("/", "x")
        self.assertEqual(robotstxt.lib.rtx_alive(), before)

    def test_threads(self):
        errors = []

        def work():
            for i in range(2000):
                if self.rp.can_fetch("/private/x", "Googlebot") or not self.rp.can_fetch("/x", "Googlebot"):
                    errors.append(i)

        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])

    def test_bytes_not_utf8(self):
        # Google encodes the pattern's byte but takes URLs as given: a
        # crawler passes the URL percent-encoded, as it fetches it.
        rp = Protego.parse(b"User-agent: *\nDisallow: /\xff\n")
        self.assertFalse(rp.can_fetch("/%FF", "x"))
        self.assertTrue(rp.can_fetch(b"/\xff", "x"))


if __name__ == "__main__":
    unittest.main()

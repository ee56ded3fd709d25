"""A real Scrapy crawl of loopback sites whose robots.txt Protego reads
wrongly, with Scrapy's default parser and with ours."""

import http.server
import os
import subprocess
import sys
import threading
import unittest

try:
    import protego
    import scrapy  # noqa: F401
except ImportError as e:  # pragma: no cover
    raise unittest.SkipTest("Debian's python3-scrapy and python3-protego are needed: %s" % e)

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)

# ExampleBot has no group: Google's reading gives it the '*' group. Protego
# gives it the "bot" group, since "bot" is a part of its User-Agent, and
# skips the rule without a colon, which Google reads as a disallow.
ROBOTS = b"""User-agent: *
Disallow: /private/
Disallow /nocolon/

User-agent: bot
Allow: /
"""

PAGES = {
    "/": b'<a href="/private/a">a</a> <a href="/nocolon/b">b</a> <a href="/public/c">c</a>',
    "/public/c": b"public",
    "/private/a": b"private",
    "/nocolon/b": b"no colon",
}


class Site:
    """A loopback HTTP server recording the paths it was asked for."""

    def __init__(self, robots_status=200):
        self.paths = []
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                site.paths.append(self.path)
                if self.path == "/robots.txt":
                    body = ROBOTS if robots_status == 200 else b"<html>Service Unavailable</html>"
                    self.send_response(robots_status)
                    self.send_header("Content-Type", "text/plain" if robots_status == 200 else "text/html")
                else:
                    body = PAGES.get(self.path, b"not found")
                    self.send_response(200 if self.path in PAGES else 404)
                    self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def crawl(mode):
    """Crawls a site answering 200 and one answering 503 for robots.txt;
    returns the paths each was asked for."""
    good, down = Site(), Site(robots_status=503)
    try:
        env = dict(os.environ, PYTHONPATH=PKG + os.pathsep + os.environ.get("PYTHONPATH", ""))
        subprocess.run([sys.executable, "-m", "tests.crawl", mode, good.url, down.url + "page"],
                       cwd=PKG, env=env, check=True, timeout=120,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    finally:
        good.close()
        down.close()
    return set(good.paths), set(down.paths)


class ScrapyCrawl(unittest.TestCase):
    def test_protego_reads_the_site_wrongly(self):
        # The site is a discriminator: Protego allows what Google disallows.
        rp = protego.Protego.parse(ROBOTS.decode())
        ua = "ExampleBot/1.0 (+https://example.com/bot)"
        self.assertTrue(rp.can_fetch("http://127.0.0.1/private/a", ua))
        self.assertTrue(rp.can_fetch("http://127.0.0.1/nocolon/b", ua))
        good, down = crawl("protego")
        self.assertIn("/private/a", good)
        self.assertIn("/page", down)  # the 503 page parsed as rules: allow all

    def test_google_parser(self):
        good, down = crawl("google")
        self.assertEqual(good, {"/robots.txt", "/", "/public/c"})
        self.assertIn("/page", down)  # Scrapy's middleware still parses a 503's body

    def test_google_parser_and_status_rules(self):
        good, down = crawl("google+status")
        self.assertEqual(good, {"/robots.txt", "/", "/public/c"})
        self.assertEqual(down, {"/robots.txt"})  # 503: disallow all


if __name__ == "__main__":
    unittest.main()

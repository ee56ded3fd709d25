"""Scrapy integration: Google's answers in a Scrapy crawl.

In the project's settings::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotstxt.scrapy.GoogleRobotParser"

Scrapy's robots.txt middleware parses the body of whatever answer it got,
a 503 error page included (which then allows everything), and allows all
when no answer came. To apply the fetch-status rules as well (5xx, 429 and
no answer: disallow all until a later crawl gets an answer; 4xx: allow
all), replace the middleware too::

    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "robotstxt.scrapy.RobotsTxtMiddleware": 100,
    }
"""

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware as _Base
from scrapy.exceptions import IgnoreRequest
from scrapy.robotstxt import RobotParser

from . import Protego

__all__ = ["GoogleRobotParser", "RobotsTxtMiddleware"]


def _text(s):
    if isinstance(s, bytes):
        return s.decode("utf-8", "surrogateescape")
    return s


class GoogleRobotParser(RobotParser):
    """A ROBOTSTXT_PARSER that answers as Google's robots.txt library.

    The body is read as bytes, as Google reads it (no decoding step that
    could drop lines); the crawler is the product token of the User-Agent
    header Scrapy sends (or ROBOTSTXT_USER_AGENT)."""

    def __init__(self, rp, spider=None):
        self.spider = spider
        self.rp = rp

    @classmethod
    def from_crawler(cls, crawler, robotstxt_body):
        spider = None if not crawler else crawler.spider
        return cls(Protego.parse(robotstxt_body or b""), spider)

    @classmethod
    def from_response(cls, crawler, status, body, content_type=None):
        """The parser for an answer with this status (0 when none came),
        under Google's fetch rules."""
        spider = None if not crawler else crawler.spider
        return cls(Protego.for_status(status, body or b"", content_type), spider)

    def allowed(self, url, user_agent):
        return self.rp.can_fetch(_text(url), _text(user_agent))


class RobotsTxtMiddleware(_Base):
    """Scrapy's robots.txt middleware with Google's fetch-status rules:
    the answer's status decides whether its body is parsed, and a
    robots.txt that could not be fetched at all disallows everything.
    The parser must offer from_response (GoogleRobotParser does; it is
    used when ROBOTSTXT_PARSER names another parser)."""

    def __init__(self, crawler):
        super().__init__(crawler)
        if not hasattr(self._parserimpl, "from_response"):
            self._parserimpl = GoogleRobotParser

    def _parse_robots(self, response, netloc, spider):
        self.crawler.stats.inc_value("robotstxt/response_count")
        self.crawler.stats.inc_value(f"robotstxt/response_status_count/{response.status}")
        ct = response.headers.get(b"Content-Type")
        rp = self._parserimpl.from_response(self.crawler, response.status, response.body,
                                            _text(ct) if ct else None)
        rp_dfd = self._parsers[netloc]
        self._parsers[netloc] = rp
        rp_dfd.callback(rp)

    def _robots_error(self, failure, netloc):
        if failure.type is IgnoreRequest:
            return super()._robots_error(failure, netloc)
        self.crawler.stats.inc_value(f"robotstxt/exception_count/{failure.type}")
        rp = self._parserimpl.from_response(self.crawler, 0, b"")
        rp_dfd = self._parsers[netloc]
        self._parsers[netloc] = rp
        rp_dfd.callback(rp)

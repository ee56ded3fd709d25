"""Google's exact robots.txt answers for Python, from the robotstxt Go core.

A drop-in for Protego: replace ``from protego import Protego`` with
``from robotstxt import Protego``. The same class also answers with the
deciding line, rule and group (``decide``), the AI usage preferences
(``usage``), and applies the fetch-status rules (``for_status``)::

    from robotstxt import Protego
    rp = Protego.parse(body)
    rp.can_fetch("https://example.com/a", "MyBot/1.0")

Who asks is named three ways. ``user_agent`` is a User-Agent header value
(or a bare product token): its product token is asked about, as
``can_fetch`` does. ``token`` is a product token matched as given
(Google's ``OneAgentAllowedByRobots``). ``crawler`` names a crawler of the
catalogue ("Googlebot-Image", "bingbot"): its fallback tokens, whether it
obeys the '*' group and its engine's dialect apply.

URLs are taken as given, as Google's library takes them: pass them
percent-encoded, as crawlers (and Scrapy) fetch them.
"""

import datetime
import json
import threading
from collections import namedtuple

from ._native import ffi, lib, library_path

__all__ = [
    "Protego",
    "RobotsTxt",
    "Decision",
    "Rule",
    "Group",
    "Usage",
    "RequestRate",
    "VisitTime",
    "parse",
    "for_status",
    "dialect_number",
    "library_path",
    "POLICY_RULES",
    "POLICY_ALLOW_ALL",
    "POLICY_DISALLOW_ALL",
]

__version__ = "0.1.0"

POLICY_RULES = "rules"
POLICY_ALLOW_ALL = "allow-all"
POLICY_DISALLOW_ALL = "disallow-all"
_POLICIES = {1: POLICY_RULES, 2: POLICY_ALLOW_ALL, 3: POLICY_DISALLOW_ALL}

_TOKEN, _HEADER, _CRAWLER = 0, 1, 2

RequestRate = namedtuple("RequestRate", "requests seconds start_time end_time")
VisitTime = namedtuple("VisitTime", "start_time end_time")

Rule = namedtuple("Rule", "line allow pattern text implicit")
Rule.__doc__ = "The rule that decided: its line, kind, pattern and text."
Group = namedtuple("Group", "kind token lines groups reason")
Group.__doc__ = ("The groups that applied: kind ('specific', 'global' or "
                 "'none'), the token, the user-agent lines, the groups' "
                 "numbers (0-based) and why.")


class Decision(namedtuple("Decision", "allowed line dialect path rule group "
                                      "reason crawl_delay crawl_delay_line")):
    """A verdict with what decided it. ``rule`` is None when no rule
    decided (the URL is allowed); ``line`` is then 0. It is truthy when
    the URL may be fetched."""

    __slots__ = ()

    def __bool__(self):
        return self.allowed


class Usage(namedtuple("Usage", "allowed line preferences lines signals")):
    """What may be done with a URL's content: the crawl verdict and its
    line; ``preferences`` maps each category ("train-ai", "search", ...)
    to "y", "n" or "unknown" (None when the URL may not be crawled);
    ``lines`` are the Content-Usage lines that gave them; ``signals`` is
    the Content-Signal line ({"search", "ai-train", "ai-input", "line"})
    or None."""

    __slots__ = ()


class _Error(Exception):
    pass


def _take(ptr):
    """The C string ptr as a Python str, freed."""
    try:
        return ffi.string(ptr).decode("utf-8")
    finally:
        lib.rtx_free_string(ptr)


def _raise(err):
    msg = _take(err[0]) if err[0] != ffi.NULL else "robotstxt: unknown error"
    if "internal error" in msg:
        raise RuntimeError(msg)
    raise ValueError(msg)


def _bytes(s):
    if isinstance(s, str):
        try:
            return s.encode()
        except UnicodeEncodeError:  # lone surrogates: bytes decoded with surrogateescape
            return s.encode("utf-8", "surrogateescape")
    if s is None:
        return b""
    if isinstance(s, bytes):
        return s
    return bytes(s)


_dialects = {}
_dialects_lock = threading.Lock()


def dialect_number(dialect):
    """The number of a dialect ("google", "rfc9309", "bing", "yandex",
    "baidu", "original"; None or "default": the crawler's own, else
    Google's)."""
    if dialect is None:
        return 0
    if isinstance(dialect, int):
        return dialect
    n = _dialects.get(dialect)
    if n is None:
        err = ffi.new("char **")
        b = _bytes(dialect)
        n = lib.rtx_dialect(b, len(b), err)
        if n < 0:
            _raise(err)
        with _dialects_lock:
            _dialects[dialect] = n
    return n


def _who(user_agent, token, crawler):
    given = [x is not None for x in (user_agent, token, crawler)]
    if sum(given) != 1:
        raise TypeError("name exactly one of user_agent, token and crawler")
    if token is not None:
        return _bytes(token), _TOKEN
    if crawler is not None:
        return _bytes(crawler), _CRAWLER
    return _bytes(user_agent), _HEADER


def _time(hhmm):
    if not hhmm:
        return None
    return datetime.time(int(hhmm[:2]), int(hhmm[2:]))


class Protego:
    """A parsed robots.txt file (or the answer to a robots.txt request,
    from ``for_status``), with Protego's API and more. Safe to share
    between threads. The native handle is released when the object is
    garbage-collected, or at once with ``close()``."""

    __slots__ = ("_h", "_info", "_ua_cache")

    def __init__(self, handle):
        self._h = handle
        self._info = None
        self._ua_cache = {}

    def __del__(self, _free=lib.rtx_free):
        h, self._h = self._h, 0
        if h > 0:
            _free(h)

    # Protego's constructors.

    @classmethod
    def parse(cls, content):
        """Parses a robots.txt body (str or bytes; its first 512,000
        bytes count, as Google and RFC 9309 crawlers read)."""
        b = _bytes(content)
        h = lib.rtx_parse(b, len(b), ffi.NULL)
        if h < 0:  # rare (too many handles alive): ask again for the message
            err = ffi.new("char **")
            h = lib.rtx_parse(b, len(b), err)
            if h < 0:
                _raise(err)
        return cls(h)

    @classmethod
    def for_status(cls, status, body=b"", content_type=None, dialect=None):
        """The answer to a request for /robots.txt (after redirects):
        its HTTP status (0 or None when no answer came at all), body and
        Content-Type, read under the fetch rules of dialect (Google's by
        default): 2xx: the body's rules; 3xx and 4xx: allow all; 429, 5xx
        and no answer: disallow all, and retry later (``unreachable``).
        /robots.txt itself is always allowed. ``policy`` and ``reason``
        say what was decided."""
        b = _bytes(body)
        ct = _bytes(content_type)
        err = ffi.new("char **")
        policy = ffi.new("int *")
        h = lib.rtx_for_status(int(status or 0), ct, len(ct), b, len(b),
                               dialect_number(dialect), policy, err)
        if h < 0:
            _raise(err)
        return cls(h)

    def close(self):
        """Releases the native handle now; the object answers no more
        (its questions raise ValueError)."""
        h, self._h = self._h, 0
        if h > 0:
            lib.rtx_free(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # Protego's questions.

    def _agent(self, user_agent):
        b = self._ua_cache.get(user_agent)
        if b is None:
            b = _bytes(user_agent)
            if len(self._ua_cache) < 64:
                self._ua_cache[user_agent] = b
        return b

    def can_fetch(self, url, user_agent):
        """Whether the crawler sending this User-Agent header (or named by
        this product token) may fetch url, exactly as Google answers."""
        a = self._agent(user_agent)
        u = _bytes(url)
        v = lib.rtx_allowed(self._h, a, len(a), _HEADER, u, len(u), 0, ffi.NULL)
        if v < 0:
            self._fail_ask(a, _HEADER, u, 0)
        return v == 1

    def allowed(self, url, token, dialect=None):
        """Whether the product token (as given, Google's
        OneAgentAllowedByRobots) may fetch url, and the deciding line (0
        when no rule decided): a pair (bool, int)."""
        a = _bytes(token)
        u = _bytes(url)
        d = dialect_number(dialect) if dialect is not None else 0
        v = lib.rtx_ask(self._h, a, len(a), _TOKEN, u, len(u), d, ffi.NULL)
        if v < 0:
            self._fail_ask(a, _TOKEN, u, d)
        return bool(v & 1), v >> 1

    def _fail_ask(self, a, kind, u, d):
        err = ffi.new("char **")
        lib.rtx_ask(self._h, a, len(a), kind, u, len(u), d, err)
        _raise(err)

    def _pace(self, user_agent, token=None, crawler=None, dialect=None):
        a, kind = _who(user_agent, token, crawler)
        err = ffi.new("char **")
        p = lib.rtx_crawl_delay(self._h, a, len(a), kind, dialect_number(dialect), err)
        if p == ffi.NULL:
            _raise(err)
        return json.loads(_take(p))

    def crawl_delay(self, user_agent):
        """The crawl-delay in seconds (float) of the groups that apply to
        the user agent, else of the '*' group; None when none."""
        cd = self._pace(user_agent)["crawl_delay"]
        return None if cd is None else float(cd)

    def request_rate(self, user_agent):
        """The request-rate line that applies: RequestRate(requests,
        seconds, start_time, end_time), the times None when the line has
        no window; None when none applies."""
        rr = self._pace(user_agent)["request_rate"]
        if rr is None:
            return None
        return RequestRate(rr["requests"], rr["seconds"], _time(rr["from"]), _time(rr["to"]))

    def visit_time(self, user_agent):
        """The visit-time line that applies: VisitTime(start_time,
        end_time) (UTC), or None."""
        vt = self._pace(user_agent)["visit_time"]
        if vt is None:
            return None
        return VisitTime(_time(vt["from"]), _time(vt["to"]))

    def pace(self, user_agent=None, *, token=None, crawler=None, dialect=None):
        """Everything the file says about how fast to go, as a dict:
        crawl_delay, crawl_delay_line, request_rate, visit_time, ignored
        (the crawler's engine ignores these fields: Google's) and
        interval_seconds (the least time between two requests now)."""
        return self._pace(user_agent, token, crawler, dialect)

    def _load_info(self):
        if self._info is None:
            err = ffi.new("char **")
            p = lib.rtx_info(self._h, err)
            if p == ffi.NULL:
                _raise(err)
            self._info = json.loads(_take(p))
        return self._info

    @property
    def sitemaps(self):
        """The sitemap URLs, in file order (an iterator, as Protego's)."""
        return iter([s["url"] for s in self._load_info()["sitemaps"]])

    @property
    def sitemap_lines(self):
        """The sitemap lines: a list of (url, line)."""
        return [(s["url"], s["line"]) for s in self._load_info()["sitemaps"]]

    @property
    def preferred_host(self):
        """The value of the first host line (Yandex's), or None."""
        hosts = self._load_info()["hosts"]
        return hosts[0]["value"] if hosts else None

    @property
    def policy(self):
        """"rules", "allow-all" or "disallow-all" (see for_status)."""
        return self._load_info()["policy"]

    @property
    def reason(self):
        """Why the policy applies, in words ("" for a parsed file)."""
        return self._load_info()["reason"]

    @property
    def unreachable(self):
        """Whether the answer says nothing about the file and must be
        retried (5xx, 429, no answer)."""
        return self._load_info()["unreachable"]

    @property
    def truncated(self):
        """Whether the body was longer than 512,000 bytes and cut."""
        return self._load_info()["truncated"]

    # More than Protego.

    def decide(self, url, user_agent=None, *, token=None, crawler=None, dialect=None):
        """The verdict for url with what decided it: a Decision (allowed,
        line, dialect, path, rule, group, reason, crawl_delay,
        crawl_delay_line)."""
        a, kind = _who(user_agent, token, crawler)
        u = _bytes(url)
        err = ffi.new("char **")
        p = lib.rtx_decide(self._h, a, len(a), kind, u, len(u), dialect_number(dialect), err)
        if p == ffi.NULL:
            _raise(err)
        j = json.loads(_take(p))
        rule = j["rule"]
        if rule is not None:
            rule = Rule(rule["line"], rule["allow"], rule["pattern"], rule["text"], rule["implicit"])
        g = j["group"]
        return Decision(j["allowed"], j["line"], j["dialect"], j["path"], rule,
                        Group(g["kind"], g["token"], g["lines"], g["groups"], g["reason"]),
                        j["reason"], j["crawl_delay"], j["crawl_delay_line"])

    def usage(self, url, user_agent=None, *, token=None, crawler=None, dialect=None):
        """The AI usage preferences (Content-Usage, Content-Signal) for
        url: a Usage (allowed, line, preferences, lines, signals)."""
        a, kind = _who(user_agent, token, crawler)
        u = _bytes(url)
        err = ffi.new("char **")
        p = lib.rtx_usage(self._h, a, len(a), kind, u, len(u), dialect_number(dialect), err)
        if p == ffi.NULL:
            _raise(err)
        j = json.loads(_take(p))
        prefs, lines = None, []
        if j["usage"] is not None:
            prefs = dict(j["usage"])
            lines = prefs.pop("lines")
        return Usage(j["allowed"], j["line"], prefs, lines, j["signals"])


RobotsTxt = Protego


def parse(content):
    """Parses a robots.txt body: Protego.parse(content)."""
    return Protego.parse(content)


def for_status(status, body=b"", content_type=None, dialect=None):
    """The answer to a robots.txt request: Protego.for_status(...)."""
    return Protego.for_status(status, body, content_type, dialect)

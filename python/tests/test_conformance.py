"""Google's answers through the Python binding: the 145 cases of Google's
test suite and the corpus's 52,698 golden questions, verdict and line."""

import unittest

import robotstxt

from . import data


class Conformance(unittest.TestCase):
    def test_google_suite(self):
        cases = data.google_cases()
        self.assertEqual(len(cases), 145)
        bad = []
        for c in cases:
            rp = robotstxt.Protego.parse(c["robots"])
            allowed, _ = rp.allowed(c["url"], c["ua"])
            decided = rp.decide(c["url"], token=c["ua"]).allowed
            if allowed != c["allowed"] or decided != c["allowed"]:
                bad.append((c["name"], allowed, decided, c["allowed"]))
        self.assertEqual(bad, [], "%d of 145 differ from Google" % len(bad))

    def test_corpus_golden(self):
        files = data.golden_cases()
        n, bad = 0, []
        for body, questions in files:
            rp = robotstxt.Protego.parse(body)
            for ua, url, want, line in questions:
                n += 1
                got = rp.allowed(url, ua)
                if got != (want, line):
                    bad.append((ua, url, got, want, line))
        self.assertEqual(n, 52698)
        self.assertEqual(bad[:10], [], "%d of %d differ from Google" % (len(bad), n))


if __name__ == "__main__":
    unittest.main()

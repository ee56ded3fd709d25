"""The repository's test data: Google's conformance cases and the corpus."""

import base64
import json
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TESTDATA = os.path.join(ROOT, "testdata")


def google_cases():
    """The 145 allow/disallow cases of Google's test suite: dicts with
    robots (bytes), ua, url, allowed."""
    out = []
    with open(os.path.join(TESTDATA, "conformance", "google_robots_test.jsonl"), encoding="ascii") as f:
        for line in f:
            rec = json.loads(line)
            if "robots_b64" in rec:
                rec["robots"] = base64.b64decode(rec["robots_b64"])
            else:
                rec["robots"] = rec["robots"].encode("utf-8")
            out.append(rec)
    return out


def golden_cases():
    """The 52,698 golden questions over the real corpus, grouped by file:
    a list of (body bytes, [(ua, url, allowed, line), ...]) in file order."""
    files = {}
    order = []
    with open(os.path.join(TESTDATA, "conformance", "corpus_golden.jsonl"), encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            name = rec["file"]
            if name not in files:
                files[name] = []
                order.append(name)
            files[name].append((rec["ua"], rec["url"], rec["allowed"], rec["line"]))
    out = []
    for name in order:
        with open(os.path.join(TESTDATA, "corpus", name), "rb") as f:
            out.append((f.read(), files[name]))
    return out

"""The Scrapy example of docs/bindings.md runs as written and prints what
the page says it prints."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def example(name):
    """The code of the example named name in docs/bindings.md, and the
    output the page shows for it."""
    with open(os.path.join(ROOT, "docs", "bindings.md"), encoding="utf-8") as f:
        text = f.read()
    at = text.index("<!-- example %s -->" % name)
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text[at:], re.S)
    return blocks[0], blocks[1]


class Docs(unittest.TestCase):
    def test_scrapy_example(self):
        code, want = example("scrapy")
        env = dict(os.environ, PYTHONPATH="python")
        # Saved as example.py (Scrapy reads its callbacks' source) and run
        # from the repository's root, as the page says.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "example.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(code)
            out = subprocess.run([sys.executable, path], cwd=ROOT, env=env, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout, want)


if __name__ == "__main__":
    unittest.main()

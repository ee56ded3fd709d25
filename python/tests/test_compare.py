"""compare.py (the side-by-side table of docs/bindings.md) runs, and our
rows agree with Google everywhere."""

import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class Compare(unittest.TestCase):
    def test_compare_runs(self):
        out = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "compare.py"),
                              "--sample", "60", "--repeat", "2", "--first", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
        self.assertEqual(out.returncode, 0, out.stdout)
        ours = [l for l in out.stdout.splitlines() if l.startswith("| robotstxt")]
        self.assertEqual(len(ours), 1, out.stdout)
        cells = ours[0].split("|")
        self.assertEqual(cells[2].strip(), "145/145")
        n = cells[3].strip().split("/")
        self.assertEqual(n[0], n[1])
        self.assertIn("| Protego", out.stdout)  # Debian's python3-protego is a test dependency


if __name__ == "__main__":
    unittest.main()

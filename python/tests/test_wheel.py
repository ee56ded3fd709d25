"""The wheel `make python` builds installs offline and answers."""

import glob
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DIST = os.path.join(os.path.dirname(HERE), "dist")


class Wheel(unittest.TestCase):
    def test_install_offline(self):
        wheels = glob.glob(os.path.join(DIST, "robotstxt-*.whl"))
        self.assertEqual(len(wheels), 1, "python/dist/ should hold one wheel: run `make python`")
        with tempfile.TemporaryDirectory() as tmp:
            venv = os.path.join(tmp, "venv")
            # A venv that sees Debian's packages (cffi), installed into with
            # the system's pip and no index: no network at all.
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv], check=True)
            py = os.path.join(venv, "bin", "python")
            subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q", "--no-index", wheels[0]],
                           check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            env = {k: v for k, v in os.environ.items() if k not in ("ROBOTSTXT_LIBRARY", "PYTHONPATH")}
            out = subprocess.run(
                [py, "-c", "import robotstxt; r = robotstxt.parse(b'User-agent: *\\nDisallow: /x\\n');"
                           "print(robotstxt.library_path()); print(r.allowed('/x', 'bot'))"],
                cwd=tmp, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout.split("\n")
            self.assertTrue(out[0].startswith(venv), out[0])
            self.assertEqual(out[1], "(False, 2)")


if __name__ == "__main__":
    unittest.main()

"""Builds the wheel of the robotstxt package with the standard library
alone (no network, no build backend): python3 build_wheel.py [--out DIR]
[--plat TAG]. The shared library must be built first (make python builds
it into robotstxt/_lib/). The wheel is py3-none-PLATFORM: the package
loads the library through cffi's ABI mode, so any Python 3 on that
platform can use it; PLATFORM is the host's unless --plat names another
(see docs/bindings.md, cross-platform builds)."""

import argparse
import base64
import hashlib
import os
import sysconfig
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "robotstxt"
SUMMARY = "Google's exact robots.txt answers (a Protego drop-in), from the robotstxt Go core"


def version():
    with open(os.path.join(HERE, NAME, "__init__.py"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("__version__"):
                return line.split("=")[1].strip().strip('"')
    raise SystemExit("no __version__ in robotstxt/__init__.py")


def files():
    """The package's files: (path in the wheel, path on disk)."""
    out = []
    for dirpath, _, names in os.walk(os.path.join(HERE, NAME)):
        for n in sorted(names):
            if n.endswith((".py", ".so", ".dylib", ".dll")):
                full = os.path.join(dirpath, n)
                out.append((os.path.relpath(full, HERE).replace(os.sep, "/"), full))
    return sorted(out)


def digest(data):
    h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "sha256=" + h


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=os.path.join(HERE, "dist"))
    ap.add_argument("--plat", default=sysconfig.get_platform().replace("-", "_").replace(".", "_"))
    args = ap.parse_args()
    pkg = files()
    if not any(p.startswith(NAME + "/_lib/") for p, _ in pkg):
        raise SystemExit("robotstxt/_lib/ holds no shared library: run `make python`")
    ver = version()
    tag = "py3-none-" + args.plat
    dist_info = "%s-%s.dist-info" % (NAME, ver)
    meta = {
        dist_info + "/METADATA": (
            "Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n"
            "License: see the repository's LICENSE\nRequires-Python: >=3.8\n"
            "Requires-Dist: cffi>=1.0\n" % (NAME, ver, SUMMARY)
        ),
        dist_info + "/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: robotstxt build_wheel.py\n"
            "Root-Is-Purelib: false\nTag: %s\n" % tag
        ),
        dist_info + "/top_level.txt": NAME + "\n",
    }
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "%s-%s-%s.whl" % (NAME, ver, tag))
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for arc, full in pkg:
            with open(full, "rb") as f:
                data = f.read()
            info = zipfile.ZipInfo(arc, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if arc.endswith((".so", ".dylib", ".dll")) else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            record.append("%s,%s,%d" % (arc, digest(data), len(data)))
        for arc, text in meta.items():
            data = text.encode()
            info = zipfile.ZipInfo(arc, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            record.append("%s,%s,%d" % (arc, digest(data), len(data)))
        record.append(dist_info + "/RECORD,,")
        info = zipfile.ZipInfo(dist_info + "/RECORD", date_time=(2026, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        z.writestr(info, "\n".join(record) + "\n")
    print(path)


if __name__ == "__main__":
    main()

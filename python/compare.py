"""Side by side: this package and Protego against Google's answers, and
their speed, in one run (docs/bindings.md shows the table).

    /usr/bin/python3 python/compare.py [--sample N] [--repeat R]

Agreement: Google's 145 suite cases (verdict) and the corpus's golden
questions (verdict, and for this package the deciding line, which Protego
does not report). Speed, medians over the corpus's files: a question
(the file's golden questions asked once after the parse, then R times
timed) and a
parse plus first answer (a fresh parse of the file, then its first
question; the mean of --first runs). Each parser runs over every file in
a pass of its own, the passes one after the other, twice, and each file's
better time counts; Python's garbage collector is paused as timeit pauses
it (collections run between files). Each parser gets the body as it takes it: bytes
here, text (UTF-8, errors replaced) for Protego."""

import argparse
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import robotstxt  # noqa: E402
from tests import data  # noqa: E402

try:
    import protego
except ImportError:  # pragma: no cover
    protego = None


def protego_version():
    try:
        from importlib.metadata import version
        return version("Protego")
    except Exception:  # pragma: no cover
        return ""


def agreement(sample):
    suite = data.google_cases()
    files = data.golden_cases()
    if sample:
        files = files[:: max(1, len(files) // sample)]
    res = {"suite": len(suite), "questions": sum(len(q) for _, q in files), "files": len(files)}
    ours = sum(robotstxt.Protego.parse(c["robots"]).allowed(c["url"], c["ua"])[0] == c["allowed"] for c in suite)
    res["ours_suite"] = ours
    ok = lines = 0
    for body, qs in files:
        rp = robotstxt.Protego.parse(body)
        for ua, url, want, line in qs:
            a, ln = rp.allowed(url, ua)
            ok += a == want
            lines += a == want and ln == line
    res["ours_verdict"], res["ours_line"] = ok, lines
    if protego is not None:
        good = 0
        for c in suite:
            try:
                p = protego.Protego.parse(c["robots"].decode("utf-8", "replace"))
                good += p.can_fetch(c["url"], c["ua"]) == c["allowed"]
            except Exception:  # Protego raises on some inputs: a disagreement
                pass
        res["protego_suite"] = good
        good = 0
        for body, qs in files:
            p = protego.Protego.parse(body.decode("utf-8", "replace"))
            for ua, url, want, _ in qs:
                try:
                    good += p.can_fetch(url, ua) == want
                except Exception:
                    pass
        res["protego_verdict"] = good
    return res, files


def timing(files, repeat, first):
    """Medians in microseconds: (question ours, question Protego, parse and
    first answer ours, the same Protego). Each parser runs over all the
    files in its own pass, the passes one after the other in this process;
    two rounds, and each file's better round counts."""
    perf = time.perf_counter
    texts = [body.decode("utf-8", "replace") for body, _ in files]

    def run(parse, bodies):
        q, f = [], []
        for i, (body, (_, qs)) in enumerate(zip(bodies, files)):
            if i % 50 == 0:
                gc.collect()
            ua, url = qs[0][0], qs[0][1]
            t = perf()
            for _ in range(first):
                parse(body).can_fetch(url, ua)
            f.append((perf() - t) / first)
            rp = parse(body)
            for a, u, _, _ in qs:  # the first answers (a file's first are read from its lines)
                rp.can_fetch(u, a)
            pairs = [(u, a) for a, u, _, _ in qs] * repeat
            t = perf()
            for u, a in pairs:
                rp.can_fetch(u, a)
            q.append((perf() - t) / len(pairs))
        return q, f

    gc.disable()  # as timeit does: collections run between files, not inside a timing
    try:
        rounds = []
        for _ in range(2):
            ours = run(robotstxt.Protego.parse, [b for b, _ in files])
            prot = run(protego.Protego.parse, texts) if protego is not None else ([], [])
            rounds.append(ours + prot)
    finally:
        gc.enable()
    best = [list(map(min, zip(*col))) for col in zip(*rounds)]
    med = lambda v: statistics.median(v) * 1e6 if v else float("nan")  # noqa: E731
    return med(best[0]), med(best[2]), med(best[1]), med(best[3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=0, help="files of the corpus to use (0: all)")
    ap.add_argument("--repeat", type=int, default=20, help="times each question is asked")
    ap.add_argument("--first", type=int, default=3, help="times each file is parsed and asked once")
    args = ap.parse_args()
    res, files = agreement(args.sample)
    q_ours, q_prot, f_ours, f_prot = timing(files, args.repeat, args.first)
    n, s = res["questions"], res["suite"]
    print("| parser | Google's suite | corpus verdicts | corpus lines | question (median) | parse + first answer (median) |")
    print("|---|---|---|---|---|---|")
    print("| robotstxt (this package) | %d/%d | %d/%d | %d/%d | %.2f µs | %.1f µs |"
          % (res["ours_suite"], s, res["ours_verdict"], n, res["ours_line"], n, q_ours, f_ours))
    if protego is not None:
        print("| Protego %s | %d/%d | %d/%d | (none) | %.2f µs | %.1f µs |"
              % (protego_version(), res["protego_suite"], s, res["protego_verdict"], n, q_prot, f_prot))
        print()
        print("%d files; parse + first answer %.0fx faster than Protego, a question %.1fx"
              % (res["files"], f_prot / f_ours, q_prot / q_ours))
    else:
        print("\n(Protego is not installed: apt-get install python3-protego)")
    ok = res["ours_suite"] == s and res["ours_verdict"] == n and res["ours_line"] == n
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

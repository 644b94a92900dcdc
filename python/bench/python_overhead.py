"""Overhead of the Python module over the C++ loop (docs/python.md, Benchmark). Prints two tables of CPU seconds
(this process's for Python, the child's for `varsim run`, so other jobs on the machine do not count; best of R):
  - per scene: Scene.step(n) (the loop, nothing recorded), Scene.run(steps=n) (the loop + every row into numpy
    arrays), `varsim run` without output (the loop + process start) and `varsim run --csv FILE` (the same numbers
    as run(), written as text), on the ladder N = 100 (2000 steps) and the rigid body (1e5 steps);
  - Scene.step() called n times from a Python loop against one Scene.step(n): the overhead per call.
Usage: PYTHONPATH=build/python /usr/bin/python3 python/bench/python_overhead.py build/ui/varsim [--quick]"""
import os
import resource
import subprocess
import sys
import tempfile
import time

import varsim


def cpu(f, repeats):
    """Best CPU time (s) of f() over repeats, this process."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        f()
        best = min(best, time.process_time() - start)
    return best


def child_cpu(args, repeats):
    """Best CPU time (s, user + system) of the command over repeats."""
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(args, check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main(binary, quick=False):
    repeats = 2 if quick else 5
    cases = [("ladder", {"links": 100}, 200 if quick else 2000), ("rigid_body", {}, 10000 if quick else 100000)]
    print("CPU seconds, best of %d" % repeats)
    print("%-11s %7s %10s %10s %10s %10s %9s %9s" % ("scene", "steps", "step(n)", "run()", "cli", "cli --csv",
                                                     "run/cli", "run/csv"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, params, steps in cases:
            loop = cpu(lambda: varsim.Scene(name, **params).step(steps), repeats)
            run = cpu(lambda: varsim.Scene(name, **params).run(steps=steps), repeats)
            args = [binary, "run", name, *[a for k, v in params.items() for a in ("--set", "%s=%s" % (k, v))],
                    "--steps", str(steps)]
            cli = child_cpu(args, repeats)
            csv = child_cpu(args + ["--csv", os.path.join(tmp, "out.csv")], repeats)
            rows.append((name, steps, loop, run, cli, csv))
            print("%-11s %7d %10.4f %10.4f %10.4f %10.4f %+8.1f%% %+8.1f%%" % (
                name, steps, loop, run, cli, csv, 100 * (run - cli) / cli, 100 * (run - csv) / csv))
    n = 10000 if quick else 100000
    s = varsim.Scene("rigid_body")
    step = s.step
    calls = cpu(lambda: [step() for _ in range(n)], repeats)
    batch = cpu(lambda: step(n), repeats)
    empty = cpu(lambda: [None for _ in range(n)], repeats)
    print("step() x %d from a Python loop: %.4f s; step(%d): %.4f s; the loop alone: %.4f s" % (n, calls, n, batch, empty))
    print("overhead per call beyond the step: %.3f us (of which the Python for-loop %.3f us)"
          % (1e6 * (calls - batch) / n, 1e6 * empty / n))
    return rows, (calls - batch) / n


if __name__ == "__main__":
    main(sys.argv[1], quick="--quick" in sys.argv)

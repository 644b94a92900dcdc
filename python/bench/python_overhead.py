"""Overhead of the Python module over the C++ loop (docs/python.md, Benchmarks). Prints a table:
  - Scene.run() against `varsim run` (same scene, steps, no CSV file) on the ladder N = 100 (2000 steps) and the
    rigid body (1e5 steps); `varsim run` is timed as a process, so its start-up (~ms) is in its column;
  - Scene.step() called n times from Python against one Scene.step(n): the per-call overhead.
Usage: PYTHONPATH=build/python /usr/bin/python3 python/bench/python_overhead.py build/ui/varsim [--quick]"""
import subprocess
import sys
import time

import varsim


def best(f, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main(binary, quick=False):
    repeats = 1 if quick else 3
    cases = [("ladder", {"links": 100}, 200 if quick else 2000), ("rigid_body", {}, 10000 if quick else 100000)]
    print("%-12s %8s %12s %12s %9s" % ("scene", "steps", "python (s)", "cli (s)", "overhead"))
    for name, params, steps in cases:
        py = best(lambda: varsim.Scene(name, **params).run(steps=steps), repeats)
        sets = [a for k, v in params.items() for a in ("--set", "%s=%s" % (k, v))]
        cli = best(lambda: subprocess.run([binary, "run", name, *sets, "--steps", str(steps)], check=True,
                                          capture_output=True), repeats)
        print("%-12s %8d %12.4f %12.4f %8.1f%%" % (name, steps, py, cli, 100.0 * (py - cli) / cli))
    n = 10000 if quick else 100000
    s = varsim.Scene("rigid_body")
    calls = best(lambda: [s.step() for _ in range(n)], repeats)
    batch = best(lambda: s.step(n), repeats)
    print("step() x %d from Python: %.4f s, step(%d): %.4f s, overhead per call: %.3f us"
          % (n, calls, n, batch, 1e6 * (calls - batch) / n))


if __name__ == "__main__":
    main(sys.argv[1], quick="--quick" in sys.argv)

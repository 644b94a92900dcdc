#!/usr/bin/python3
"""The pendulum's first-order midpoint sweep (scenes/tree/pendulum_step_rule.cpp, its alpha 0 and 1 tables): links x
theta0 x release x dt at length 0.5 m and gravity 9.81 m/s^2, each run DURATION seconds (20 by default), one process
at a time. Prints one table row per (alpha, release, links) in the source's format, a group of one character per
swept dt for each angle: 1 exit 0 without an energy flag, 0 exit 3 or an energy flag, r refused (exit 2),
t timeout; then the counts. Run against the shipped binary it checks that every start the rule accepts runs
(no 0 where the binary did not say r); the tables were measured with the first-order rule off.

Usage: scripts/range_pendulum_sweep.py build/ui/varsim [--duration 20] [--timeout 120] [--alphas 0,1]
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile

LINKS = [1, 2, 3, 5, 10, 19, 40]
ANGLES = [0.1, 0.5, 0.8, 1.5, 2.0, 3.0]
STEPS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05]
RELEASES = ["every_joint", "first_joint"]


def outcome(binary, sets, duration, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        args = [binary, "run", "pendulum", "--duration", str(duration), "--csv", os.path.join(tmp, "run.csv")]
        for k, v in sets.items():
            args += ["--set", f"{k}={v}"]
        try:
            p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "t"
    if p.returncode == 2:
        return "r"
    return "1" if p.returncode == 0 and "energy gained without input" not in p.stderr else "0"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--alphas", default="0,1")
    a = ap.parse_args()
    binary = os.path.realpath(a.binary)
    counts = collections.Counter()
    for alpha in a.alphas.split(","):
        for release in RELEASES:
            for n in LINKS:
                groups = []
                for theta0 in ANGLES:
                    marks = ""
                    for dt in STEPS:
                        sets = {"alpha": alpha, "release": release, "links": n, "theta0": theta0, "dt": dt}
                        marks += outcome(binary, sets, a.duration, a.timeout)
                    groups.append(marks)
                    counts.update(marks)
                print(f"alpha {alpha} {release:11} N={n:2}: \"{' '.join(groups)}\"", flush=True)
    print(f"{sum(counts.values())} runs of {a.duration} s: " +
          ", ".join(f"{counts[c]} {name}" for c, name in
                    [("1", "ran"), ("0", "failed"), ("r", "refused"), ("t", "timed out")]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

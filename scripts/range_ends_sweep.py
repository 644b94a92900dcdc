#!/usr/bin/python3
"""Single-key range-end sweep through the varsim binary: every numeric key of every scene set alone to each end of
its accepted range (the same ends as range_pairs_sweep.py), each run for DURATION seconds (20 by default) with a
TIMEOUT. Prints one line per run that is not a clean exit 0, then the counts: exit 0 / exit 2 / exit 3 / other /
timeouts / energy flags / cost warnings. A run we accept must exit 0 without an energy flag; exit 2 is a refusal.

Usage: scripts/range_ends_sweep.py build/ui/varsim [--duration 20] [--timeout 120] [--jobs 2] [--scene NAME]
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from range_pairs_sweep import numeric_keys, run  # noqa: E402  (one definition of "range end" and of a run)


def cases(binary, only_scene):
    scenes = subprocess.run([binary, "list"], capture_output=True, text=True, check=True).stdout.split()
    for scene in scenes:
        if only_scene and scene != only_scene:
            continue
        for key, key_ends in numeric_keys(binary, scene):
            for _, value in key_ends:
                yield ("", scene, [(key, value)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scene", default="")
    a = ap.parse_args()
    binary = os.path.realpath(a.binary)
    runs = list(cases(binary, a.scene))
    counts = {"exit 0": 0, "exit 2": 0, "exit 3": 0, "other": 0, "timeout": 0, "energy flag": 0,
              "cost warning": 0}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for args, rc, err in pool.map(lambda c: run(binary, c, a.duration, a.timeout), runs):
            flagged = "energy gained without input" in err
            key = {0: "exit 0", 2: "exit 2", 3: "exit 3", "timeout": "timeout"}.get(rc, "other")
            counts[key] += 1
            counts["energy flag"] += flagged
            counts["cost warning"] += "estimated wall time" in err
            if rc != 0 or flagged:
                last = [l for l in err.splitlines() if l.strip()][-1:] or [""]
                print(f"{key}{' FLAG' if flagged else ''}: {' '.join(args[2:-2])} :: {last[0][:220]}", flush=True)
    print(f"{len(runs)} runs of {a.duration} s (timeout {a.timeout} s):")
    for k, v in counts.items():
        print(f"  {k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

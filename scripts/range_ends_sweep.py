#!/usr/bin/python3
"""Single-key range-end sweep through the varsim binary: every numeric key of every scene set alone to each end of
its accepted range (the same ends as range_pairs_sweep.py), each run for DURATION seconds (20 by default) with a
TIMEOUT. Prints one line per run that is not a clean exit 0, then the counts: exit 0 / exit 2 / exit 3 / other /
timeouts / energy flags / cost warnings. A run we accept must exit 0 without an energy flag; exit 2 is a refusal.

Usage: scripts/range_ends_sweep.py build/ui/varsim [--duration 20] [--timeout 120] [--jobs 2] [--scene NAME]
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from range_sweep_common import numeric_keys, report  # noqa: E402  (shared with range_pairs_sweep.py)


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
    report(binary, runs, a.duration, a.timeout, a.jobs, show_refusals=True, width=220, warned_timeouts=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())

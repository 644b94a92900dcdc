#!/usr/bin/python3
"""Choice keys at the numeric range ends, through the varsim binary: for every scene, each value of each choice key
other than its default (the default is what range_pairs_sweep.py and range_ends_sweep.py run) set together with one
numeric key at one end of its range (the same ends as those sweeps), each run for DURATION seconds with a TIMEOUT.
A start we accept must exit 0 without an energy flag; exit 2 is a refusal. Prints one line per run that is not a
clean exit 0 or 2, then the counts: exit 0 / exit 2 / exit 3 / other / timeouts / energy flags / cost warnings.

Usage: scripts/range_choices_sweep.py build/ui/varsim [--duration 3] [--timeout 60] [--jobs 2]
                                       [--scenes helicopter,boat]   (only these scenes)
                                       [--choice integrator=rk4]     (only this choice key at this value)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from range_sweep_common import (choice_keys, numeric_keys, report,  # noqa: E402  (shared)
                                scene_sweep_arguments, selected_scenes)


def cases(binary, only, pinned):
    for scene in selected_scenes(binary, only, "range_choices_sweep"):
        numeric = numeric_keys(binary, scene)
        for key, values in choice_keys(binary, scene):
            for value in values:
                if pinned and pinned != f"{key}={value}":
                    continue
                for number, key_ends in numeric:
                    for _, end in key_ends:
                        yield ("", scene, [(key, value), (number, end)])


def main():
    ap = scene_sweep_arguments()
    ap.add_argument("--choice", dest="pinned", default="", help="KEY=VALUE: only this choice key at this value")
    a = ap.parse_args()
    if a.pinned and a.pinned.count("=") != 1:
        sys.exit(f"range_choices_sweep: --choice {a.pinned}: expected KEY=VALUE")
    binary = os.path.realpath(a.binary)
    runs = list(cases(binary, [s for s in a.scenes.split(",") if s], a.pinned))
    report(binary, runs, a.duration, a.timeout, a.jobs, show_refusals=False, width=200, warned_timeouts=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Pairwise range-end sweep through the varsim binary: for every scene, pairs of numeric keys (reals, integers,
vectors with every component alike) set together to their range ends (lo/lo, lo/hi, hi/lo, hi/hi; an exclusive
lower bound of 0 is taken as 1e-308), each run for DURATION seconds with a TIMEOUT. Runs are sampled
deterministically (a hash of scene, keys and ends) to at most PER_SCENE per scene. Prints one line per run that is
not a clean exit 0, then the counts: exit 0 / exit 2 / exit 3 / other / timeouts / energy flags / cost warnings.

Usage: scripts/range_pairs_sweep.py build/ui/varsim [--duration 3] [--timeout 60] [--per-scene 180] [--jobs 2]
                                     [--scenes chain,ladder]   (only these scenes; the same sample of each)
                                     [--with links=hi]         (only the pairs that hold this key at this end)
"""
import hashlib
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from range_sweep_common import (numeric_keys, report, scene_sweep_arguments,  # noqa: E402  (shared)
                                selected_scenes)


def cases(binary, per_scene, only, pinned):
    for scene in selected_scenes(binary, only, "range_pairs_sweep"):
        keys = numeric_keys(binary, scene)
        runs = []
        for (ka, ea), (kb, eb) in itertools.combinations(keys, 2):
            for (na, va), (nb, vb) in itertools.product(ea, eb):
                tag = f"{scene} {ka}={na} {kb}={nb}"
                if pinned and pinned not in (f"{ka}={na}", f"{kb}={nb}"):
                    continue
                runs.append((hashlib.sha256(tag.encode()).hexdigest(), scene, [(ka, va), (kb, vb)]))
        runs.sort()
        yield from runs[:per_scene]


def main():
    ap = scene_sweep_arguments()
    ap.add_argument("--per-scene", type=int, default=180)
    ap.add_argument("--with", dest="pinned", default="", help="KEY=lo|hi: only the pairs holding KEY at that end")
    a = ap.parse_args()
    if a.pinned and not (a.pinned.count("=") == 1 and a.pinned.split("=")[1] in ("lo", "hi")):
        sys.exit(f"range_pairs_sweep: --with {a.pinned}: expected KEY=lo or KEY=hi")
    binary = os.path.realpath(a.binary)
    runs = list(cases(binary, a.per_scene, [s for s in a.scenes.split(",") if s], a.pinned))
    report(binary, runs, a.duration, a.timeout, a.jobs, show_refusals=False, width=200, warned_timeouts=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

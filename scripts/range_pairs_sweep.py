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
import argparse
import concurrent.futures
import hashlib
import itertools
import json
import os
import subprocess
import sys
import tempfile


def ends(spec):
    """The accepted range ends of one numeric key as --set text (vectors: every component at the end)."""
    lo, hi = spec["min"], spec["max"]
    if spec.get("min_exclusive"):
        lo = 1e-308 if lo == 0 else lo + 1e-9 * max(1.0, abs(lo))
    if spec["type"] == "integer":
        lo, hi = int(lo), int(hi)
    size = len(spec["default"]) if isinstance(spec["default"], list) else 1
    text = lambda v: ",".join([repr(v)] * size)
    return [("lo", text(lo)), ("hi", text(hi))]


def numeric_keys(binary, scene):
    described = json.loads(subprocess.run([binary, "describe", scene], capture_output=True, text=True,
                                          check=True).stdout)
    keys = []
    for spec in described["params"]:
        if spec["type"] in ("real", "integer") or (spec["type"] == "vector" and isinstance(spec["default"], list)
                                                    and len(spec["default"]) > 0 and spec.get("size", 1) != 0):
            if spec["min"] > -1e299 and spec["max"] < 1e299:
                keys.append((spec["key"], ends(spec)))
    return keys


def cases(binary, per_scene, only, pinned):
    scenes = subprocess.run([binary, "list"], capture_output=True, text=True, check=True).stdout.split()
    unknown = set(only) - set(scenes)
    if unknown:
        sys.exit(f"range_pairs_sweep: --scenes names unknown scene(s) {', '.join(sorted(unknown))}; allowed: "
                 f"{', '.join(scenes)}")
    for scene in scenes:
        if only and scene not in only:
            continue
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


def run(binary, case, duration, timeout):
    _, scene, sets = case
    args = [binary, "run", scene, "--duration", str(duration)]
    for k, v in sets:
        args += ["--set", f"{k}={v}"]
    with tempfile.TemporaryDirectory() as tmp:
        args += ["--csv", os.path.join(tmp, "run.csv")]
        try:
            p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
            return args, "timeout", err
    return args, p.returncode, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--duration", type=float, default=3.0)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--per-scene", type=int, default=180)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scenes", default="", help="comma-separated scene names (default: every scene)")
    ap.add_argument("--with", dest="pinned", default="", help="KEY=lo|hi: only the pairs holding KEY at that end")
    a = ap.parse_args()
    if a.pinned and not (a.pinned.count("=") == 1 and a.pinned.split("=")[1] in ("lo", "hi")):
        sys.exit(f"range_pairs_sweep: --with {a.pinned}: expected KEY=lo or KEY=hi")
    binary = os.path.realpath(a.binary)
    runs = list(cases(binary, a.per_scene, [s for s in a.scenes.split(",") if s], a.pinned))
    counts = {"exit 0": 0, "exit 2": 0, "exit 3": 0, "other": 0, "timeout": 0, "energy flag": 0,
              "cost warning": 0, "timeout after a cost warning": 0}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for args, rc, err in pool.map(lambda c: run(binary, c, a.duration, a.timeout), runs):
            flagged = "energy gained without input" in err
            costed = "estimated wall time" in err
            key = {0: "exit 0", 2: "exit 2", 3: "exit 3", "timeout": "timeout"}.get(rc, "other")
            counts[key] += 1
            counts["energy flag"] += flagged
            counts["cost warning"] += costed
            counts["timeout after a cost warning"] += rc == "timeout" and costed
            if rc not in (0, 2) or flagged:
                last = [l for l in err.splitlines() if l.strip()][-1:] or [""]
                print(f"{key}{' FLAG' if flagged else ''}: {' '.join(args[2:-2])} :: {last[0][:200]}", flush=True)
    print(f"{len(runs)} runs of {a.duration} s (timeout {a.timeout} s):")
    for k, v in counts.items():
        print(f"  {k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

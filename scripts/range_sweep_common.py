#!/usr/bin/python3
"""What the range-end sweeps (range_pairs_sweep.py, range_ends_sweep.py) share: the accepted ends of a numeric key,
the numeric keys of a scene, one run through the varsim binary, and the report loop that runs the cases on a thread
pool, prints one line per run that is not clean and then the counts."""
import argparse
import concurrent.futures
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


def report(binary, runs, duration, timeout, jobs, show_refusals, width, warned_timeouts):
    """Runs every case (jobs at a time), prints one line per run that exited other than 0 (or 0 and 2 when
    show_refusals is false) or was flagged, its last stderr line cut to width, then the counts. warned_timeouts:
    also count the timeouts that came after a cost warning."""
    counts = {"exit 0": 0, "exit 2": 0, "exit 3": 0, "other": 0, "timeout": 0, "energy flag": 0, "cost warning": 0}
    if warned_timeouts:
        counts["timeout after a cost warning"] = 0
    clean = (0,) if show_refusals else (0, 2)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for args, rc, err in pool.map(lambda c: run(binary, c, duration, timeout), runs):
            flagged = "energy gained without input" in err
            costed = "estimated wall time" in err
            key = {0: "exit 0", 2: "exit 2", 3: "exit 3", "timeout": "timeout"}.get(rc, "other")
            counts[key] += 1
            counts["energy flag"] += flagged
            counts["cost warning"] += costed
            if warned_timeouts:
                counts["timeout after a cost warning"] += rc == "timeout" and costed
            if rc not in clean or flagged:
                last = [l for l in err.splitlines() if l.strip()][-1:] or [""]
                print(f"{key}{' FLAG' if flagged else ''}: {' '.join(args[2:-2])} :: {last[0][:width]}", flush=True)
    print(f"{len(runs)} runs of {duration} s (timeout {timeout} s):")
    for k, v in counts.items():
        print(f"  {k}: {v}")


def scene_sweep_arguments():
    """The arguments of the scene-by-scene 3 s sweeps: the binary, --duration, --timeout, --jobs, --scenes."""
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--duration", type=float, default=3.0)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scenes", default="", help="comma-separated scene names (default: every scene)")
    return ap


def selected_scenes(binary, only, tool):
    """The scenes `varsim list` prints, or those of them named in `only` (exits naming any unknown one)."""
    scenes = subprocess.run([binary, "list"], capture_output=True, text=True, check=True).stdout.split()
    unknown = set(only) - set(scenes)
    if unknown:
        sys.exit(f"{tool}: --scenes names unknown scene(s) {', '.join(sorted(unknown))}; allowed: {', '.join(scenes)}")
    return [s for s in scenes if not only or s in only]


def choice_keys(binary, scene):
    """The choice keys of a scene, each with its values other than the default (the default is what the numeric
    sweeps already ran)."""
    described = json.loads(subprocess.run([binary, "describe", scene], capture_output=True, text=True,
                                          check=True).stdout)
    return [(spec["key"], [v for v in spec["choices"] if v != spec["default"]])
            for spec in described["params"] if spec["type"] == "choice" and len(spec["choices"]) > 1]

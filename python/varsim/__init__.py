"""varsim: Lie group variational integrators and SPOOK constrained multibodies, from Python.

The physics is the C++ of `varsim run`, `varsim plan`, `varsim mpc` and `varsim study` (module varsim._varsim); this
package adds the conversions to plain Python and numpy. Units are SI throughout (s, m, kg, J, rad).
"""
import json as _json

import numpy as _np

from ._varsim import BadInput, Diverged, Scene, scenes
from . import _varsim
from ._plan import PlanFailed, PlanResult, plan
from ._mpc import MpcResult, mpc

BadInput.__doc__ = """Refused input (a ValueError): the message of `varsim` (exit 2) naming the file or key, the value and
the allowed range. Nothing changed."""
Diverged.__doc__ = """The simulation diverged (a RuntimeError): the message of `varsim run` (exit 3) naming the step and
the quantity that is not finite. When the step itself refuses, the scene keeps its last good state; when a completed
step's diagnostic is not finite, that step is counted."""

__all__ = ["BadInput", "Diverged", "MpcResult", "PlanFailed", "PlanResult", "Scene", "scenes", "describe", "plan",
           "mpc", "study", "csv_table"]


def describe(name):
    """The data `varsim describe NAME` prints (dict: name, title, description, params with type, default,
    range, unit, help). Raises BadInput for an unknown scene."""
    return _json.loads(_varsim.describe_json(name))


def csv_table(text):
    """Parse CSV text as varsim writes it (header line, '#' comment lines skipped) into a dict of 1-D arrays:
    float64 where every value is a number (parsed exactly from %.17g), else an array of str."""
    lines = [l for l in text.splitlines() if l and not l.startswith("#")]
    header = lines[0].split(",")
    cells = [l.split(",") for l in lines[1:]]
    out = {}
    for c, name in enumerate(header):
        column = [row[c] for row in cells]
        try:
            out[name] = _np.array([float(v) for v in column], dtype=_np.float64)
        except ValueError:
            out[name] = _np.array(column, dtype=str)
    return out


def study(figure, runs=None, seed=1, threads=1, duration=None, methods=None, h=None, hmax=None, hmin=None,
          timings=False, shard=None):
    """Run an integrator study as `varsim study FIGURE ...` does and return its CSV as a dict of arrays
    (one row per (method, h, run), sorted; for fig3 the orbit of its one case, as its --csv). figure: 'fig3' | 'fig4' | 'fig5' | 'fig5s'; runs: random cases
    (None: the figure's default); seed: integer; threads: worker threads (1-64); duration (s), h, hmax,
    hmin (s) and methods (list of names) as the command's flags. The GIL is released while it runs; the numbers do
    not depend on threads. shard=(i, n) runs only shard i of n (1 <= i <= n: the cases r with r % n == i - 1), as
    --shard i/n; the shards' rows together are the unsharded run's. Raises BadInput with the command's message."""
    args = ["study", figure, "--seed", str(seed), "--threads", str(threads)]
    for flag, value in (("--runs", runs), ("--duration", duration), ("--h", h), ("--hmax", hmax),
                        ("--hmin", hmin)):
        if value is not None:
            args += [flag, repr(value) if isinstance(value, float) else str(value)]
    if methods is not None:
        args += ["--methods", ",".join(methods)]
    if shard is not None:
        args += ["--shard", "%d/%d" % tuple(shard)]
    if timings:
        args.append("--timings")
    return csv_table(_varsim.study_csv(args))

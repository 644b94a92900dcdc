"""varsim.mpc(): the closed loop `varsim mpc` runs (plan/mpc_run.h), the receding-horizon controller flying a plan
problem's vehicle, and its result: the CSV as arrays and the command's summary line."""
import os as _os
import tempfile as _tempfile

from . import _varsim
from ._plan import PlanFailed


class MpcResult:
    """A closed-loop run. Attributes:
      table (dict of 1-D float64 arrays): the CSV of `varsim mpc --csv` (the scene's columns, mpc_iterations,
        mpc_status: 1 adopted, 0 stale, -1 no re-plan at that step; goal_x, goal_y, goal_z and tracking_error where
        the goal is a position; solve_us only with timings=True);
      summary (str): the command's stderr line ("mpc SOURCE: K steps of h=H, S solves (A adopted, ...)")."""

    def __init__(self, table, summary):
        self.table, self.summary = table, summary

    def __repr__(self):
        return "<varsim.MpcResult %s>" % self.summary


def _text(value):
    """A value as `--set`/`--disturb` text: bools as true/false, floats exactly (repr), lists as comma lists."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return ",".join(_text(v) for v in value)
    return str(value)


def mpc(problem, duration=None, csv=None, horizon=None, period=None, iterations=None, restart=None, cold=False,
        mismatch=None, disturb=None, push=None, goal_track=None, kkt=None, dynamics_tolerance=None, rollout=None,
        timings=False, **set):
    """Fly a plan problem's vehicle in closed loop as `varsim mpc PROBLEM [options]` does and return an MpcResult.

    problem: a problem file path (assets/problems/*.json); set: --set overrides (plan keys, else scene keys).
    duration (s, default 10), horizon (segments), period (s; default the vehicle's: 0.1, the boat's two steps of its
    dt, 0.2 at h = 0.1), iterations (Ipopt iterations per re-plan), restart (s between cold restarts, 0 never), cold
    (bool): the command's flags of the same names, with its ranges and defaults (None: the vehicle's); mismatch,
    disturb: dicts {key: factor} / {key: value} for the real vehicle only (--mismatch, --disturb); push: list of
    (t, px, py, pz) impulses (--push); goal_track: a 't,x,y' file moving the goal (--goal-track); kkt: Ipopt's
    linear solver, "mumps" or "ldl" (--kkt); dynamics_tolerance: the dynamics residual a re-plan is adopted at,
    1e-6 to 1 (--dynamics-tolerance); rollout (bool): fly a solve that spent its budget through the controller's
    model scene and adopt it when its rows beyond the dynamics hold (--rollout; the helicopter's default unless its
    horizons end at rest or on the target pose, where True is refused); timings: keep
    the solve_us column. csv: also write the CSV there (default: a temporary file, read back and removed). The GIL
    is released while it runs; its re-plans take turns with plans from other threads. Raises BadInput (the
    command's exit 2 message) and PlanFailed (exit 4: no re-plan was ever adopted; str() is the summary, .status
    "no_plan_adopted")."""
    args = ["mpc", _os.fspath(problem)]
    for key, value in set.items():
        args += ["--set", "%s=%s" % (key, _text(value))]
    for flag, value in (("--duration", duration), ("--horizon", horizon), ("--period", period),
                        ("--iterations", iterations), ("--restart", restart), ("--kkt", kkt),
                        ("--dynamics-tolerance", dynamics_tolerance), ("--rollout", rollout)):
        if value is not None:
            args += [flag, _text(value)]
    for flag, pairs in (("--mismatch", mismatch), ("--disturb", disturb)):
        for key, value in (pairs or {}).items():
            args += [flag, "%s=%s" % (key, _text(value))]
    for p in push or ():
        args += ["--push", _text(list(p))]
    if goal_track is not None:
        args += ["--goal-track", _os.fspath(goal_track)]
    if cold:
        args.append("--cold")
    if timings:
        args.append("--timings")
    with _tempfile.TemporaryDirectory(prefix="varsim_mpc_") as tmp:
        path = _os.fspath(csv) if csv is not None else _os.path.join(tmp, "mpc.csv")
        code, summary = _varsim.mpc_run(args + ["--csv", path])
        if code != 0:
            raise PlanFailed(summary, "no_plan_adopted", 0, [])
        with open(path) as f:
            text = f.read()
    from . import csv_table  # the package's parser (defined in __init__, imported lazily: no import cycle)
    return MpcResult(csv_table(text), summary)


MpcResult.__module__ = "varsim"  # as users import it

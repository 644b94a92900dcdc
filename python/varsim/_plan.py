"""varsim.plan(): trajectory optimisation with Ipopt, the solve `varsim plan` runs (plan/plan_session.h), and its
result: the plan CSV as arrays, the replay inputs file's text and a Scene that replays it."""
import json as _json
import os as _os
import tempfile as _tempfile

from . import _varsim


class PlanFailed(RuntimeError):
    """Ipopt did not solve the problem (exit 4 of `varsim plan`; also when the CPU budget, cpu_budget=, ran out). str():
    the command's message ("not solved: [the CPU budget of B s ran out; ]Ipopt status S after K iterations; smallest
    primal infeasibility I (iteration J)"); .status (Ipopt's status), .iterations, .log (per-iteration lines)."""

    def __init__(self, message, status, iterations, log):
        super().__init__(message)
        self.status, self.iterations, self.log = status, iterations, log


class PlanResult:
    """A solved plan. Attributes:
      status (str): Ipopt's status ("Solve_Succeeded" or "Solved_To_Acceptable_Level");
      iterations (int); cost (float): the objective (units of the problem's weights);
      scene (str): the planned scene; steps (int): N, the plan covers N steps of the scene's dt;
      table (dict of 1-D float64 arrays): the plan CSV of `varsim plan --csv` (t in s at nodes 0..N, the scene's
        standard columns, the controls, dyn_residual);
      inputs (str): the text `varsim plan --inputs` writes (its comment names the file it was written to);
      replay_command (str): the `varsim run` command that replays it; header, log: the command's stderr lines.
    replay() -> Scene: the scene with the plan's replay parameters playing its inputs; run(steps=result.steps)
    gives `varsim run` of replay_command bit for bit. stats() -> dict: sizes, wall/CPU seconds of the solve,
    max_dyn_residual (the transcription's, at the plan), max_violation."""

    def __init__(self, solve, table, inputs, inputs_path):
        self._solve = solve
        self.status, self.iterations, self.cost = solve.status, solve.iterations, solve.cost
        self.scene, self.steps = solve.scene, solve.segments
        self.table, self.inputs = table, inputs
        self.header, self.log = solve.header, list(solve.log)
        self.replay_command = solve.outcome(inputs_path).split("; replay: ", 1)[1]

    def replay(self):
        """A new varsim.Scene replaying the plan open loop from t = 0 (Scene.play of the plan's inputs)."""
        return self._solve.replay()

    def stats(self):
        """dict: variables, constraints, jacobian_nonzeros, hessian_nonzeros, iterations, wall_seconds and
        cpu_seconds (s, the Ipopt solve only), cost, max_dyn_residual, max_violation, status."""
        return self._solve.stats()

    def __repr__(self):
        return "<varsim.PlanResult %s: %s, %d iterations, cost %.9g>" % (self.scene, self.status, self.iterations,
                                                                         self.cost)


def plan(problem, csv=None, inputs=None, cpu_budget=None, kkt=None, **set):
    """Solve a trajectory-optimisation problem as `varsim plan PROBLEM --set k=v... --csv FILE --inputs FILE
    [--cpu-budget S] [--kkt ldl|mumps]` does.

    problem: a problem file path (assets/problems/*.json) or a dict of the same content {"scene": name,
    "params": {scene keys}, "plan": {plan keys}}; set: overrides of plan keys, else scene keys (values as for
    Scene). csv, inputs: paths to write the plan CSV and the replay inputs file to (default: temporary files,
    read back and removed). cpu_budget: CPU seconds the solve may take, > 0 to 86400, as --cpu-budget (None: its
    default, 20 s); a solve still running then stops with PlanFailed (status Maximum_CpuTime_Exceeded). kkt: Ipopt's
    linear solver, "ldl" (None: the default) or "mumps", as --kkt ("varsim.plan: kkt='x': allowed ldl, mumps"). The GIL is
    released while Ipopt runs; solves from several threads take turns. Returns a PlanResult. Raises BadInput (the
    command's exit 2 message; "varsim.plan: cpu_budget=0: allowed > 0 to 86400 (CPU seconds of the solve)") and
    PlanFailed (exit 4)."""
    if isinstance(problem, dict):
        solve = _varsim.Plan.load(_json.dumps(problem), True, set, cpu_budget, kkt)
    else:
        solve = _varsim.Plan.load(_os.fspath(problem), False, set, cpu_budget, kkt)
    solve.solve()
    if not solve.solved:
        raise PlanFailed(solve.outcome(""), solve.status, solve.iterations, list(solve.log))
    with _tempfile.TemporaryDirectory(prefix="varsim_plan_") as tmp:
        csv_path = _os.fspath(csv) if csv is not None else _os.path.join(tmp, "plan.csv")
        inputs_path = _os.fspath(inputs) if inputs is not None else _os.path.join(tmp, "plan_inputs.csv")
        solve.write(csv_path, inputs_path)
        with open(csv_path) as f:
            table = _csv_table(f.read())
        with open(inputs_path) as f:
            text = f.read()
    return PlanResult(solve, table, text, inputs_path)


def _csv_table(text):
    from . import csv_table  # the package's parser (defined in __init__, imported lazily: no import cycle)
    return csv_table(text)


PlanFailed.__module__ = PlanResult.__module__ = "varsim"  # as users import them

"""varsim.plan against `varsim plan`, its replay against `varsim run --input`, and Scene.play of input files."""
import json
import os

import numpy as np
import pytest

import varsim
from conftest import ROOT, assert_same_table

PROBLEM = "assets/problems/car_goto.json"  # 12 Ipopt iterations, ~0.1 s


def data_lines(text):
    return [l for l in text.splitlines() if not l.startswith("#")]


@pytest.fixture(scope="module")
def result():
    cwd = os.getcwd()
    os.chdir(ROOT)  # the problem path as the command sees it, so the header lines agree
    try:
        return varsim.plan(PROBLEM)
    finally:
        os.chdir(cwd)


def test_plan_equals_cli(cli, result, tmp_path):
    inputs = tmp_path / "in.csv"
    code, err = cli.run("plan", PROBLEM, "--csv", str(tmp_path / "plan.csv"), "--inputs", str(inputs))
    assert code == 0, err
    assert_same_table(result.table, varsim.csv_table((tmp_path / "plan.csv").read_text()))
    assert data_lines(result.inputs) == data_lines(inputs.read_text())
    lines = err.splitlines()
    assert [result.header] + result.log == lines[:-1]
    assert lines[-1].startswith("solved (%s): %d iterations, cost %.9g; replay: " %
                                (result.status, result.iterations, result.cost))
    assert result.status == "Solve_Succeeded" and result.iterations == 12 and result.steps == 200
    assert len(result.table["t"]) == result.steps + 1
    stats = result.stats()
    assert stats["max_dyn_residual"] < 1e-8 and stats["iterations"] == 12 and stats["variables"] > 0


def test_replay_equals_cli_run_of_the_inputs(cli, result, tmp_path):
    path = tmp_path / "in.csv"
    path.write_text(result.inputs)
    args = result.replay_command.split()[1:-2] + ["--input", str(path)]
    assert args[:2] == ["run", "car"] and "--steps" in args
    s = result.replay()
    assert s.playing and s.name == "car"
    got = s.run(steps=result.steps)
    assert_same_table(got, cli.csv(*args))
    for k in ("x", "y", "theta"):  # the open-loop replay flies the plan (same integrator, same h)
        assert np.abs(got[k] - result.table[k]).max() < 1e-8
    with pytest.raises(varsim.BadInput, match="input track is playing"):
        s.set_controls(steer_rate=0.0)


def test_dict_problem_and_set_overrides(result):
    with open(os.path.join(ROOT, PROBLEM)) as f:
        problem = json.load(f)
    assert_same_table(varsim.plan(problem).table, result.table)
    problem["plan"]["N"] = 150
    moved = varsim.plan(problem)
    assert moved.steps == 150 and len(moved.table["t"]) == 151
    assert varsim.plan(os.path.join(ROOT, PROBLEM), N=150).table["x"].tobytes() == moved.table["x"].tobytes()


def test_plan_failed_and_bad_input_carry_the_cli_message(cli, tmp_path):
    code, err = cli.run("plan", PROBLEM, "--set", "max_iter=3", "--csv", str(tmp_path / "p.csv"), "--inputs",
                        str(tmp_path / "i.csv"))
    assert code == 4
    with pytest.raises(varsim.PlanFailed) as e:
        varsim.plan(os.path.join(ROOT, PROBLEM), max_iter=3)
    assert isinstance(e.value, RuntimeError) and e.value.iterations == 3
    assert "varsim: " + str(e.value) == err.splitlines()[-1]
    code, err = cli.run("plan", PROBLEM, "--set", "N=-1", "--csv", "p.csv", "--inputs", "i.csv")
    assert code == 2
    with pytest.raises(varsim.BadInput) as e:
        varsim.plan(os.path.join(ROOT, PROBLEM), N=-1)
    assert str(e.value) == err.strip().split("varsim: error: ", 1)[1]
    with pytest.raises(varsim.BadInput, match="unknown key 'nope'"):
        varsim.plan({"scene": "car", "plan": {}, "nope": 1})


def test_play_equals_cli_input_file(cli):
    path = os.path.join(ROOT, "assets/inputs/helicopter_pad_landing.csv")
    with open(path) as f:
        text = f.read()
    s = varsim.Scene("helicopter")
    s.play(text, source=path)
    assert_same_table(s.run(steps=600), cli.csv("run", "helicopter", "--input", path, "--steps", "600"))
    s.play(None)
    assert not s.playing
    s.set_controls(throttle=0.5)
    with pytest.raises(varsim.BadInput, match="reset events"):
        s.play("step\nevent,3,reset\n")
    with pytest.raises(varsim.BadInput, match="unknown control 'nope'"):
        s.play("step,nope\n0,1\n", source="x.csv")
    with pytest.raises(TypeError, match="not int"):
        s.play(5)
    assert not s.playing


def test_plans_from_threads_equal_serial():
    import concurrent.futures
    path = os.path.join(ROOT, PROBLEM)
    sizes = [150, 200]
    serial = [varsim.plan(path, N=n).table for n in sizes]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        threaded = list(pool.map(lambda n: varsim.plan(path, N=n).table, sizes))
    for a, b in zip(serial, threaded):
        assert_same_table(a, b)


def test_every_public_name_has_a_docstring():
    for name in varsim.__all__:
        assert (getattr(varsim, name).__doc__ or "").strip(), name
    for cls in (varsim.Scene, varsim.PlanResult):
        for member in dir(cls):
            if not member.startswith("_"):
                assert (getattr(cls, member).__doc__ or "").strip(), (cls.__name__, member)


def test_cpu_budget_is_the_commands(cli, result, tmp_path):
    path = os.path.join(ROOT, PROBLEM)
    # Generous: the same solve, the same bits; the budget given is the one in force.
    assert_same_table(varsim.plan(path, cpu_budget=5.0).table, result.table)
    assert_same_table(varsim.plan(path, cpu_budget=86400).table, result.table)
    # Out of range or not a number: the command's refusal, named for the argument, before the problem is read.
    for value, text in ((0, "0"), (-1.5, "-1.5"), (86400.5, "86400.5"), (float("nan"), "nan"), ("abc", "abc"),
                        (True, "true")):
        code, err = cli.run("plan", PROBLEM, "--cpu-budget", text, "--csv", "p.csv", "--inputs", "i.csv")
        assert code == 2
        with pytest.raises(varsim.BadInput) as e:
            varsim.plan("no_such_problem.json", cpu_budget=value)
        assert str(e.value).startswith("varsim.plan: cpu_budget=" + text + ": ")
        assert str(e.value).endswith("allowed > 0 to 86400 (CPU seconds of the solve)")
        assert "varsim: error: --cpu-budget " + str(e.value).split("cpu_budget=", 1)[1] == err.strip()
    # Spent: PlanFailed with the command's message (less its hint naming the command's flag).
    code, err = cli.run("plan", PROBLEM, "--cpu-budget", "1e-9", "--csv", str(tmp_path / "p.csv"), "--inputs",
                        str(tmp_path / "i.csv"))
    assert code == 4
    with pytest.raises(varsim.PlanFailed) as e:
        varsim.plan(path, cpu_budget=1e-9)
    assert e.value.status == "Maximum_CpuTime_Exceeded"
    assert str(e.value).startswith("not solved: the CPU budget of 1e-09 s ran out; Ipopt status Maximum_CpuTime")
    assert "varsim: " + str(e.value) + "; raise it with --cpu-budget S" == err.splitlines()[-1]


def test_kkt_is_the_commands(cli, result, tmp_path):
    path = os.path.join(ROOT, PROBLEM)
    # LDL^T is the default (the same bits); MUMPS reaches the same plan to Ipopt's tolerance, as --kkt mumps does.
    assert_same_table(varsim.plan(path, kkt="ldl").table, result.table)
    mumps = varsim.plan(path, kkt="mumps")
    assert mumps.iterations == result.iterations
    for name, column in result.table.items():
        assert np.max(np.abs(mumps.table[name] - column)) < 1e-4, name
    csv = tmp_path / "mumps.csv"
    code, err = cli.run("plan", PROBLEM, "--kkt", "mumps", "--csv", str(csv), "--inputs", str(tmp_path / "i.csv"))
    assert code == 0
    assert_same_table(varsim.csv_table(csv.read_text()), mumps.table)
    # A bad name: the command's refusal, named for the argument, before the problem is read.
    for value in ("qr", "LDL", 1):
        code, err = cli.run("plan", PROBLEM, "--kkt", str(value), "--csv", "p.csv", "--inputs", "i.csv")
        assert code == 2
        assert err.strip() == "varsim: error: --kkt '%s': allowed ldl, mumps" % value
        with pytest.raises(varsim.BadInput) as e:
            varsim.plan("no_such_problem.json", kkt=value)
        assert str(e.value) == "varsim.plan: kkt='%s': allowed ldl, mumps" % value

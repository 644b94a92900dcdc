"""Every script in examples/ runs at its small size and produces what it promises."""
import importlib.util
import os

import numpy as np

from conftest import ROOT


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "examples", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fig4_example(tmp_path):
    out = tmp_path / "fig4.png"
    t = load("fig4_pose_error").main(str(out), small=True)
    assert out.stat().st_size > 10000
    assert {"lgvi", "rk2", "rk4", "newmark"} <= set(np.unique(t["method"]))
    rk4 = t["pos_err"][(t["method"] == "rk4") & (t["blowup"] == 0)]
    assert rk4.size > 0 and np.isfinite(rk4).all()


def test_ladder_example(tmp_path):
    out = tmp_path / "ladder.png"
    runs = load("ladder_energy_gap").main(str(out), small=True)
    assert out.stat().st_size > 10000 and len(runs) == 3
    gaps = [r["constraint_max"].max() for r in runs.values()]
    assert all(np.isfinite(g) and g < 0.05 for g in gaps)


def test_helicopter_sweep_example():
    results = load("helicopter_mass_sweep").main(small=True)
    serial, threaded = results[1][1], results[8][1]
    assert len(threaded) == 8
    for a, b in zip(serial, threaded):
        assert a["energy"].tobytes() == b["energy"].tobytes()


def test_car_plan_replay_example(tmp_path):
    out = tmp_path / "car.png"
    plan, replay, gap = load("car_plan_replay").main(str(out), small=True)
    assert out.stat().st_size > 10000
    assert plan.status == "Solve_Succeeded" and plan.steps == 120 and len(replay["t"]) == 121
    assert gap.max() < 1e-8  # the open-loop replay flies the planned nodes
    assert np.hypot(replay["x"][-1] - 8.79, replay["y"][-1] - 3.50625) < 1e-6  # in the bay (the preset's target)

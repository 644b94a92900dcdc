"""varsim.mpc against `varsim mpc`: the same CSV bit for bit, the same summary line, the same refusals."""
import os

import pytest

import varsim
from conftest import ROOT, assert_same_table

PROBLEM = "assets/problems/car_goto.json"  # h = 0.05 s: 1 s is 20 steps and 10 re-plans


@pytest.fixture
def at_root():
    cwd = os.getcwd()
    os.chdir(ROOT)  # the problem path as the command sees it, so the summary lines agree
    yield
    os.chdir(cwd)


def test_mpc_equals_cli(cli, at_root, tmp_path):
    got = varsim.mpc(PROBLEM, duration=1.0, mismatch={"m": 1.2}, restart=0.5, kkt="ldl", dynamics_tolerance=1e-4,
                     csv=tmp_path / "py.csv")
    code, err = cli.run("mpc", PROBLEM, "--duration", "1.0", "--mismatch", "m=1.2", "--restart", "0.5", "--kkt", "ldl",
                        "--dynamics-tolerance", "0.0001", "--csv", str(tmp_path / "cli.csv"))
    assert code == 0, err
    assert_same_table(got.table, varsim.csv_table((tmp_path / "cli.csv").read_text()))
    assert (tmp_path / "py.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    assert got.summary == err.strip().splitlines()[-1]
    assert got.summary.startswith("mpc %s: 20 steps of h=0.05, 10 solves (10 adopted" % PROBLEM)
    assert len(got.table["t"]) == 21 and "solve_us" not in got.table
    assert list(got.table["mpc_status"]).count(1.0) == 10


def test_mpc_refusals_carry_the_cli_message(cli, at_root):
    for kwargs, flags in (({"horizon": 1}, ["--horizon", "1"]), ({"period": 0.0}, ["--period", "0.0"]),
                          ({"nope": 1}, ["--set", "nope=1"]), ({"mismatch": {"m": 500}}, ["--mismatch", "m=500"]),
                          ({"kkt": "ma57"}, ["--kkt", "ma57"]),
                          ({"dynamics_tolerance": 2.0}, ["--dynamics-tolerance", "2.0"]),
                          ({"dynamics_tolerance": 1e-7}, ["--dynamics-tolerance", "1e-07"]),
                          ({"rollout": "maybe"}, ["--rollout", "maybe"]), ({"rollout": True}, ["--rollout", "true"])):
        code, err = cli.run("mpc", PROBLEM, *flags)
        assert code == 2
        with pytest.raises(varsim.BadInput) as e:
            varsim.mpc(PROBLEM, **kwargs)
        assert "varsim: error: " + str(e.value) == err.strip().splitlines()[-1]


def test_mpc_refuses_a_roll_out_of_horizons_ending_at_rest(cli, at_root):
    # heli_canyon ends at rest on its pad: a roll-out's free end cannot meet that, so the CLI and varsim.mpc refuse it
    problem = "assets/problems/heli_canyon.json"
    code, err = cli.run("mpc", problem, "--rollout", "true")
    assert code == 2
    assert "rollout true: its horizons end at rest (end_at_rest = true)" in err
    with pytest.raises(varsim.BadInput) as e:
        varsim.mpc(problem, rollout=True)
    assert "varsim: error: " + str(e.value) == err.strip().splitlines()[-1]

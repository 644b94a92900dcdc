"""varsim.Scene against `varsim run`: construction, CSV identity, save/load, live edits, errors, threads."""
import concurrent.futures
import gc
import os

import numpy as np
import pytest

import varsim
from conftest import ROOT, assert_same_table


def test_every_scene_constructible_with_defaults():
    names = varsim.scenes()
    assert len(names) >= 10 and names == sorted(names)
    for name in names:
        s = varsim.Scene(name)
        assert s.step_count == 0 and s.t == 0.0 and s.dt > 0
        row = s.row()
        assert list(row) == s.columns
        assert all(np.isfinite(v) for v in row.values())
        assert set(s.params) == {p["key"] for p in varsim.describe(name)["params"]}


@pytest.mark.parametrize("name,args", [("rigid_body", ["--steps", "300"]),
                                       ("ladder", ["--steps", "120", "--every", "7"]),
                                       ("helicopter", ["--steps", "200", "--set", "mass=900"])])
def test_run_equals_cli_csv(cli, name, args):
    expected = cli.csv("run", name, *args)
    params = {}
    if "--set" in args:
        k, v = args[args.index("--set") + 1].split("=")
        params[k] = float(v)
    every = int(args[args.index("--every") + 1]) if "--every" in args else 1
    s = varsim.Scene(name, **params)
    got = s.run(steps=int(args[1]), every=every)
    assert_same_table(got, expected)
    assert s.step_count == int(args[1])


def test_scene_file_equals_cli(cli):
    preset = sorted(f for f in os.listdir(os.path.join(ROOT, "assets/scenes")) if f.endswith(".json"))[0]
    path = os.path.join(ROOT, "assets/scenes", preset)
    assert_same_table(varsim.Scene.from_file(path).run(steps=50), cli.csv("run", path, "--steps", "50"))


def test_duration_and_step_split():
    a = varsim.Scene("rigid_body").run(duration=1.0)
    assert len(a["t"]) == round(1.0 / varsim.Scene("rigid_body").dt) + 1
    s = varsim.Scene("rigid_body")
    s.step(10)
    b = s.run(steps=50)
    assert np.array_equal(b["t"], a["t"][10:61]) and b["energy"].tobytes() == a["energy"][10:61].tobytes()


def test_save_load_resumes_bit_identically():
    s = varsim.Scene("ladder", links=8)
    s.step(40)
    snap = s.save()
    first = s.run(steps=60)
    s.step(5)
    s.load(snap)
    assert s.step_count == 40
    assert_same_table(s.run(steps=60), first)
    with pytest.raises(varsim.BadInput, match="snapshot of scene 'ladder'"):
        varsim.Scene("rigid_body").load(snap)


def test_save_load_carries_the_settings():
    # As an app history entry: live parameters, values waiting for a rebuild and scene edits travel with the state,
    # so a fresh Scene with the same rebuild keys resumes bit-identically.
    s = varsim.Scene("ladder", links=8)
    s.step(20)
    s.set(epsilon=1e-6, gravity=[0.0, 0.0, -5.0], rod_mass=3.0)  # rod_mass waits for a rebuild
    s.edit("relax.3", "1e-06,0.05")
    s.step(20)
    snap = s.save()
    first = s.run(steps=60)
    fresh = varsim.Scene("ladder", links=8)
    fresh.load(snap)
    assert fresh.params == s.params and fresh.params["epsilon"] == 1e-6 and fresh.params["rod_mass"] == 3.0
    assert_same_table(fresh.run(steps=60), first)
    other = varsim.Scene("ladder", links=9)
    before = other.save()
    with pytest.raises(varsim.BadInput, match="snapshot taken with links=8; this scene has links=9"):
        other.load(snap)
    assert other.save() == before  # refused: nothing changed
    for bad in (b"", snap[:-3], snap + b"x", b"varsims2" + bytes(5)):
        with pytest.raises(varsim.BadInput):
            fresh.load(bad)


def test_live_edit_equals_input_file(cli, tmp_path):
    live = [p for p in varsim.describe("ladder")["params"] if p.get("live") and p["type"] == "real"]
    assert live, "ladder has a live real parameter"
    key = live[0]["key"]
    value = float(live[0]["default"]) * 0.5 if float(live[0]["default"]) != 0 else 0.1
    path = tmp_path / "events.csv"
    path.write_text("step\nevent,30,param,%s,%r\n" % (key, value))
    expected = cli.csv("run", "ladder", "--steps", "80", "--input", str(path))
    s = varsim.Scene("ladder")
    a = s.run(steps=30)
    s.set(**{key: value})
    assert s.params[key] == value
    b = s.run(steps=50)
    got = {k: np.concatenate([a[k], b[k][1:]]) for k in a}
    assert_same_table(got, expected)
    plain = varsim.Scene("ladder").run(steps=80)
    assert plain["energy"][:31].tobytes() == got["energy"][:31].tobytes()
    assert plain["energy"][31:].tobytes() != got["energy"][31:].tobytes()  # the edit changed the run


def test_bad_input_carries_the_cli_message(cli):
    code, err = cli.run("run", "ladder", "--set", "links=-3", "--steps", "1")
    assert code == 2
    cli_message = err.strip().split("--set: ", 1)[1]
    with pytest.raises(varsim.BadInput) as e:
        varsim.Scene("ladder", links=-3)
    assert isinstance(e.value, ValueError)
    assert str(e.value) == "varsim.Scene: " + cli_message
    with pytest.raises(varsim.BadInput, match="unknown"):
        varsim.Scene("no_such_scene")
    with pytest.raises(varsim.BadInput, match="unknown control 'nope'"):
        varsim.Scene("helicopter").set_controls(nope=1)


def test_controls_clamped_like_a_gamepad():
    s = varsim.Scene("helicopter")
    names = [c["name"] for c in s.controls]
    assert names and list(s.control_values) == names
    c = s.controls[0]
    s.set_controls(**{c["name"]: 1e9})
    assert s.control_values[c["name"]] == c["max"]
    s.set_controls(**{c["name"]: float("nan")})
    assert s.control_values[c["name"]] == c["neutral"]


def _heli_energy(mass):
    s = varsim.Scene("helicopter", mass=mass)
    s.set_controls(**{s.controls[0]["name"]: 0.7})
    return s.run(steps=300)["energy"]


def test_threads_equal_serial():
    masses = [600.0, 800.0, 1000.0, 1200.0]
    serial = [_heli_energy(m) for m in masses]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(_heli_energy, masses))
    for a, b in zip(serial, threaded):
        assert a.tobytes() == b.tobytes()


GROUPS = {"position": ["x", "y", "z"], "pose": ["x", "y", "theta"], "orientation": ["qw", "qx", "qy", "qz"],
          "angular_momentum": ["L_x", "L_y", "L_z"], "linear_momentum": ["p_x", "p_y", "p_z"]}


def test_state_views_are_read_only_and_equal_the_row():
    seen = set()
    for name in varsim.scenes():
        s = varsim.Scene(name)
        s.step(3)
        st, row = s.state(), s.row()
        assert st["saved"].dtype == np.float64 and st["saved"].size > 0
        for key, view in st.items():
            assert not view.flags.writeable and not view.flags.owndata, (name, key)  # views, read-only
            if view.base is s:
                continue  # in place (test_state_in_place.py)
            cols = GROUPS.get(key, [c for c in s.columns if c.startswith("q_")] if key == "q" else None)
            if key != "saved":
                assert view.tolist() == [row[c] for c in cols], (name, key)
                seen.add(key)
        with pytest.raises(ValueError):
            st["saved"][0] = 1.0
        assert st["saved"].base is st[next(iter(st))].base  # one buffer
    assert seen == set(GROUPS) | {"q"}


def test_state_views_outlive_the_scene_and_follow_state_calls():
    s = varsim.Scene("rigid_body")
    x = s.state()["position"]
    first = x.copy()
    s.step(10)
    assert np.array_equal(x, first)  # this call's values until the next state() call
    y = s.state()["position"]
    assert np.array_equal(x, y) and not np.array_equal(y, first)  # the same buffer, refilled
    assert y.tolist() == [s.row()[c] for c in "xyz"]
    saved = s.state()["saved"]
    restored = varsim.Scene("rigid_body")
    restored.load(s.save())
    assert restored.state()["saved"].tobytes() == saved.tobytes()
    del s, restored
    gc.collect()
    assert np.isfinite(saved).all() and np.array_equal(x, y)  # the buffer outlives the scene


def test_diverged_carries_the_cli_message_and_keeps_the_last_good_state(cli):
    # floating_chain's explicit Euler baseline spun at omega 10 per axis (h |omega| = 1.7 rad): step 10 completes but its
    # momentum diagnostic is not finite. The CLI's exit 3 and the module's Diverged carry the same message, and the
    # step is counted (docs/python.md).
    code, err = cli.run("run", "floating_chain", "--set", "integrator=euler", "--set", "omega=10,10,10", "--steps", "20")
    assert code == 3
    cli_message = err.strip().splitlines()[-1].split("varsim: diverged: ", 1)[1]
    s = varsim.Scene("floating_chain", integrator="euler", omega=[10.0, 10.0, 10.0])
    with pytest.raises(varsim.Diverged) as e:
        s.run(steps=20)
    assert isinstance(e.value, RuntimeError)
    assert str(e.value) == cli_message and cli_message.startswith("step 10 (t=1): ")
    assert s.step_count == 10 and s.t == pytest.approx(1.0)  # the step succeeded; a diagnostic is not finite
    good = varsim.Scene("floating_chain", integrator="euler", omega=[10.0, 10.0, 10.0])
    good.step(9)
    assert np.isfinite(good.state()["saved"]).all() and good.row()["t"] == pytest.approx(0.9)
    with pytest.raises(varsim.Diverged) as again:
        good.step(1)
    assert str(again.value) == cli_message and good.step_count == 10
    assert s.state()["saved"].tobytes() == good.state()["saved"].tobytes()

# Scene.state()'s in-place views (scenes/state_block.h): numpy arrays over the integrator's own storage, no copy,
# read-only, following the state as it steps and loads, keeping the Scene alive.
import gc

import numpy as np
import pytest

import varsim

RIGID = {"R", "x", "xi", "mu_minus"}
RODS = {"q", "v", "x", "u", "x_dot", "u_dot"}
EXPECTED = {"ladder": RODS, "chain": RODS, "sleigh": RODS, "rigid_body": RIGID,
            "tumbling_body": RIGID, "helicopter": RIGID, "boat": RIGID}


def in_place(s):
    return {k: v for k, v in s.state().items() if v.base is s}


def address(view):
    return view.__array_interface__["data"][0]


def test_which_scenes_are_in_place():
    found = {}
    for name in varsim.scenes():
        s = varsim.Scene(name)
        keys = set(in_place(s))
        if keys:
            found[name] = keys
    assert found == EXPECTED


@pytest.mark.parametrize("name,params", [("ladder", {}), ("ladder", {"stepper": "rk4_baumgarte"}),
                                         ("ladder", {"stepper": "rattle"}), ("ladder", {"rod_model": "rigid"}),
                                         ("sleigh", {}), ("rigid_body", {}), ("rigid_body", {"integrator": "rk4"}),
                                         ("helicopter", {"start_velocity": [1, 0, 0]}), ("boat", {})])
def test_views_share_memory_and_change_in_place(name, params):
    s = varsim.Scene(name, **params)
    first, again = in_place(s), in_place(s)
    start = {k: v.copy() for k, v in first.items()}
    for k, v in first.items():
        assert np.shares_memory(v, again[k]) and address(v) == address(again[k]), k
        assert not v.flags.writeable and not v.flags.owndata and v.dtype == np.float64
        with pytest.raises(ValueError):
            v[(0,) * v.ndim] = 1.0
    s.step(3)
    after = in_place(s)
    for k, v in first.items():
        assert address(after[k]) == address(v), k  # the storage did not move
    moved = [k for k in first if not np.array_equal(first[k], start[k])]
    assert ("q" if "q" in first else "x") in moved, moved  # the values changed in place
    snapshot = {k: v.copy() for k, v in first.items()}
    blob = s.save()
    s.step(2)
    s.load(blob)
    for k, v in first.items():
        assert address(in_place(s)[k]) == address(v) and np.array_equal(v, snapshot[k]), k


def test_in_place_values_match_the_row_and_copies():
    s = varsim.Scene("rigid_body")
    s.step(5)
    st, row = s.state(), s.row()
    assert st["x"].tolist() == [row[c] for c in "xyz"]
    R = st["R"]
    assert np.allclose(R.T @ R, np.eye(3), atol=1e-12) and R.shape == (3, 3)
    w, x, y, z = (row[c] for c in ("qw", "qx", "qy", "qz"))  # R[0, 1] of the row's quaternion
    assert abs(R[0, 1] - 2 * (x * y - w * z)) < 1e-12
    lad = varsim.Scene("ladder", links=4)
    st = lad.state()
    assert st["q"].size % 6 == 0 and st["x"].shape == (st["q"].size // 6, 3)  # rails and rungs
    assert np.array_equal(st["x"][1], st["q"][6:9]) and np.array_equal(st["u"][1], st["q"][9:12])
    assert np.allclose(np.linalg.norm(st["u"], axis=1), 1.0, atol=1e-9)


def test_a_view_keeps_the_scene_alive():
    s = varsim.Scene("ladder", links=4)
    s.step(2)
    q = s.state()["q"]
    expected = q.copy()
    del s
    gc.collect()
    assert isinstance(q.base, varsim.Scene) and np.array_equal(q, expected)
    q.base.step(1)  # the scene lives on through the view's base
    assert not np.array_equal(q, expected)

"""Seed 000 Fig. 4 from Python: the rigid body's pose error (position + rotation) against the step h for LGVI, RK2,
RK4 and Lie-Newmark, one log-log plot. Usage: python3 fig4_pose_error.py [OUT.png] [--small]"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import varsim


def main(out="fig4_pose_error.png", small=False):
    methods = ["lgvi", "rk2", "rk4", "newmark"]
    # --small: 2 cases of 8 s (a test); else the figure's 20 cases of 240 s (about a minute per core).
    t = varsim.study("fig4", runs=2 if small else None, duration=8 if small else None, seed=0, threads=2,
                     methods=methods)
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for m in methods:
        rows = (t["method"] == m) & (t["blowup"] == 0)
        hs = np.unique(t["h"][rows])
        err = [np.mean(t["pos_err"][rows & (t["h"] == h)] + t["rot_err"][rows & (t["h"] == h)]) for h in hs]
        ax.loglog(hs, err, "o-", label=m)
    ax.set_xlabel("step h (s)")
    ax.set_ylabel("pose error, pos (m) + rot (rad)")
    ax.set_title("Rigid body, seed 000 Fig. 4")
    ax.legend()
    fig.savefig(out, dpi=100)
    return t


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--small"]
    main(*(args[:1]), small="--small" in sys.argv)

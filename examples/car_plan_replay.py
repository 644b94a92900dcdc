"""Plan the car into its parking bay (Ipopt over the car's discrete mechanics), replay the plan open loop in a
Scene, and plot plan against replay: the path in the plane and the replay's distance from the planned nodes.
Usage: python3 car_plan_replay.py [OUT.png] [--small]   (run from anywhere; the problem file is found in assets/)"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import varsim

PROBLEM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "problems", "car_park.json")


def main(out="car_plan_replay.png", small=False):
    # small: fewer nodes (N = 120 at the preset's dt = 0.05 s: a 6 s manoeuvre instead of 10 s).
    plan = varsim.plan(PROBLEM, **({"N": 120} if small else {}))
    replay = plan.replay().run(steps=plan.steps)
    p, r = plan.table, replay
    gap = np.hypot(r["x"] - p["x"], r["y"] - p["y"])
    fig, (path, err) = plt.subplots(1, 2, figsize=(10, 4))
    path.plot(p["x"], p["y"], "o", ms=3, label="plan (Ipopt nodes)")
    path.plot(r["x"], r["y"], "-", label="replay (Scene.play)")
    path.set_xlabel("x (m)")
    path.set_ylabel("y (m)")
    path.set_aspect("equal")
    path.legend(fontsize=8)
    path.set_title("car_park: %d iterations, cost %.4g" % (plan.iterations, plan.cost))
    err.semilogy(r["t"], gap + 1e-18)
    err.set_xlabel("t (s)")
    err.set_ylabel("|replay - plan| position (m)")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    return plan, replay, gap


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--small"]
    plan, replay, gap = main(*(args[:1]), small="--small" in sys.argv)
    print("%s; replay of %d steps; largest position gap %.3g m" % (plan, plan.steps, gap.max()))

"""The ladder (SPOOK rods): energy and largest joint gap against time for three (epsilon, tau) pairs, one figure.
Usage: python3 ladder_energy_gap.py [OUT.png] [--small]"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import varsim

PAIRS = [(1e-8, 0.05), (1e-6, 0.05), (1e-6, 0.2)]  # (epsilon m/N, tau s)


def main(out="ladder_energy_gap.png", small=False):
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(6, 6))
    runs = {}
    for eps, tau in PAIRS:
        s = varsim.Scene("ladder", links=10 if small else 100, epsilon=eps, tau=tau)
        r = s.run(duration=1.0 if small else 10.0)
        runs[(eps, tau)] = r
        label = "eps=%g m/N, tau=%g s" % (eps, tau)
        top.plot(r["t"], r["energy"] - r["energy"][0], label=label)
        bottom.semilogy(r["t"], r["constraint_max"] + 1e-18, label=label)
    top.set_ylabel("E(t) - E(0) (J)")
    bottom.set_ylabel("max joint gap (m)")
    bottom.set_xlabel("t (s)")
    top.legend(fontsize=8)
    fig.savefig(out, dpi=100)
    return runs


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--small"]
    main(*(args[:1]), small="--small" in sys.argv)

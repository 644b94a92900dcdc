"""A sweep over 8 helicopter masses on a ThreadPoolExecutor: the GIL is released while C++ steps, so wall time falls
with threads where the machine has the cores. Prints wall times for 1 and 8 threads and the height each mass reaches
at the same collective. Usage: python3 helicopter_mass_sweep.py [--small]"""
import concurrent.futures
import sys
import time

import varsim

MASSES = [300.0, 450.0, 600.0, 750.0, 900.0, 1200.0, 1500.0, 2000.0]  # kg


def climb(mass, steps):
    s = varsim.Scene("helicopter", mass=mass)
    s.set_controls(**{s.controls[0]["name"]: 0.8})
    r = s.run(steps=steps)
    return r


def main(small=False):
    steps = 300 if small else 3000
    results = {}
    for threads in (1, 8):
        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            runs = list(pool.map(lambda m: climb(m, steps), MASSES))
        results[threads] = (time.perf_counter() - start, runs)
    print("threads  wall (s)")
    for threads, (wall, _) in results.items():
        print("%7d  %8.3f" % (threads, wall))
    print("mass (kg)  energy at end (J)")
    for m, r in zip(MASSES, results[8][1]):
        print("%9.0f  %.6g" % (m, r["energy"][-1]))
    return results


if __name__ == "__main__":
    main(small="--small" in sys.argv)

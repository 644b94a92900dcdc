// Benchmark (prints a table; not a timed test): issue 15 item 11, the boat's energy sweep. Calm water, no wind,
// no thrust, default hull and damping; mass x h x start (at rest, and 0.2 m above the rest height with 10 deg
// heel) for 20 s, with the implicit hull forces (default) and the explicit node forces of seed 000 eq. (10)
// where validateBoat accepts them (h omega <= 1 and h c <= 1 at rest; before the fix the explicit scheme ran
// everywhere: 1 kg gained x229 000 in 20 s, 10 kg x150 000, 20 kg diverged, 30 kg x1.11).
// Columns: exit (0 ok, 2 refused, 3 diverged), max over the run of E/E0 (1.000000 = never above the start;
// "-" when E0 <= 0) and of (E - E0)/|E0|, E/E0 at the end, final speed, max and final |z - z_rest| (heave from
// the analytic floating height; "sinks" above the displacement), largest heel in the last 10 s, Newton
// iterations (mean/max) and CPU time per step. E is the scene's energy, KE(mu^-_k) + m g z - rho g int z dV:
// while the hull is in the air (the "off" start drops 0.2 m first) this left-momentum energy counts
// h^2 g^2 / 2 per unit mass and step as lost (its O(h) bias in free fall, where the trajectory is the exact
// discrete free fall); at rest it is exact. `--quick`: 5 s runs.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "engine/models/boat.h"
#include "scenes/scene.h"

using namespace varsim;

namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

double cpuMicros() {  // thread CPU time: the machine is shared
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e6 * double(ts.tv_sec) + 1e-3 * double(ts.tv_nsec);
}

struct Row {
  int exit = 0;
  double e0 = 0.0, maxE = -1e300, endE = 0.0, finalSpeed = 0.0, maxDz = 0.0, finalDz = 0.0, lateHeel = 0.0;
  double newtonMean = 0.0, newtonMax = 0.0, usPerStep = 0.0;
};

Row run(const Sets& sets, double duration, double zRest) {
  Row out;
  ParamSet p = SceneRegistry::defaults("boat");
  std::unique_ptr<Scene> scene;
  try {
    for (const auto& [k, v] : sets) p.setFromString(k, v, "bench");
    scene = SceneRegistry::create("boat", p);
  } catch (const BadInput&) {
    out.exit = 2;
    return out;
  }
  const auto cols = scene->columns();
  const auto col = [&](const char* name) { return size_t(std::find(cols.begin(), cols.end(), name) - cols.begin()); };
  const size_t cE = col("energy"), cZ = col("z"), cSpeed = col("speed"), cHeel = col("heel"), cN = col("newton_iters");
  std::vector<double> row;
  scene->diagnostics(row);
  out.e0 = row[cE] - scene->inputWork();
  out.maxE = out.endE = out.e0;
  const long steps = long(std::lround(duration / scene->dt()));
  const InputVector neutral(scene->controls().size(), 0.0);
  double cpu = 0.0;
  long done = 0;
  try {
    for (long k = 0; k < steps; ++k) {
      const double t0 = cpuMicros();
      scene->step(scene->dt(), neutral);
      cpu += cpuMicros() - t0;
      ++done;
      scene->diagnostics(row);
      out.endE = row[cE] - scene->inputWork();
      out.maxE = std::max(out.maxE, out.endE);
      out.maxDz = std::max(out.maxDz, std::abs(row[cZ] - zRest));
      if (scene->time() > duration - 10.0) out.lateHeel = std::max(out.lateHeel, std::abs(row[cHeel]));
      out.newtonMean += row[cN];
      out.newtonMax = std::max(out.newtonMax, row[cN]);
    }
  } catch (const SimulationDiverged&) {
    out.exit = 3;
  }
  out.finalSpeed = row[cSpeed];
  out.finalDz = std::abs(row[cZ] - zRest);
  out.newtonMean /= double(std::max(done, 1L));
  out.usPerStep = cpu / double(std::max(done, 1L));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const double duration = quick ? 5.0 : 20.0;
  std::printf("boat passivity sweep (issue 15 item 11): calm water, no wind, no thrust, %.0f s per run\n", duration);
  std::printf("%9s %8s %5s %8s %4s %12s %12s %9s %10s %10s %10s %9s %11s %8s\n", "mass kg", "h s", "start", "forces",
              "exit", "max E/E0", "max dE/|E0|", "end E/E0", "v_end m/s", "max|dz| m", "end|dz| m", "heel rad",
              "newton", "us/step");
  for (const char* mass : {"1e-3", "1", "10", "30", "100", "1200", "5000", "1e5", "1e6"}) {
    BoatSettings bs;
    bs.mass = std::stod(mass);
    const Boat model(bs);
    const bool floats = model.equilibriumDraft() < bs.hullSize.z();
    for (const char* dt : {"0.1", "0.016666666666666666", "0.001"})
      for (int off = 0; off < 2; ++off)
        for (const char* forces : {"implicit", "explicit"}) {
          Sets sets{{"mass", mass}, {"dt", dt}, {"hull_forces", forces}, {"wave_amplitude", "0"}, {"wind", "0,0,0"}};
          if (off) {
            sets.push_back({"start_heave", "0.2"});
            sets.push_back({"start_attitude", "0.17453292519943295,0,0"});
          }
          const Row r = run(sets, duration, model.equilibriumHeight());
          std::printf("%9s %8.5f %5s %8s %4d", mass, std::stod(dt), off ? "off" : "rest", forces, r.exit);
          if (r.exit == 2) {
            std::printf("   (refused: explicit node forces unstable here)\n");
            continue;
          }
          char ratio[2][32] = {"-", "-"};
          if (r.e0 > 0.0) {
            std::snprintf(ratio[0], sizeof ratio[0], "%.6f", r.maxE / r.e0);
            std::snprintf(ratio[1], sizeof ratio[1], "%.4f", r.endE / r.e0);
          }
          char dz[2][32] = {"sinks", "sinks"};
          if (floats) {
            std::snprintf(dz[0], sizeof dz[0], "%.3g", r.maxDz);
            std::snprintf(dz[1], sizeof dz[1], "%.3g", r.finalDz);
          }
          std::printf(" %12s %12.3g %9s %10.3g %10s %10s %9.2g %5.1f/%-5.0f %8.0f\n", ratio[0],
                      (r.maxE - r.e0) / std::abs(r.e0), ratio[1], r.finalSpeed, dz[0], dz[1], r.lateHeel, r.newtonMean,
                      r.newtonMax, r.usPerStep);
        }
  }
  return 0;
}

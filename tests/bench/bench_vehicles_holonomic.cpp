// Benchmark (prints tables; not a timed test): cost of one scene step of the holonomic vehicles with the
// LGVI and with RK4 on the same model and the same run. Helicopter: the pad-landing replay (assist on,
// ground contact), target far below 1 ms per step. Boat: waves, wind and thrust, against the number of hull
// patches (the eq. (15) sum and the exact clipping), plus the cost of one hydrostatics evaluation.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "engine/models/boat.h"
#include "engine/sim/input_track.h"
#include "scenes/scene.h"

using namespace varsim;

namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

// Thread CPU time: the machine is shared, so wall time would mostly measure the other processes.
double cpuMicros() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e6 * double(ts.tv_sec) + 1e-3 * double(ts.tv_nsec);
}

struct Timing {
  double meanUs = 1e300;
  double p99Us = 0.0;  // 99th percentile of single steps
  double meanNewton = 0.0;
};

std::unique_ptr<Scene> make(const char* name, const Sets& sets) {
  ParamSet p = SceneRegistry::defaults(name);
  for (const auto& [k, v] : sets) p.setFromString(k, v, "bench");
  return SceneRegistry::create(name, p);
}

// Best mean of `repeats` runs of `steps` steps from a fresh scene, with that run's 99th-percentile step.
Timing timeScene(const char* name, const Sets& sets, long steps, const InputTrack& track, int repeats) {
  Timing best;
  for (int r = 0; r < repeats; ++r) {
    auto scene = make(name, sets);
    std::vector<double> row;
    const auto cols = scene->columns();
    const size_t newtonCol = size_t(std::find(cols.begin(), cols.end(), "newton_iters") - cols.begin());
    double total = 0.0, newton = 0.0;
    std::vector<double> each;
    for (long k = 0; k < steps; ++k) {
      const InputVector in = track.at(k);
      const double t0 = cpuMicros();
      scene->step(scene->dt(), in);
      const double us = cpuMicros() - t0;
      total += us;
      each.push_back(us);
      scene->diagnostics(row);
      newton += row[newtonCol];
    }
    std::sort(each.begin(), each.end());
    if (total / steps < best.meanUs)
      best = {total / steps, each[size_t(0.99 * double(each.size() - 1))], newton / steps};
  }
  return best;
}

}  // namespace

int main() {
  // Helicopter: the recorded pad landing (take-off, climb, turn, cruise, landing on the skids).
  const std::string trackPath = std::string(VARSIM_ASSET_DIR) + "/inputs/helicopter_pad_landing.csv";
  auto heli = make("helicopter", {});
  const InputTrack heliTrack = InputTrack::load(trackPath, heli->controls(), heli->dt());
  const long heliSteps = 2700;  // 45 s at 60 Hz
  std::printf("Helicopter, pad-landing replay (assist on, ground contact), %ld steps of 1/60 s, best of 5\n\n",
              heliSteps);
  std::printf(
      "| integrator | group | tau = C | mean us/step | p99 us/step | Newton it./step "
      "|\n|---|---|---|---:|---:|---:|\n");
  struct Variant {
    const char* integrator;
    const char* group;
    const char* map;
  };
  for (const Variant& v : {Variant{"lgvi", "so3xr3", "cay"}, Variant{"lgvi", "so3xr3", "exp"},
                           Variant{"lgvi", "se3", "cay"}, Variant{"lgvi", "se3", "exp"}, Variant{"rk4", "-", "-"}}) {
    Sets sets = {{"integrator", v.integrator}};
    if (std::string(v.group) != "-") sets.push_back({"group", v.group});
    if (std::string(v.map) != "-") sets.insert(sets.end(), {{"retraction", v.map}, {"tangent", v.map}});
    const Timing t = timeScene("helicopter", sets, heliSteps, heliTrack, 5);
    std::printf("| %s | %s | %s | %.2f | %.2f | %.2f |\n", v.integrator, v.group, v.map, t.meanUs, t.p99Us,
                t.meanNewton);
  }

  // Boat in waves with wind and a thrust pattern, against the hull patch count.
  auto boat = make("boat", {});
  InputTrack boatTrack;
  boatTrack.neutral = neutralInputs(boat->controls());
  for (long k = 0; k < 600; k += 60) boatTrack.append(k, {0.4 + 0.06 * double(k / 60), 0.9 - 0.05 * double(k / 60)});
  const long boatSteps = 600;
  std::printf("\nBoat, waves 0.15 m / 12 m, wind (6, 3, 0) m/s, thrust pattern, %ld steps of 1/60 s, best of 3\n\n",
              boatSteps);
  std::printf(
      "| patch size (m) | hull patches | hydrostatics us/call | LGVI us/step | LGVI Newton it. | RK4 us/step | "
      "RK4 / LGVI |\n|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const char* size : {"1.0", "0.5", "0.25", "0.125", "0.0625"}) {
    BoatSettings bs;
    bs.patchSize = std::stod(size);
    const Boat model(bs);
    WaveSettings ws;
    ws.amplitude = 0.15;
    const WaterSurface water(ws);
    se3::Pose g;
    g.x.z() = model.equilibriumHeight();
    g.R = Eigen::AngleAxisd(0.1, Vector3d(1, 0.5, 0.2).normalized()).toRotationMatrix();
    HydrostaticState hs;
    const int calls = 400;
    const double t0 = cpuMicros();
    double sink = 0.0;
    for (int i = 0; i < calls; ++i) {
      computeHydrostatics(model.patches(), g, water, 0.01 * i, hs);
      sink += hs.volume;
    }
    const double hydroUs = (cpuMicros() - t0) / calls;
    const Timing lg = timeScene("boat", {{"patch_size", size}}, boatSteps, boatTrack, 3);
    const Timing rk = timeScene("boat", {{"patch_size", size}, {"integrator", "rk4"}}, boatSteps, boatTrack, 3);
    std::printf("| %s | %zu | %.1f | %.1f | %.2f | %.1f | %.2f |%s\n", size, model.patches().size(), hydroUs, lg.meanUs,
                lg.meanNewton, rk.meanUs, rk.meanUs / lg.meanUs, sink > 0.0 ? "" : " (dry?)");
  }
  std::printf(
      "\nTimes are thread CPU time (shared machine). The LGVI evaluates the vehicle wrench once per step (at the "
      "node), RK4 four times (stages).\n");
  return 0;
}

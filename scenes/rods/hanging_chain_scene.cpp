// Scene `chain`: a chain/rope of up to 20 000 rigid rods pinned at one end, released straight at an
// angle (optionally tilted out of plane so it swings in 3-D), stepped by SPOOK or a baseline.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/models/hanging_chain.h"
#include "engine/sim/errors.h"
#include "scenes/rods/rod_scene.h"

namespace varsim {

namespace {

std::vector<ParamSpec> chainParams() {
  std::vector<ParamSpec> p{
      // 20 000 (HangingChain::kMaxRods): its 60 s fall kept every joint gap <= 2.9e-4 m with E never above E(0)
      // (bench_ladder_robust --soak 60 --chain 20000).
      ParamSpec::integer("rods", 20, 1, 20000, "number of rods in the chain"),
      ParamSpec::real("rod_mass", 0.25, 1e-6, 1e6, "kg",
                      "mass of every rod, from 1e-6 kg (ran 3 s; 1e-308 made the SPOOK system singular)"),
      ParamSpec::real("rod_length", 0.25, 1e-4, 100.0, "m",
                      "length of every rod, from 1e-4 m (ran 20 s unflagged; 1e-5 stopped at step 3, velocity past "
                      "1e5 m/s). rod_model = director: short rods whipping at h = 1/60 turn too far per step "
                      "for the linearised unit-length row (0.1 m rods released horizontally stretch |u| past 4 within "
                      "1 s), so the director needs dt sqrt(|gravity| / rod_length) <= 0.15 (see rod_model)"),
      ParamSpec::real("angle", 1.5707963267948966, 0.0, 3.14159265358979, "rad",
                      "initial angle of the straight chain from the downward vertical (pi/2: horizontal)"),
      ParamSpec::real("tilt", 0.3, -3.14159265358979, 3.14159265358979, "rad", "initial turn about z out of the x-z plane"),
      ParamSpec::real("tip_mass", 0.0, 0.0, 1e6, "kg",
                      "point mass at the free end (0: none). tip_mass / rod_mass above 1e7 min(1, (rod_length / "
                      "0.01 m)^3) is refused: at 3e7 the SPOOK system of 0.25 m rods turned singular, and shorter rods "
                      "whipped past 1e5 m/s at lower ratios (1e-4 m: 100); a light tip on heavy rods runs"),
  };
  for (auto& r : rodSceneParams({"joints", "unit", "pins"}, true, false, "rigid", "block")) p.push_back(r);
  return p;
}

// The heavy-tip rule: tip_mass / rod_mass <= kMaxTipRatio min(1, (rod_length / kTipRatioLength)^3). Measured (3 s,
// dt 1/60; each ratio also with angle pi, gravity 100 per axis, dt 0.1): rods of 0.01-100 m ran 1e7 (also 10 s, 1, 200
// and 2000 rods, dt 1e-3), while 3e7 stopped at steps 66 and 104 (singular SPOOK system), 1e8 at 10 s, 1e9 at step
// 35, 1e12 at step 15; 1e-3 m rods ran 1e6 and stopped at 1e7 (step 30, a rod's rate past 1e5), 3e-4 m ran 1e3 and
// stopped at 2e3 with dt 0.1, 1e-4 m ran 30 and stopped at 100 with dt 0.1 (step 2). The cube fits 1e4, 270, 10 at
// those lengths. The inverse, a 1e-6 kg tip on 1e6 kg rods, ran. RK4+Baumgarte and the director model also stopped
// at 1e12.
constexpr double kMaxTipRatio = 1e7;
constexpr double kTipRatioLength = 0.01;  // m

// v to three significant digits (what the measurement has), rounded down or up so that a value named as running does.
std::string threeDigits(double v, bool up = false) {
  const double unit = std::pow(10.0, std::floor(std::log10(v)) - 2);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", (up ? std::ceil(v / unit * (1 - 1e-12)) : std::floor(v / unit * (1 + 1e-12))) * unit);
  return buf;
}

void validateChainStart(const ParamSet& p) {
  validateRigidRodStart(p);
  validateDirectorStep(p);
  const double tip = p.real("tip_mass"), rod = p.real("rod_mass"), length = p.real("rod_length");
  const double bound = kMaxTipRatio * std::min(1.0, std::pow(length / kTipRatioLength, 3));
  if (!(tip > bound * rod)) return;
  throw BadInput("key 'tip_mass' = " + p.valueText("tip_mass") + " kg with rod_mass = " + p.valueText("rod_mass") +
                 " kg, rod_length = " + p.valueText("rod_length") + " m: tip_mass / rod_mass = " +
                 threeDigits(tip / rod) + " is above " + threeDigits(bound) +
                 " = 1e7 min(1, (rod_length / 0.01 m)^3) (a heavy tip on light rods: 3e7 made the SPOOK system of "
                 "0.25 m rods singular, 1e-4 m rods whipped past 1e5 at 100); tip_mass <= " +
                 threeDigits(bound * rod) + " kg or rod_mass >= " + threeDigits(tip / bound, true) + " kg runs");
}

HangingChainConfig configFrom(const ParamSet& p) {
  HangingChainConfig c;
  c.rods = int(p.integer("rods"));
  c.rodMass = p.real("rod_mass");
  c.rodLength = p.real("rod_length");
  c.angle = p.real("angle");
  c.tilt = p.real("tilt");
  c.tipMass = p.real("tip_mass");
  c.gravity = p.vec3("gravity");
  return c;
}

class ChainScene : public RodScene {
 public:
  explicit ChainScene(const ParamSet& params) : RodScene(params, {"joints", "unit", "pins"}), chain_(configFrom(params)) {
    initSimulation(chain_.system(), chain_.tipPoint(), chain_.tipBody(), chain_.config().rodMass);
  }

 protected:
  void extraColumns(std::vector<std::string>& c) const override { c.insert(c.end(), {"tip_x", "tip_y", "tip_z"}); }
  void extraDiagnostics(std::vector<double>& row) const override {
    const Eigen::Vector3d p = chain_.system().point(chain_.tipPoint(), main_->state.q);
    row.insert(row.end(), {p.x(), p.y(), p.z()});
  }
  void drawExtras(DrawList& out) const override {
    // Released from rest, the chain swings in the vertical plane through its start direction (turned
    // by `tilt` about z).
    frameSwingFaceOn(out.camera, chain_.rodCount() * chain_.config().rodLength, chain_.config().tilt);
  }

 private:
  HangingChain chain_;
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "chain", "Swinging chain of rods",
    "A chain (rope) of up to 20 000 rigid rods joined end to end by ball joints, pinned at the origin and released "
    "straight from an angle; the free end whips through the bottom. SPOOK keeps the joints within the compliance "
    "stretch at h = 1/60; the baselines can be run as ghosts.",
    chainParams, validateChainStart, [](const ParamSet& p) { return std::make_unique<ChainScene>(p); }});

}  // namespace varsim

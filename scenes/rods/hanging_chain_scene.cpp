// Scene `chain`: a chain/rope of up to 20 000 rigid rods pinned at one end, released straight at an
// angle (optionally tilted out of plane so it swings in 3-D), stepped by SPOOK or a baseline.
#include "engine/models/hanging_chain.h"
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
                      "for the linearised unit-length row (0.1 m rods released horizontally stretch |u| past 4 within 1 s)"),
      ParamSpec::real("angle", 1.5707963267948966, 0.0, 3.14159265358979, "rad",
                      "initial angle of the straight chain from the downward vertical (pi/2: horizontal)"),
      ParamSpec::real("tilt", 0.3, -3.14159265358979, 3.14159265358979, "rad", "initial turn about z out of the x-z plane"),
      ParamSpec::real("tip_mass", 0.0, 0.0, 1e6, "kg", "point mass at the free end (0: none)"),
  };
  for (auto& r : rodSceneParams({"joints", "unit", "pins"}, true, false, "rigid", "block")) p.push_back(r);
  return p;
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
    chainParams, validateRigidRodStart, [](const ParamSet& p) { return std::make_unique<ChainScene>(p); }});

}  // namespace varsim

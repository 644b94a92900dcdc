// Scene `ladder` (see ladder_scene.h): the model, its parameters and the camera; stepping, columns,
// drawing and live tuning are RodScene's.
#include "scenes/rods/ladder_scene.h"

#include <cmath>
#include <string>

#include "engine/sim/errors.h"

namespace varsim {

namespace {

std::vector<ParamSpec> ladderParams() {
  std::vector<ParamSpec> p{
      // 10 000: the 60 s fall at N = 10 000 ran without divergence, E never above E(0), lengths exact, max joint gap
      // 7.7e-4 m (bench_ladder_robust --soak 60 --links 10000), with the joints' ε scaled by the weight
      // (rod_scene_params.h kComplianceWeight); at a fixed ε = 1e-10 it opened a joint to 1.14e-3 m in the whip.
      ParamSpec::integer("links", 20, 1, 10000, "number of ladder links N (3N+1 rods, 4N+1 joints, N loops)"),
      ParamSpec::real("rod_mass", 10.0, 1e-6, 1e6, "kg",
                      "mass of every rod (paper: 10), from 1e-6 kg (ran 3 s; 1e-308 made the SPOOK system singular)"),
      ParamSpec::real("rod_length", 1.0, 1e-4, 100.0, "m",
                      "length of every rod (paper: 1); from 1e-4 m (ran 20 s unflagged; 1e-5 stopped at t = 0.59 s, "
                      "1e-6 at step 1: velocity past 1e5 m/s)"),
  };
  for (auto& r : rodSceneParams({"joints", "unit", "pins"}, true, false, "rigid", "block")) p.push_back(r);
  for (auto& r : p)
    if (r.key == "epsilon")
      r.help += ". Ladder on SPOOK: epsilon eps_joints below 1e-16 m/N is refused (its loops make the joint rows "
                "redundant: epsilon 0 stopped ladders of 1e-4 to 0.03 m rods within 3-10 s, 1 m rods with 200 links "
                "at 7.2 s; 1e-16 ran)";
  return p;
}

// The joints' compliance below which a ladder start on SPOOK is refused. Its N closed loops make the joint rows
// redundant, so with ε = 0 SPOOK's matrix is singular but for round-off (seed 001: ε > 0 regularises it). Measured
// (3 s, dt 1/60, alone and with gravity 100 per axis, one link, dt 0.1): epsilon 0, 1e-30 and 1e-20 stopped ladders
// of 1e-4 m rods at steps 7-56, 1e-3 m at 17-82, 1e-2 m at 87-133 (singular system), 0.03 m within 10 s, 1 m rods with
// 200 links at step 431; eps_joints = 0 stopped 1e-3 m rods at step 89 (eps_pins = 0 ran). 1e-16 ran every one of
// them 10 s.
constexpr double kMinLadderJointEpsilon = 1e-16;  // m/N

void validateLadderStart(const ParamSet& p) {
  validateRigidRodStart(p);
  validateDirectorStep(p);
  if (p.choice("stepper") != "spook") return;
  const double epsilon = effectiveRelaxation(p, "joints").epsilon;
  if (epsilon >= kMinLadderJointEpsilon) return;
  throw BadInput("key 'epsilon' = " + p.valueText("epsilon") + " m/N with eps_joints = " + p.valueText("eps_joints") +
                 ": the joint rows' compliance epsilon eps_joints = " + formatNumber(epsilon) + " m/N is below " +
                 formatNumber(kMinLadderJointEpsilon) +
                 " m/N; the ladder's loops make its joint rows redundant and SPOOK's system singular (epsilon 0 "
                 "stopped ladders of 1e-4 to 0.03 m rods within 3-10 s, 1 m rods with 200 links at 7.2 s); epsilon "
                 "eps_joints >= 1e-16 m/N runs (default 1e-10)");
}

LadderConfig configFrom(const ParamSet& p) {
  LadderConfig c;
  c.links = int(p.integer("links"));
  c.rodMass = p.real("rod_mass");
  c.rodLength = p.real("rod_length");
  c.gravity = p.vec3("gravity");
  return c;
}

}  // namespace

LadderScene::LadderScene(const ParamSet& params) : RodScene(params, {"joints", "unit", "pins"}), ladder_(configFrom(params)) {
  initSimulation(ladder_.system(), {ladder_.freeEndRod(), +1}, ladder_.freeEndRod(), ladder_.config().rodMass);
}

void LadderScene::drawExtras(DrawList& out) const {
  // The ladder lies and swings in the x-z plane, hanging from its corner at the origin; the far
  // corner is R from the pin.
  const double N = ladder_.config().links, l = ladder_.config().rodLength;
  frameSwingFaceOn(out.camera, std::hypot(N * l, l), 0.0);
}

VARSIM_REGISTER_SCENE(SceneInfo{
    "ladder", "SPOOK ladder whiplash",
    "The square ladder chain of Lacoursiere's SPOOK paper (seed 001 Sec. 6): 3N+1 rods of mass 10 kg and length 1 m, "
    "4N+1 ball joints, N closed loops, one corner pinned at the origin, released horizontally. SPOOK solves one sparse "
    "linear system per step; the whiplash at the free end reaches tens of m/s. Optional ghosts run RK4+Baumgarte and "
    "RATTLE side by side (at h = 1/60 RK4+Baumgarte breaks down in the whiplash; RATTLE gets through it in sub-steps "
    "and gains energy).",
    ladderParams, validateLadderStart, [](const ParamSet& p) { return std::make_unique<LadderScene>(p); }});

RodScene::SpeedProfile LadderScene::speedProfile() const {
  const Eigen::VectorXd v = whiplashProfile();
  return {std::vector<double>(v.data(), v.data() + v.size()), "link"};
}

}  // namespace varsim

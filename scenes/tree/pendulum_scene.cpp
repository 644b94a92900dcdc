// scenes/tree/pendulum_scene.cpp — scene `pendulum` (issue 11): the N-link planar
// pendulum of seed 003 Fig. 3 as a tree (engine/tree/pendulum_chain.h), stepped
// by a tree integrator the user picks (midpoint VI, trapezoidal VI, RK4
// baseline; engine/integrators/tree_*.h) with joint damping. All physics lives
// in the engine; this file maps parameters, reports diagnostics and draws rods
// and bobs.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "engine/integrators/tree_midpoint.h"
#include "engine/integrators/tree_rk4.h"
#include "engine/integrators/tree_trapezoidal.h"
#include "engine/sim/errors.h"
#include "engine/tree/pendulum_chain.h"
#include "engine/tree/tree_lagrangian.h"
#include "scenes/rigid_body/rigid_body_drawing.h"
#include "scenes/rods/rod_scene.h"
#include "scenes/scene.h"
#include "scenes/tree/pendulum_step_rule.h"
#include "scenes/tree/solvability_readout.h"
#include "scenes/vehicles/vehicle_drawing.h"

namespace varsim {
namespace {

using Eigen::VectorXd;
using tree::Tree;
using tree::TreeForcing;
using tree::TreeStepper;

std::vector<ParamSpec> pendulumParams() {
  return {
      ParamSpec::integer("links", 3, 1, 40, "number of links N (one hinge about the world y axis each)"),
      ParamSpec::real("mass", 1.0, 0.01, 100.0, "kg", "point mass at the far end of every link"),
      ParamSpec::real("length", 0.5, 0.05, 10.0, "m", "length of every massless rod"),
      ParamSpec::real(
          "theta0", 0.8, -3.14159265358979, 3.14159265358979, "rad",
          "release angle (see release); released at rest"),
      ParamSpec::choice("release", "every_joint", {"every_joint", "first_joint"},
                        "every_joint = every joint at theta0 relative to its parent (the first from straight down), a "
                        "curled chain; first_joint = the first joint at theta0 from straight down and every other at 0, "
                        "a straight chain swinging (seed 003 Fig. 3's start)"),
      ParamSpec::real("gravity", 9.81, 0.0, 100.0, "m/s^2", "gravitational acceleration, along -z"),
      ParamSpec::real("damping", 0.0, 0.0, 100.0, "N m s",
                      "viscous damping of every joint (torque -c qdot_i); with midpoint alpha > 0.5 refused when "
                      "(2 alpha - 1) dt c > 2 m_min, with rk4 when dt c > 2.785 m_min (m_min: smallest mass-matrix "
                      "eigenvalue at the release or straight): there the damping grows the velocity each step")
          .setLive(),
      ParamSpec::choice("integrator", "midpoint", {"midpoint", "trapezoidal", "rk4"},
                        "midpoint = generalized-midpoint VI (seed 003 eqs. 21-26); trapezoidal = VI of seed 002 eqs. "
                        "21-25 (Algorithm 1); rk4 = RK4 on the Euler-Lagrange equations (14), the baseline"),
      ParamSpec::real(
          "alpha", 0.5, 0.0, 1.0, "",
          "midpoint only: L_d evaluated at q_k + alpha (q_k+1 - q_k); 1/2 is second order, other values first order: "
          "their energy error is O(dt), so alpha != 1/2 takes the steps a sweep of alpha 0 and 1 over links x theta0 "
          "x release x dt measured to run 20 s (every swept step up to it ran; docs/scenes/pendulum.md: the default "
          "chain at dt 0.01 among them) or dt sqrt(gravity/length) <= min(1, f / |2 alpha - 1|) min(0.22, the curled "
          "rule of dt), f = 0.25 up to 10 links released within 0.8 rad, 0.1 for larger releases or more links, 0.05 "
          "beyond 19 links released beyond 0.8 rad"),
      ParamSpec::real("dt", 0.01, 1e-4, 0.05, "s",
                      "time step; midpoint: any dt with dt sqrt(gravity/length) <= 0.22 (every N, theta0 and release "
                      "measured to run); trapezoidal and rk4: the steps a sweep over links x theta0 x release x dt "
                      "measured to run 5 s sanely (between swept values: where both neighbours ran; docs/scenes/"
                      "pendulum.md); beyond those, refused above 0.71 links^-1.6 max(1, 0.8 rad / c) "
                      "sqrt(length/gravity), c the release's mean |joint angle| (theta0 for every_joint, theta0/links "
                      "for first_joint) over cos^2(theta0/2), halved for |theta0| > 2: the step must resolve the "
                      "whipping of a curled chain or one released near upside down")
          .setLog(),
      ParamSpec::boolean("cache", true,
                         "memoise the tree's recursive frame quantities (off: recompute everything from scratch, as a "
                         "symbolic expansion would; same trajectory, bit for bit)"),
  };
}

// The release: joint angles relative to the parent, at rest.
VectorXd releaseAngles(const ParamSet &p) {
  const int n = int(p.integer("links"));
  const double theta0 = p.real("theta0");
  if (p.choice("release") == "every_joint") return VectorXd::Constant(n, theta0);
  VectorXd q = VectorXd::Zero(n);
  q(0) = theta0;
  return q;
}

// How violently a release whips: its mean |joint angle| over cos^2(q_1/2) (q_1 from straight down), which grows
// without bound as the release nears upside down.
double releaseCurl(const VectorXd &q) {
  const double c = std::cos(0.5 * q(0));
  return q.cwiseAbs().mean() / std::max(c * c, 1e-300);
}

// The largest accepted dimensionless step dt sqrt(gravity/length): 0.71 N^-1.6 for a chain curled by 0.8 rad at
// every joint, larger by 0.8 rad / c for a release whose curl c (releaseCurl) is smaller. A released chain whips
// (its tip links spin up, the more links the faster), and how violently grows with the curl: a gently bent chain
// swings nearly linearly, where the midpoint VI is stable at any step. Measured at theta0 = 0.8, every joint, in
// units of sqrt(length/g): N = 1 and 2 run 300 units at 0.7; N = 3 fails (midpoint Newton) at 0.14, runs at 0.1;
// N = 5 fails at 0.1, runs at 0.07; N = 10 fails at 0.05, runs at 0.03; N = 20 and 40 fail at 0.03. The curl
// factor, measured by a sweep (N = 2, 5, 10, 19; theta0 = 0.01, 0.1, 0.5, 1.5, 3; both releases; dt at the limit and
// half of it, 5 s): with mean |q| alone first_joint at theta0 = 3 failed at the limit (N = 5 and 19, Newton also in
// 1024 substeps) and ran at half of it; the cos^2 divisor keeps those below the curled rule. Seed 003 Fig. 3's
// start (19 links of 1/19 m, first joint 0.5 rad) has c = 0.028, so h = 0.01 (0.137 units) runs: energy error
// 3.3e-3 J of the 12.0 J swing over 10 s. Releases beyond 2 rad from straight down get half the step: at
// theta0 = 3 the curled rule's own limit failed (N = 2 at dt = 0.05, both releases; N = 5 first_joint) while half
// of it ran 5 s for every N and release of the sweep.
double maxScaledStep(int links, double curl, double firstAngle) {
  const double nearUpsideDown = std::abs(firstAngle) > 2.0 ? 0.5 : 1.0;
  return 0.71 * std::pow(double(links), -1.6) * std::max(1.0, 0.8 / std::max(curl, 1e-300)) * nearUpsideDown;
}

// The midpoint VI (sub-steps after a failed Newton or a turn above 0.5 rad, tree_stepper.h) ran every case of a
// sweep over N = 1, 2, 3, 5, 10, 19, 40 x theta0 = 0.01, 0.1, 0.5, 1.5, 3 x both releases x dt = 0.001 ... 0.05 with
// length 0.5 m and gravity 9.81 (dt sqrt(g/l) up to 0.22), 5 s each: all 420 exit 0 without an energy flag, max
// |E - E0| 0.14 of the swing's energy (19 links, theta0 = 3, first_joint, dt = 0.02). Up to that scaled step it
// is accepted for every chain; beyond it (shorter links, stronger gravity) the curled rule still applies. The
// trapezoidal VI and RK4 failed some cases of the same sweep: each accepts its own measured table
// (pendulum_step_rule.h) or the curled rule, whichever allows more.
constexpr double kMidpointSweptStep = 0.22;

// The first-order midpoint VIs (alpha != 1/2) keep a symplectic energy error of order dt instead of dt^2. They take
// the steps their own sweep ran (pendulum_step_rule.h: alpha 0 and 1, 20 s, every swept step up to this one ran for
// the chain and release) or, where that sweep stops (below its smallest step, beyond 3 rad), a fraction f / |2 alpha
// - 1| (at most 1) of the curled rule, capped at the second-order sweep's 0.22: f = 0.25 for up to 10 links released
// within 0.8 rad, 0.1 for larger releases or more links, 0.05 beyond 19 links released beyond 0.8 rad. The fraction
// was measured (20 s, length 0.5, N = 1, 2, 3, 5, 10, 19, 40 x theta0 = 0.1, 0.8, 1.5, 2, 3 x both releases, alpha 0
// and 1): at 0.25 every release within 0.8 rad up to 10 links ran, releases of 1.5-3 rad flagged 2, 3 and 10 links;
// at 0.1 every case ran but 40 links first_joint at 1.5 rad, which ran at 0.05; no cell of the table's sweep that
// it accepts failed. The fraction alone refused the default chain (3 links, 0.8 rad) at dt 0.01, which the table
// measured to run 20 s with alpha 0 and 1. Without either rule the sweep of range pairs flagged alpha 0 with length
// 0.05 or gravity 100 (+0.44 J > 0.43 J, +54 J > 42 J) and stopped 40 links at dt 0.01 (alpha 0 and 1).
double firstOrderFraction(double alpha, int links, double theta0) {
  const double order = std::abs(2.0 * alpha - 1.0);
  if (order == 0.0) return 1.0;
  const bool gentle = std::abs(theta0) <= 0.8;
  const double f = links <= 10 && gentle ? 0.25 : links <= 19 || gentle ? 0.1 : 0.05;
  return std::min(1.0, f / order);
}

void checkFirstOrderStep(const ParamSet &p, double scaled, double curled) {
  const double alpha = p.real("alpha");
  if (p.choice("integrator") != "midpoint" || alpha == 0.5) return;
  const int n = int(p.integer("links"));
  const double theta0 = p.real("theta0");
  const double f = firstOrderFraction(alpha, n, theta0), fraction = f * std::min(curled, kMidpointSweptStep);
  const double swept = firstOrderStepRanUpTo(alpha, p.choice("release"), n, theta0);
  const double limit = std::max(fraction, swept);
  if (scaled <= limit * (1.0 + 1e-12)) return;  // a swept dt at another length/gravity: round-off
  const double g = p.real("gravity"), l = p.real("length");
  char sweep[120];
  if (swept > 0) std::snprintf(sweep, sizeof sweep, "every swept step up to %.3g ran", swept);
  else std::snprintf(sweep, sizeof sweep, "none ran, the smallest swept 0.0044");
  char msg[800];
  std::snprintf(msg, sizeof msg,
                "pendulum: dt = %g s with alpha = %g (first order: energy error of order dt) for %d links of %g m under "
                "gravity %g m/s^2 (release = %s, theta0 = %g): dt sqrt(gravity/length) = %.3g is beyond the steps "
                "alpha = %d ran 20 s in the measured sweep for this chain and release (%s) and beyond %.3g min(0.22, "
                "%.3g) = %.3g; allowed here dt <= %.3g s%s, or alpha = 0.5",
                p.real("dt"), alpha, n, l, g, p.choice("release").c_str(), theta0, scaled, alpha < 0.5 ? 0 : 1, sweep, f,
                curled, fraction, limit * std::sqrt(l / g),
                limit * std::sqrt(l / g) < 1e-4 ? " (below the smallest dt, 1e-4 s)" : "");
  throw BadInput(msg);
}

void checkStepResolvesTheChain(const ParamSet &p) {
  const int n = int(p.integer("links"));
  const double g = p.real("gravity"), l = p.real("length"), dt = p.real("dt");
  const std::string &integrator = p.choice("integrator"), &release = p.choice("release");
  const double curl = releaseCurl(releaseAngles(p));
  const double scaled = dt * std::sqrt(g / l), curled = maxScaledStep(n, curl, releaseAngles(p)(0));
  checkFirstOrderStep(p, scaled, curled);
  if (scaled <= curled || (integrator == "midpoint" && scaled <= kMidpointSweptStep)) return;
  if (integrator != "midpoint" && sweptStepRan(integrator, release, n, p.real("theta0"), scaled)) return;
  const double swept = integrator == "midpoint"
                           ? kMidpointSweptStep
                           : largestSweptStepRan(integrator, release, n, p.real("theta0"), scaled);
  char msg[900];
  std::snprintf(msg, sizeof msg,
                "pendulum: dt = %g s is too large for %d links of %g m under gravity %g m/s^2 released with curl "
                "%.3g rad (mean |joint angle| / cos^2(q_1/2); release = %s, theta0 = %g): dt sqrt(gravity/length) = "
                "%.3g exceeds 0.71 links^-1.6 max(1, 0.8/%.3g)%s = %.3g and is not a step the %s ran in the measured "
                "sweep for this chain and release (there: %s); allowed here dt <= %.3g s",
                dt, n, l, g, curl, release.c_str(), p.real("theta0"), scaled, curl,
                std::abs(p.real("theta0")) > 2.0 ? " / 2 (theta0 beyond 2 rad)" : "", curled, integrator.c_str(),
                integrator == "rk4" ? "the explicit steps blew up or gained energy"
                                    : "Newton failed or the energy ran away",
                std::max(curled, swept) * std::sqrt(l / g));
  throw BadInput(msg);
}

// The damping's own step bound. Linearised, a step maps the velocity by (M - a h c)(M + (1 - a) h c)^-1 with
// a = alpha for the midpoint VI (its forcing f_d^+ = alpha h f is explicit in the damping), so it grows once
// (2 alpha - 1) h c > 2 m for an eigenvalue m of the mass matrix M; RK4 on qdot' = -c qdot / m is stable up to
// h c / m = 2.785 (its real-axis bound). m_min is taken at the release and at the straight chain (the smaller).
// Measured (3 links of 0.5 m, 1 kg, c = 100 N m s, 3 s): at dt = 0.01 alpha = 0.6, 0.75, 1 and rk4 gained
// energy and then failed, alpha <= 0.5 and trapezoidal ran. The bound is within 1.6x of the measured edge:
// alpha = 0.6 bound 0.0025 s, ran at 0.003, flagged at 0.004; alpha = 1 bound 0.0005 s, flagged at 0.0006;
// rk4 bound 0.0007 s, ran at 0.0008, failed at 0.0012.
double dampingStepLimit(const ParamSet &p) {
  const double c = p.real("damping"), alpha = p.real("alpha");
  const std::string &kind = p.choice("integrator");
  const double factor = kind == "rk4" ? 1.0 / 2.785 : kind == "midpoint" && alpha > 0.5 ? (2 * alpha - 1) / 2 : 0.0;
  if (!(c > 0) || factor == 0.0) return INFINITY;
  Tree t = tree::pendulumChain(int(p.integer("links")), p.real("mass"), p.real("length"));
  double mMin = INFINITY;
  for (const VectorXd &q : {releaseAngles(p), VectorXd(VectorXd::Zero(t.dof()))}) {
    t.setState(q, VectorXd::Zero(t.dof()));
    mMin = std::min(mMin, tree::massMatrix(t).selfadjointView<Eigen::Lower>().eigenvalues().minCoeff());
  }
  return mMin / (factor * c);
}

void checkStepResolvesTheDamping(const ParamSet &p) {
  const double limit = dampingStepLimit(p), dt = p.real("dt");
  if (dt <= limit) return;
  const bool rk4 = p.choice("integrator") == "rk4";
  throw BadInput("pendulum: dt = " + formatNumber(dt) + " s with damping = " + formatNumber(p.real("damping")) +
                 " N m s and " + (rk4 ? std::string("integrator rk4") : "alpha = " + formatNumber(p.real("alpha"))) +
                 ": the damping is stepped unstably (velocity grows each step: " +
                 (rk4 ? "dt c / m_min > 2.785" : "(2 alpha - 1) dt c > 2 m_min") +
                 ", m_min the smallest mass-matrix eigenvalue); allowed here dt <= " + formatNumber(limit) +
                 " s, or alpha <= 0.5 / integrator trapezoidal");
}

int validatedLinks(const ParamSet &p) {
  checkStepResolvesTheChain(p);
  checkStepResolvesTheDamping(p);
  return int(p.integer("links"));
}

std::unique_ptr<TreeStepper> makeStepper(Tree &t, const ParamSet &p) {
  const std::string &kind = p.choice("integrator");
  if (kind == "midpoint") return std::make_unique<tree::TreeMidpoint>(t, p.real("alpha"));
  if (kind == "trapezoidal") return std::make_unique<tree::TreeTrapezoidal>(t);
  return std::make_unique<tree::TreeRk4>(t);
}

class PendulumScene : public Scene {
 public:
  explicit PendulumScene(ParamSet params)
      : Scene(std::move(params)),
        links_(validatedLinks(params_)),
        tree_(tree::pendulumChain(links_, params_.real("mass"), params_.real("length"))) {
    tree_.setGravity({0.0, 0.0, -params_.real("gravity")});
    tree_.setCache(params_.flag("cache"));
    forcing_.damping = VectorXd::Constant(links_, params_.real("damping"));
    stepper_ = makeStepper(tree_, params_);
    stepper_->initialize(releaseAngles(params_), VectorXd::Zero(links_), h_, forcing_);
    energy0_ = stepper_->energy();
    trapezoidal_ = dynamic_cast<const tree::TreeTrapezoidal *>(stepper_.get());
    updateBound();
  }

  void step(double h, const InputVector &) override {
    // The implicit schemes fix h at initialize (it enters the discrete Legendre
    // transform): a different h restarts them from the current (q, qdot).
    if (h != h_) stepper_->initialize(stepper_->q(), stepper_->qdot(), h, forcing_), h_ = h;
    stepper_->step(forcing_);  // throws SimulationDiverged with the state kept
    time_ += h;
    updateBound();
  }
  double time() const override { return time_; }

  void applyLive(const ParamSet &params) override {
    params_ = params;
    forcing_.damping = VectorXd::Constant(links_, params_.real("damping"));
    updateBound();  // the damping enters the bound (Prop. 1's k1, L1)
  }

  std::vector<std::string> columns() const override {
    std::vector<std::string> c{"t", "energy", "newton_iters", "kinetic", "potential", "energy_rel_err"};
    for (int i = 1; i <= links_; ++i) c.push_back("q_" + std::to_string(i));
    c.insert(c.end(), {"tip_x", "tip_z"});
    if (trapezoidal_) c.push_back("h_bound");
    return c;
  }

  void diagnostics(std::vector<double> &row) const override {
    setTreeToState();
    const double T = tree::kineticEnergy(tree_), V = tree::potentialEnergy(tree_), E = T + V;
    const Eigen::Vector3d tip = point(links_);
    row = {time_, E, double(stepper_->newtonIterations()), T, V, (E - energy0_) / std::max(std::abs(energy0_), 1e-300)};
    const VectorXd q = stepper_->q();
    row.insert(row.end(), q.data(), q.data() + q.size());
    row.insert(row.end(), {tip.x(), tip.z()});
    if (trapezoidal_) row.push_back(solvability_.hBar());
  }

  // Kinetic energy (times 1 + (h |qdot|_inf)^2, the size of the integrators'
  // phase error) plus the chain's weight times its reach: the energy the step
  // error is proportional to.
  double energyScale() const override {
    setTreeToState();
    const double h = dt() * tree_.qdot().lpNorm<Eigen::Infinity>();
    return tree::kineticEnergy(tree_) * (1.0 + h * h) +
           links_ * params_.real("mass") * params_.real("gravity") * links_ * params_.real("length");
  }

  std::vector<double> saveState() const override {
    std::vector<double> s{time_, h_};
    const std::vector<double> inner = stepper_->saveState();
    s.insert(s.end(), inner.begin(), inner.end());
    return s;
  }
  void loadState(const std::vector<double> &s) override {
    if (s.size() < 2) throw BadInput("pendulum state: " + std::to_string(s.size()) + " numbers, need at least 2");
    stepper_->loadState(std::vector<double>(s.begin() + 2, s.end()));
    time_ = s[0], h_ = s[1];
    updateBound();
  }

  std::vector<PlotSpec> plots() const override {
    std::vector<std::string> angles;
    for (int i = 1; i <= std::min(links_, 6); ++i) angles.push_back("q_" + std::to_string(i));
    std::vector<PlotSpec> out{{"Energy (J)", {"energy", "kinetic", "potential"}},
                              {"Relative energy error (E - E0)/|E0|", {"energy_rel_err"}},
                              {"Newton iterations per step", {"newton_iters"}},
                              {"Joint angles (rad)", angles},
                              {"Tip position (m)", {"tip_x", "tip_z"}}};
    if (trapezoidal_) out.push_back({"Solvability step bound h_bound (s, seed 002 Prop. 2)", {"h_bound"}, true});
    return out;
  }

  // The solvability monitor (trapezoidal only): h_bar beside h and the Newton count, a warning when h > h_bar.
  std::vector<ScenePanel> panels(const PanelContext &) const override {
    if (!trapezoidal_) return {};
    return {solvability_.panel(h_, stepper_->newtonIterations())};
  }
  void panelSamples(const PanelContext &, std::vector<PanelSample> &out) const override {
    if (trapezoidal_) out.push_back(solvability_.sample(h_));
  }

  void draw(DrawList &out) const override {
    const double L = params_.real("length");
    // Bobs sized for the whole chain (2.5% of its reach) but never wider than half a link; rods 40% of that.
    const float bob = float(std::min(0.25 * L, 0.025 * links_ * L)), rod = 0.4f * bob;
    setTreeToState();
    Eigen::Vector3d from = Eigen::Vector3d::Zero();
    ShapeItem pivot;
    pivot.kind = ShapeKind::Sphere;
    pivot.size = {1.5f * rod, 1.5f * rod, 1.5f * rod};
    pivot.color = {0.6f, 0.6f, 0.65f, 1.0f};
    out.shapes.push_back(pivot);
    for (int l = 1; l <= links_; ++l) {
      const Eigen::Vector3d to = point(l);
      ShapeItem r;  // capsule along the hinge frame's z axis (the rod's line),
                    // centred on the rod
      r.kind = ShapeKind::Capsule;
      Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
      T.linear() = tree_.g(2 * (l - 1)).topLeftCorner<3, 3>();
      T.translation() = 0.5 * (from + to);
      r.transform = toMat4(T);
      r.size = {rod, rod, float((to - from).norm())};
      r.color = {0.75f, 0.75f, 0.8f, 1.0f};
      out.shapes.push_back(r);
      ShapeItem b;
      b.kind = ShapeKind::Sphere;
      b.transform = toMat4(Eigen::Isometry3d(Eigen::Translation3d(to)));
      b.size = {bob, bob, bob};
      b.color = l == links_ ? Rgba{0.95f, 0.55f, 0.15f, 1.0f} : Rgba{0.3f, 0.55f, 0.95f, 1.0f};
      out.shapes.push_back(b);
      from = to;
    }
    std::vector<double> row;
    diagnostics(row);
    char line[120];
    std::snprintf(line, sizeof line, "E = %.6g J   (E-E0)/|E0| = %+.2e", row[1], row[5]);
    out.hud.push_back(line);
    std::snprintf(
        line, sizeof line, "%s%s  h = %.3g s%s  Newton %d", params_.choice("integrator").c_str(),
        params_.choice("integrator") == "midpoint" ? (" a=" + shortNumber(params_.real("alpha"))).c_str() : "", dt(),
        trapezoidal_ ? ("  " + solvability_.hudText()).c_str() : "", stepper_->newtonIterations());
    out.hud.push_back(line);
    if (trapezoidal_ && !solvability_.hudWarning(h_).empty()) out.hud.push_back(solvability_.hudWarning(h_));
    std::snprintf(line, sizeof line, "%d links  damping %.3g N m s  cache %s", links_, params_.real("damping"),
                  params_.flag("cache") ? "on" : "off");
    out.hud.push_back(line);
    // Face-on to the x-z plane. The default layout's 3-D view (between the parameter and plot panels) is about
    // 0.7 as wide as high, not the 1.1 frameSwingFaceOn assumes: frame 1.6 reaches so a full swing fits across.
    const double reach = links_ * L;
    frameSwingFaceOn(out.camera, 1.6 * reach, 0.0);
    out.camera.target = {0.0f, 0.0f, float(-0.5 * reach)};
    // A chaotic double pendulum also swings above its pivot.
    out.camera.reachLo = {float(-reach), 0.0f, float(-reach)};
    out.camera.reachHi = {float(reach), 0.0f, float(reach)};
  }

 private:
  static std::string shortNumber(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", v);
    return b;
  }
  // Seed 002 Sec. 4's h_bar at the trapezoidal stepper's next step (its (q_k, v_k) and the current damping).
  void updateBound() {
    if (trapezoidal_) solvability_.update(*trapezoidal_, forcing_);
  }
  void setTreeToState() const { stepper_->tree().setState(stepper_->q(), stepper_->qdot()); }
  // World position of bob l (1..N): the origin of frame 2l-1
  // (pendulum_chain.h), at the tree's current q.
  Eigen::Vector3d point(int l) const { return tree_.g(2 * l - 1).topRightCorner<3, 1>(); }

  int links_;
  Tree tree_;
  TreeForcing forcing_;
  std::unique_ptr<TreeStepper> stepper_;  // holds a reference to tree_
  const tree::TreeTrapezoidal *trapezoidal_ = nullptr;  // stepper_ when it is the trapezoidal VI
  SolvabilityReadout solvability_;
  double h_ = dt();                       // the step the stepper was initialized with
  double time_ = 0.0, energy0_ = 0.0;
};

}  // namespace

VARSIM_REGISTER_SCENE(SceneInfo{
    "pendulum", "N-link pendulum (tree integrators)",
    "An N-link planar pendulum built as a tree of seed 003 (per link a hinge about the world y axis and a massless rod "
    "carrying a point mass), released at rest with every joint at theta0 (or only the first: release), stepped by the generalized-midpoint "
    "variational integrator (seed 003 eqs. 21-26, discrete Legendre start), the trapezoidal variational integrator "
    "(seed 002 eqs. 21-25) or RK4 on the continuous equations (the baseline, whose energy drifts at large dt). Joint "
    "damping only removes energy. Columns q_i are joint angles relative to the parent; energy is T + V with V = 0 at "
    "the pivot height. With the trapezoidal integrator, h_bound is the a-priori step bound h_bar of seed 002 Props. 1-2 "
    "at the state (Newton from v_k converges for any h below it; 1e6 = no restriction found), shown beside h with "
    "the Newton count in the app, with a warning (never a clamp) when h exceeds it. A step of the variational "
    "integrators whose Newton solve fails, or that turns a joint by more than 0.5 rad, is redone in 2, 4, ... 64 "
    "sub-steps; a step that fails even then stops the run with exit 3.",
    pendulumParams, nullptr,
    [](const ParamSet &p) -> std::unique_ptr<Scene> { return std::make_unique<PendulumScene>(p); }});

}  // namespace varsim

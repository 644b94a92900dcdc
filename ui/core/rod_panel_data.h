// Data side of the app's SPOOK tuning panel (ui/app/panels_rods.cpp), without GL or ImGui: which
// (ε, τ) a target (global, a constraint group, one constraint) has and how to set it through the
// same ParamSet path as the parameter panel, the conventions readout/entry both ways, picking a
// joint along a mouse ray, the picked constraint's violation/force trace, and the speed profile
// along the ladder (whiplash) with its running peak.
#pragma once
#include <Eigen/Core>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "engine/integrators/spook_conventions.h"
#include "scenes/rod_scene.h"
#include "ui/core/sim_driver.h"
#include "ui/plot/plot_history.h"

namespace varsim {

// What a relaxation edit acts on.
struct RelaxationTarget {
  enum class Kind { Global, Group, Constraint };
  Kind kind = Kind::Global;
  std::string group;   // Group: a name from system().groupNames() that has eps_<group>, tau_<group>
  int constraint = -1; // Constraint: index into system().constraints()
};

// The groups of the scene that carry their own multipliers eps_<g>, tau_<g> (in groupNames() order).
std::vector<std::string> tunableGroups(const RodScene& scene, const ParamSet& params);
// (ε, τ) in force for the target: global = the epsilon/tau parameters; group = global × multipliers;
// constraint = what the SPOOK stepper uses for it (override or group value).
SpookParameters targetRelaxation(const RodScene& scene, const ParamSet& params, const RelaxationTarget& target);
// Gives the target (ε, τ) = p through the driver: global and group values as live parameters
// (group values become multipliers of the global ones), a constraint as a per-constraint override.
// Every key is validated before any changes, so a rejected edit changes nothing. Throws BadInput
// naming the key, the value and the allowed range (e.g. a group edit while the global ε is 0).
void applyTargetRelaxation(SimDriver& driver, RodScene& scene, const RelaxationTarget& target, const SpookParameters& p);

// The measured-stability warnings (spookStabilityWarning at the scene's h) of the scene's groups and
// of the constraints in `overrides`, one line per distinct warning naming everything it applies to,
// e.g. "joints, unit, pins: tau/h = 0.2 < 0.5: ..."; empty inside the measured region. The same
// verdicts as RodScene::stabilityWarning(), without repeating a text once per group.
std::vector<std::string> stabilityWarningLines(const RodScene& scene, const ParamSet& params, const std::set<int>& overrides);

// The ghost steppers' divergence indicator: Diverged once a ghost froze; EnergyGrowth while its energy
// is above the initial energy E0 by more than tolerance · max(|E0|, 1 J) (neither baseline may gain
// energy, and in the measured runs instability showed first as energy growth; the joint gaps are no
// indicator: rods in (x, u) form have linear joint rows, which RK4 and RATTLE keep to round-off).
enum class GhostHealth { Running, EnergyGrowth, Diverged };
GhostHealth ghostHealth(const RodScene::GhostStatus& ghost, double initialEnergy, double tolerance = 1e-3);

// The four conventions of spook_conventions.h as (a, b) pairs for an entry row.
enum class Convention { SpringDamperPerMass, OdeErpCfm, MujocoSolref, Box2dSoft };
constexpr std::array<Convention, 4> kConventions = {Convention::SpringDamperPerMass, Convention::OdeErpCfm,
                                                    Convention::MujocoSolref, Convention::Box2dSoft};
struct ConventionInfo {
  const char* name;                  // "spring/damper", "ODE", ...
  const char* labelA;                // "k/m [1/s^2]", "ERP", ...
  const char* labelB;
};
ConventionInfo conventionInfo(Convention c);
// (a, b) of (ε, τ) at step h on effective mass m (spring/damper per unit of m: k/m, c/m). Throws
// BadInput where the convention has no value (ε = 0 or τ = 0 for all but ODE).
std::array<double, 2> toConvention(Convention c, const SpookParameters& p, double h, double mass);
// Inverse of toConvention; throws BadInput naming the offending value.
SpookParameters fromConvention(Convention c, const std::array<double, 2>& ab, double h, double mass);

// The joint or pin (constraint index) whose anchor appears closest to the ray from `origin` along
// `direction` (any nonzero length), measured as the angle seen from the origin, within maxAngle rad;
// −1 when nothing is that close, the ray is degenerate or the scene has no joints. Anchors behind
// the origin are ignored; equal angles keep the lower index.
int pickJointOnRay(const RodScene& scene, const Eigen::Vector3d& origin, const Eigen::Vector3d& direction,
                   double maxAngle);

// Ring buffer of the picked joint's gap and force (series "gap (m)", "force (N)"), one
// sample per physics step. Time going back (history scrub, reset) first drops the samples after it.
class ConstraintTrace {
 public:
  explicit ConstraintTrace(size_t capacity = 36000);  // 10 min at 60 Hz
  void reset(int constraint);
  int constraint() const { return constraint_; }
  void sample(double t, double violation, double force);
  void sample(const RodScene& scene);  // the current status of constraint() (no-op when −1)
  const PlotHistory& data() const { return data_; }

 private:
  int constraint_ = -1;
  PlotHistory data_;
};

// Speed along the chain: for the ladder the largest end speed of each link k = 1..N (the whiplash
// profile), otherwise the largest end speed of each body in order.
struct SpeedProfile {
  std::vector<double> speeds;  // m/s
  const char* axis = "body";   // "link" for the ladder
};
SpeedProfile speedProfile(const RodScene& scene);

// Running peak of a profile since t was last reset; restarts when time goes back or the size changes.
class SpeedEnvelope {
 public:
  void update(double t, const std::vector<double>& speeds);
  const std::vector<double>& peak() const { return peak_; }
  const std::vector<double>& peakTime() const { return peakTime_; }

 private:
  double lastT_ = -1e300;
  std::vector<double> peak_, peakTime_;
};

}  // namespace varsim

// SPOOK tuning of a rod scene as data (no UI): which (ε, τ) a target (global, a constraint group, one
// constraint) has under the ε/τ rule (effectiveRelaxation, rod_scene.h) and the live edits that give
// it another one, the measured-stability warnings, the ghosts' health, the four other conventions of
// (ε, τ) both ways, and picking a joint along a ray. Used by the SPOOK panel (rod_panel.cpp) and tests.
#pragma once
#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

#include "engine/integrators/spook_conventions.h"
#include "scenes/rods/rod_scene.h"
#include "scenes/scene_panel.h"

namespace varsim {

// What a relaxation edit acts on.
struct RelaxationTarget {
  enum class Kind { Global, Group, Constraint };
  Kind kind = Kind::Global;
  std::string group;    // Group: a name from system().groupNames() that has eps_<group>, tau_<group>
  int constraint = -1;  // Constraint: index into system().constraints()
};

// The groups of the scene that carry their own multipliers eps_<g>, tau_<g> (in groupNames() order).
std::vector<std::string> tunableGroups(const RodScene& scene);
// (ε, τ) in force for the target (effectiveRelaxation): global = the epsilon/tau parameters; group =
// global × multipliers; constraint = its override, else its group's value.
SpookParameters targetRelaxation(const RodScene& scene, const RelaxationTarget& target);
// The live edits that give the target (ε, τ) = p: global and group values as parameters (group values
// become multipliers of the global ones), a constraint as the scene edit relax.<i>. Every value is
// validated first; throws BadInput naming the key, the value and the allowed range (e.g. a group edit
// while the global ε is 0).
std::vector<PanelEdit> relaxationEdits(const RodScene& scene, const RelaxationTarget& target, const SpookParameters& p);

// The measured-stability warnings (spookStabilityWarning at the scene's h) of the scene's groups and
// of the constraints with their own (ε, τ), one line per distinct warning naming everything it applies
// to, e.g. "joints, unit, pins: tau/h = 0.2 < 0.5: ..."; empty inside the measured region.
std::vector<std::string> stabilityWarningLines(const RodScene& scene);

// A ghost stepper's divergence indicator: Diverged once it froze; EnergyGrowth once its energy rose
// above the scene's initial energy by more than the tolerance (latched in the ghost's state, see
// RodScene::GhostStatus::energyGrowthAt); neither baseline may gain energy.
enum class GhostHealth { Running, EnergyGrowth, Diverged };
GhostHealth ghostHealth(const RodScene::GhostStatus& ghost);

// The four conventions of spook_conventions.h as (a, b) pairs for an entry row.
enum class Convention { SpringDamperPerMass, OdeErpCfm, MujocoSolref, Box2dSoft };
constexpr std::array<Convention, 4> kConventions = {Convention::SpringDamperPerMass, Convention::OdeErpCfm,
                                                    Convention::MujocoSolref, Convention::Box2dSoft};
struct ConventionInfo {
  const char* name;    // "spring/damper", "ODE", ...
  const char* key;     // action suffix: "spring", "ode", "mujoco", "box2d"
  const char* labelA;  // "k/m [1/s^2]", "ERP", ...
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

// "joint 89: rod 28 tail - rod 30 head" → "joint 89".
std::string shortName(const std::string& name);

}  // namespace varsim

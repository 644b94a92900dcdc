// scenes/orbit/orbit_sim.h — the orbiting ball cluster of seed 004 Sec. 5 on one of three integrators behind one
// interface: quat_lgvi (seed 004 eq. (23) on R^3 x S^3), so3xr3_lgvi (the seed 000 LGVI on SO(3)xR^3, cay/C_cay,
// with the field as a body wrench) or rk4 (RK4 of eq. (15), quaternion not renormalised). Every integrator reports
// its node in the variables (x, q, p, w = 2 J Omega), so energy and angular momentum use one formula for all.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/integrators/lgvi_se3.h"
#include "engine/integrators/quat_lgvi.h"
#include "engine/integrators/quat_rk4.h"
#include "engine/models/central_field.h"

namespace varsim {

enum class OrbitIntegrator { QuatLgvi, So3xR3Lgvi, Rk4 };
OrbitIntegrator orbitIntegratorFrom(const std::string& name);  // quat_lgvi | so3xr3_lgvi | rk4, else BadInput

class OrbitSim {
 public:
  // s0: the continuous initial state (p0 = m xdot0, w0 = 2 J Omega0). Throws BadInput on invalid data.
  OrbitSim(OrbitIntegrator kind, const BallCluster& body, double gm, const QuatRigidState& s0, double h);

  void step(double h);  // throws SimulationDiverged with the state unchanged

  OrbitIntegrator kind() const { return kind_; }
  const RigidBodyInertia& inertia() const { return inertia_; }
  const CentralFieldPotential& field() const { return *field_; }
  // The node in (x, q, p, w): quat_lgvi its state; so3xr3_lgvi the node momentum mu^- + (h/2) f_k (seed 000, its
  // discrete Legendre estimate of II xi(t_k)) as p = R p_b, w = 2 pi, and q = the unit quaternion of R (w >= 0);
  // rk4 its state (|q| drifting).
  QuatRigidState node() const;
  Matrix3d rotation() const;  // body -> world as the integrator holds it (orthonormalised from q for rk4)
  // Distance of the attitude from its group: |q| - 1 for quat_lgvi and rk4, |R^T R - I|_F for so3xr3_lgvi.
  double attitudeError() const;
  double kineticEnergy() const;
  double potentialEnergy() const;
  double energy() const { return kineticEnergy() + potentialEnergy(); }
  Vector3d angularMomentum() const;  // about the world origin
  int newtonIterations() const;      // 0 for rk4
  double stepMicros() const { return stepMicros_; }
  double time() const;

  std::vector<double> saveState() const;
  void loadState(const std::vector<double>& state);  // BadInput on a wrong layout

 private:
  OrbitIntegrator kind_;
  RigidBodyInertia inertia_;
  std::shared_ptr<const CentralFieldPotential> field_;
  WrenchField wrench_;  // the field as a body wrench (so3xr3_lgvi)
  std::unique_ptr<QuatLgvi> quat_;
  std::unique_ptr<LgviSe3> lgvi_;
  std::unique_ptr<QuatRk4> rk4_;
  double stepMicros_ = 0.0;
};

}  // namespace varsim

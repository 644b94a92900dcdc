// scenes/orbit/orbit_sim.cpp — the three orbit integrators behind one interface (see the header).
#include "scenes/orbit/orbit_sim.h"

#include <chrono>

#include "engine/sim/errors.h"

namespace varsim {

OrbitIntegrator orbitIntegratorFrom(const std::string& name) {
  if (name == "quat_lgvi") return OrbitIntegrator::QuatLgvi;
  if (name == "so3xr3_lgvi") return OrbitIntegrator::So3xR3Lgvi;
  if (name == "rk4") return OrbitIntegrator::Rk4;
  throw BadInput("integrator '" + name + "': allowed quat_lgvi, so3xr3_lgvi, rk4");
}

OrbitSim::OrbitSim(OrbitIntegrator kind, const BallCluster& body, double gm, const QuatRigidState& s0, double h)
    : kind_(kind),
      inertia_(clusterInertia(body)),
      field_(std::make_shared<CentralFieldPotential>(body, gm)),
      wrench_(potentialWrenchField(field_)) {
  const Vector3d xdot0 = s0.p / inertia_.mass, omega0 = quatRigidOmega(inertia_, s0);
  switch (kind_) {
    case OrbitIntegrator::QuatLgvi:
      quat_ = std::make_unique<QuatLgvi>(inertia_, field_);
      quat_->initialize(s0.x, s0.q, xdot0, omega0, 0.0);
      break;
    case OrbitIntegrator::So3xR3Lgvi: {
      LgviOptions o;
      o.group = LgviGroup::SO3xR3;  // retraction cay, C_cay: exact momentum conservation
      lgvi_ = std::make_unique<LgviSe3>(inertia_, o);
      const Matrix3d R0 = quat::toRotation(s0.q);
      lgvi_->initialize(se3::Pose{R0, s0.x}, (Vector6d() << omega0, R0.transpose() * xdot0).finished(), 0.0, h,
                        wrench_);
      break;
    }
    case OrbitIntegrator::Rk4:
      rk4_ = std::make_unique<QuatRk4>(inertia_, field_);
      rk4_->initialize(s0, 0.0);
      break;
  }
}

void OrbitSim::step(double h) {
  const auto start = std::chrono::steady_clock::now();
  if (quat_)
    quat_->step(h);
  else if (lgvi_)
    lgvi_->step(h, wrench_);
  else
    rk4_->step(h);
  stepMicros_ = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

QuatRigidState OrbitSim::node() const {
  if (quat_) return quat_->state();
  if (rk4_) return rk4_->state();
  const se3::Pose& g = lgvi_->pose();
  const Vector6d mu = lgvi_->nodeMomentumBody(wrench_);
  QuatRigidState s;
  s.x = g.x;
  s.q = quat::fromRotation(g.R);
  s.p = g.R * mu.tail<3>();
  s.w = 2.0 * mu.head<3>();
  return s;
}

Matrix3d OrbitSim::rotation() const {
  if (lgvi_) return lgvi_->pose().R;
  return quat::toRotation(quat_ ? quat_->state().q : rk4_->state().q);
}

double OrbitSim::attitudeError() const {
  if (lgvi_) return (lgvi_->pose().R.transpose() * lgvi_->pose().R - Matrix3d::Identity()).norm();
  return (quat_ ? quat_->state().q : rk4_->state().q).norm() - 1.0;
}

double OrbitSim::kineticEnergy() const { return quatRigidKineticEnergy(inertia_, node()); }

double OrbitSim::potentialEnergy() const { return field_->value(node().x, rotation()); }

Vector3d OrbitSim::angularMomentum() const {
  if (lgvi_) return se3::spatialMomentum(lgvi_->pose(), lgvi_->nodeMomentumBody(wrench_)).head<3>();
  return quatRigidAngularMomentum(node());
}

int OrbitSim::newtonIterations() const {
  return quat_ ? quat_->newtonIterations() : lgvi_ ? lgvi_->newtonIterations() : 0;
}

double OrbitSim::time() const { return quat_ ? quat_->time() : lgvi_ ? lgvi_->time() : rk4_->time(); }

std::vector<double> OrbitSim::saveState() const {
  return quat_ ? quat_->saveState() : lgvi_ ? lgvi_->saveState() : rk4_->saveState();
}

void OrbitSim::loadState(const std::vector<double>& state) {
  if (quat_)
    quat_->loadState(state);
  else if (lgvi_)
    lgvi_->loadState(state);
  else
    rk4_->loadState(state);
}

}  // namespace varsim

// engine/models/rigid_potential.cpp — uniform gravity as a RigidPotential and the body wrench of any potential.
#include "engine/models/rigid_potential.h"

#include <utility>

namespace varsim {

double UniformGravityPotential::value(const Vector3d& x, const Matrix3d&) const { return -mass_ * gravity_.dot(x); }

PotentialGradient UniformGravityPotential::gradient(const Vector3d&, const Matrix3d&) const {
  PotentialGradient g;
  g.dVdx = -mass_ * gravity_;
  return g;
}

WrenchField potentialWrenchField(std::shared_ptr<const RigidPotential> potential) {
  return [V = std::move(potential)](const se3::Pose& g, const Vector6d&, double) {
    const PotentialGradient d = V->gradient(g.x, g.R);
    Vector6d f;
    f << d.bodyTorque(), -(g.R.transpose() * d.dVdx);
    return f;
  };
}

}  // namespace varsim

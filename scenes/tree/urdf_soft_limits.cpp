// scenes/tree/urdf_soft_limits.cpp — soft joint limits of the `urdf` scene (see urdf_soft_limits.h).
#include "scenes/tree/urdf_soft_limits.h"

#include <Eigen/Dense>
#include <cmath>

namespace varsim {

UrdfSoftLimits::UrdfSoftLimits(const std::vector<urdf_import::JointInfo>& joints, const Eigen::MatrixXd& M0, double f,
                               double zeta)
    : joints_(joints) {
  if (f <= 0) return;
  const Eigen::MatrixXd Minv = M0.inverse();
  const double w = 2 * M_PI * f;
  for (size_t i = 0; i < joints.size(); ++i) {
    const double m = 1.0 / Minv(Eigen::Index(i), Eigen::Index(i));
    k_.push_back(joints[i].limited ? m * w * w : 0.0);
    c_.push_back(joints[i].limited ? 2 * zeta * m * w : 0.0);
  }
}

double UrdfSoftLimits::penetration(int i, double q) const {
  const auto& j = joints_[size_t(i)];
  if (!j.limited) return 0;
  return q > j.upper ? q - j.upper : (q < j.lower ? q - j.lower : 0.0);
}

void UrdfSoftLimits::apply(const Eigen::VectorXd& at, const Eigen::VectorXd& base, tree::TreeForcing& f) const {
  f.damping = base;
  f.torque = Eigen::VectorXd::Zero(at.size());
  if (!on()) return;
  for (int i = 0; i < at.size(); ++i) {
    const double d = penetration(i, at(i));
    if (d == 0) continue;
    f.torque(i) = -k_[size_t(i)] * d;
    f.damping(i) += c_[size_t(i)];
  }
}

double UrdfSoftLimits::energy(const Eigen::VectorXd& q) const {
  double e = 0;
  if (!on()) return e;
  for (int i = 0; i < q.size(); ++i) e += 0.5 * k_[size_t(i)] * penetration(i, q(i)) * penetration(i, q(i));
  return e;
}

int UrdfSoftLimits::active(const Eigen::VectorXd& q) const {
  int n = 0;
  for (int i = 0; on() && i < q.size(); ++i) n += penetration(i, q(i)) != 0;
  return n;
}

}  // namespace varsim

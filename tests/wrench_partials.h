// tests/wrench_partials.h — central-difference partials of a body wrench w(g, xi) in the convention of
// lgvi_se3.h ImplicitWrenchJacobian (pose perturbed as R exp(theta^), x + R y; twist xi), used to check the
// analytic partials of end-of-step wrenches and the LGVI's chain rule. Header-only, test use.
#pragma once

#include <functional>

#include "engine/lie/se3.h"
#include "engine/lie/so3.h"

namespace varsim::test {

inline void numericWrenchPartials(const std::function<Vector6d(const se3::Pose&, const Vector6d&)>& w,
                                  const se3::Pose& g, const Vector6d& xi, double e, Matrix6d& dPose, Matrix6d& dXi) {
  for (int j = 0; j < 6; ++j) {
    Vector6d d = Vector6d::Zero();
    d[j] = e;
    auto moved = [&](double s) {
      se3::Pose q = g;
      q.R = g.R * so3::exp(s * d.head<3>());
      q.x = g.x + g.R * (s * d.tail<3>());
      return q;
    };
    dPose.col(j) = (w(moved(1), xi) - w(moved(-1), xi)) / (2 * e);
    dXi.col(j) = (w(g, xi + d) - w(g, xi - d)) / (2 * e);
  }
}

}  // namespace varsim::test

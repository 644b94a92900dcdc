// tests/constrained_rk4.h — an independent continuous-time reference for the nonholonomic tests: the
// constrained Lagrangian with multipliers in index-1 form, M(q) q'' = F + W^T lambda, W q'' = -(d/dt W) q',
// integrated with classical RK4 at a small step; plus the log-log slope fit used for convergence orders.
// Header-only, test use.
#pragma once
#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <vector>

#include "tests/log_log_slope.h"

namespace varsim::test {

struct ConstrainedLagrangian {
  std::function<Eigen::MatrixXd(double t, const Eigen::VectorXd& q)> mass;                            // M(q)
  std::function<Eigen::VectorXd(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd)> force;  // F
  std::function<Eigen::MatrixXd(double t, const Eigen::VectorXd& q)> constraint;                      // W
  // (d/dt W) q' including the explicit time dependence of W (prescribed shape).
  std::function<Eigen::VectorXd(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd)> constraintRate;

  // q'' from the KKT system [[M, -W^T], [W, 0]] [q''; lambda] = [F; -W_dot q'].
  Eigen::VectorXd acceleration(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) const {
    const Eigen::MatrixXd M = mass(t, q), W = constraint(t, q);
    const long n = M.rows(), c = W.rows();
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + c, n + c);
    K.topLeftCorner(n, n) = M;
    K.topRightCorner(n, c) = -W.transpose();
    K.bottomLeftCorner(c, n) = W;
    Eigen::VectorXd rhs(n + c);
    rhs << force(t, q, qd), -constraintRate(t, q, qd);
    return K.fullPivLu().solve(rhs).head(n);
  }

  // One RK4 step of (q, q').
  void rk4(double t, double h, Eigen::VectorXd& q, Eigen::VectorXd& qd) const {
    const auto a1 = acceleration(t, q, qd);
    const Eigen::VectorXd q2 = q + 0.5 * h * qd, v2 = qd + 0.5 * h * a1;
    const auto a2 = acceleration(t + 0.5 * h, q2, v2);
    const Eigen::VectorXd q3 = q + 0.5 * h * v2, v3 = qd + 0.5 * h * a2;
    const auto a3 = acceleration(t + 0.5 * h, q3, v3);
    const Eigen::VectorXd q4 = q + h * v3, v4 = qd + h * a3;
    const auto a4 = acceleration(t + h, q4, v4);
    q += h / 6.0 * (qd + 2.0 * v2 + 2.0 * v3 + v4);
    qd += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
  }

  // Trajectory sampled every `every` steps of size h, from t = 0 (rows: q then q').
  std::vector<Eigen::VectorXd> run(Eigen::VectorXd q, Eigen::VectorXd qd, double h, long steps, long every) const {
    std::vector<Eigen::VectorXd> out;
    auto record = [&] {
      Eigen::VectorXd row(q.size() + qd.size());
      row << q, qd;
      out.push_back(row);
    };
    record();
    for (long k = 0; k < steps; ++k) {
      rk4(double(k) * h, h, q, qd);
      if ((k + 1) % every == 0) record();
    }
    return out;
  }
};

}  // namespace varsim::test

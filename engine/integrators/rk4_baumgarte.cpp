// RK4 + Baumgarte baseline (see rk4_baumgarte.h).
#include "engine/integrators/rk4_baumgarte.h"

#include <cmath>

#include "engine/sim/errors.h"

namespace varsim {

Rk4Baumgarte::Rk4Baumgarte(const ConstrainedModel& model, BaumgarteConfig config)
    : model_(model), config_(config), jacobian_(model), minv_(model.massDiagonal().cwiseInverse()) {}

void Rk4Baumgarte::acceleration(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t, Eigen::VectorXd& a) {
  model_.appliedForce(q, v, t, f_);
  if (jacobian_.rows() == 0) {
    a = minv_.cwiseProduct(f_);
    return;
  }
  jacobian_.evaluate(q, t);
  jacobian_.curvature(q, v, t, c_);
  const SparseMatrixD& J = jacobian_.matrix();
  const SparseMatrixD S = J * minv_.asDiagonal() * J.transpose();
  if (S.nonZeros() != analysedNnz_) {
    schur_.analyzePattern(S);
    analysedNnz_ = S.nonZeros();
  }
  schur_.factorize(S);
  const Eigen::VectorXd Jv = J * v;
  const double twoZetaOmega = 2.0 * config_.zeta * config_.omega, omega2 = config_.omega * config_.omega;
  rhs_ = -(J * minv_.cwiseProduct(f_)) - c_;
  for (int r = 0; r < jacobian_.rows(); ++r) {
    if (jacobian_.holonomicRow(r)) rhs_[r] -= twoZetaOmega * Jv[r] + omega2 * jacobian_.value()[r];
    else rhs_[r] -= twoZetaOmega * (Jv[r] - jacobian_.value()[r]);
  }
  const Eigen::VectorXd lambda = schur_.solve(rhs_);
  const double dMin = schur_.info() == Eigen::Success ? schur_.vectorD().minCoeff() : 0.0;
  if (!(dMin > 1e-13 * schur_.vectorD().cwiseAbs().maxCoeff()) || !lambda.allFinite())
    throw SimulationDiverged("RK4-Baumgarte step " + std::to_string(step_ + 1) +
                             ": constraint matrix J M^-1 J^T is singular (redundant or degenerate constraints)");
  a = minv_.cwiseProduct(f_ + J.transpose() * lambda);
}

void Rk4Baumgarte::step(MechanicalState& s, double h) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("RK4-Baumgarte: step size h must be > 0");
  step_ = s.step;
  Eigen::VectorXd a1, a2, a3, a4;
  const Eigen::VectorXd& q = s.q;
  const Eigen::VectorXd& v = s.v;
  acceleration(q, v, s.t, a1);
  const Eigen::VectorXd v2 = v + 0.5 * h * a1;
  acceleration(q + 0.5 * h * v, v2, s.t + 0.5 * h, a2);
  const Eigen::VectorXd v3 = v + 0.5 * h * a2;
  acceleration(q + 0.5 * h * v2, v3, s.t + 0.5 * h, a3);
  const Eigen::VectorXd v4 = v + h * a3;
  acceleration(q + h * v3, v4, s.t + h, a4);
  MechanicalState next{q + (h / 6.0) * (v + 2.0 * v2 + 2.0 * v3 + v4), v + (h / 6.0) * (a1 + 2.0 * a2 + 2.0 * a3 + a4),
                       s.t + h, s.step + 1};
  checkDivergence(model_, next, config_.limits, "RK4-Baumgarte");
  commitState(s, next);
}

}  // namespace varsim

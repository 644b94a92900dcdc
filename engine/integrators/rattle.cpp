// SHAKE/RATTLE baseline with Newton on the position constraints (see rattle.h).
#include "engine/integrators/rattle.h"

#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"

namespace varsim {

Rattle::Rattle(const ConstrainedModel& model, RattleConfig config)
    : model_(model), config_(config), atStart_(model), atEnd_(model), minv_(model.massDiagonal().cwiseInverse()) {
  if (model.hasNonholonomic()) throw BadInput("RATTLE handles holonomic constraints only; use spook or rk4_baumgarte");
}

void Rattle::fail(const MechanicalState& s, const std::string& what) const {
  char t[32];
  std::snprintf(t, sizeof t, "%.6g", s.t + 0.0);
  throw SimulationDiverged("RATTLE step " + std::to_string(s.step + 1) + " (t=" + t + "): " + what);
}

// One RATTLE step of size h from s into next; false (with why) when the position Newton does not converge, its
// matrix is singular or the residual is not finite: the caller retries the interval in sub-steps.
bool Rattle::tryStep(const MechanicalState& s, double h, MechanicalState& next, std::string& why) {
  model_.appliedForce(s.q, s.v, s.t, f_);
  atStart_.evaluate(s.q, s.t);
  const SparseMatrixD& G0 = atStart_.matrix();
  const Eigen::VectorXd qFree = s.q + h * s.v + (0.5 * h * h) * minv_.cwiseProduct(f_);
  const SparseMatrixD MinvG0t = minv_.asDiagonal() * SparseMatrixD(G0.transpose());
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(G0.rows()), q1 = qFree;
  // Newton on g(q_free + (h²/2) M⁻¹G_0ᵀ λ) = 0.
  int it = 0;
  double gMax = 0.0;
  for (;; ++it) {
    atEnd_.evaluate(q1, s.t + h);
    gMax = atEnd_.value().size() ? atEnd_.value().lpNorm<Eigen::Infinity>() : 0.0;
    if (!std::isfinite(gMax)) return why = "position constraint residual is not finite", false;
    if (gMax <= config_.tolerance) break;
    if (it >= config_.maxNewton) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.3g", gMax);
      why = "Newton on the position constraints did not converge in " + std::to_string(it) + " iterations (max |g| = " +
            buf + ")";
      return false;
    }
    const SparseMatrixD K = (0.5 * h * h) * (atEnd_.matrix() * MinvG0t);
    if (K.nonZeros() != newtonNnz_) {
      newton_.analyzePattern(K);
      newtonNnz_ = K.nonZeros();
    }
    newton_.factorize(K);
    if (newton_.info() != Eigen::Success) return why = "singular Newton matrix G(q1) M^-1 G(q0)^T", false;
    lambda -= newton_.solve(atEnd_.value());
    q1 = qFree + (0.5 * h * h) * (MinvG0t * lambda);
  }
  lastIterations_ += it;
  const Eigen::VectorXd vHalf = s.v + (0.5 * h) * minv_.cwiseProduct(f_ + G0.transpose() * lambda);
  // Velocity projection: G_1 v_{k+1} = 0 with v_{k+1} = v_½ + (h/2)M⁻¹(f_1 + G_1ᵀμ).
  Eigen::VectorXd f1;
  model_.appliedForce(q1, vHalf, s.t + h, f1);
  const SparseMatrixD& G1 = atEnd_.matrix();
  Eigen::VectorXd v1 = vHalf + (0.5 * h) * minv_.cwiseProduct(f1);
  if (G1.rows() > 0) {
    const SparseMatrixD S = G1 * minv_.asDiagonal() * G1.transpose();
    if (S.nonZeros() != projectionNnz_) {
      projection_.analyzePattern(S);
      projectionNnz_ = S.nonZeros();
    }
    projection_.factorize(S);
    if (projection_.info() != Eigen::Success) return why = "singular velocity projection G M^-1 G^T", false;
    const Eigen::VectorXd mu = projection_.solve(-(G1 * v1));
    v1 += minv_.cwiseProduct(G1.transpose() * mu);
  }
  next = MechanicalState{q1, v1, s.t + h, s.step + 1};
  return true;
}

void Rattle::step(MechanicalState& s, double h) {
  if (!(h > 0) || !std::isfinite(h)) throw BadInput("RATTLE: step size h must be > 0");
  lastIterations_ = 0;
  lastSubsteps_ = 1;
  MechanicalState next;
  std::string why;
  if (!tryStep(s, h, next, why)) {
    // The sub-step retry (as FloatingStepper::stepLgvi and the tree): when the rods turn by about a radian in one step
    // the line q_free + (h²/2) M⁻¹G_0ᵀλ misses the constraint manifold (the director row u·u = 1 has no solution
    // once the turn h|u̇| leaves the unit sphere behind), so the same interval runs in 2^j equal RATTLE steps,
    // each symplectic, j = 1..kMaxSubstepLevel. The plain path is untouched.
    bool ok = false;
    for (int j = 1; j <= kMaxSubstepLevel && !ok; ++j) {
      const int n = 1 << j;
      const double hs = h / n;
      lastIterations_ = 0;
      MechanicalState sub = s;
      ok = true;
      for (int i = 0; i < n && ok; ++i) ok = tryStep(sub, hs, sub, why);
      if (ok) next = MechanicalState{sub.q, sub.v, s.t + h, s.step + 1}, lastSubsteps_ = n;
    }
    if (!ok) fail(s, why + ", also in " + std::to_string(1 << kMaxSubstepLevel) + " sub-steps");
  }
  checkDivergence(model_, next, config_.limits, "RATTLE");
  commitState(s, next);
}

}  // namespace varsim

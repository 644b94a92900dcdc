// tests/nlp_fd_check.h — central finite-difference checks of an engine Nlp's exact first derivatives (the DMOC
// transcriptions, engine/control/*_dmoc.h): worst relative error of the constraint Jacobian and the cost gradient.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/control/nlp.h"

namespace varsim::test {

// Relative agreement of two numbers at the scale of the pair (and of 1, for entries that vanish).
inline double relErr(double a, double b) { return std::abs(a - b) / std::max({1.0, std::abs(a), std::abs(b)}); }

struct NlpFdErrors {
  double jacobian = 0.0, gradient = 0.0;
};

// Central differences with step e in every variable against jacobian() and gradient() at x.
inline NlpFdErrors nlpFdErrors(const Nlp& nlp, const Eigen::VectorXd& x, double e = 1e-6) {
  std::vector<Eigen::Triplet<double>> t;
  nlp.jacobian(x, t);
  Eigen::SparseMatrix<double> J(nlp.numConstraints(), nlp.numVariables());
  J.setFromTriplets(t.begin(), t.end());
  const Eigen::MatrixXd Jd = J;
  const Eigen::VectorXd grad = nlp.gradient(x);
  NlpFdErrors worst;
  for (int j = 0; j < nlp.numVariables(); ++j) {
    Eigen::VectorXd xp = x, xm = x;
    xp[j] += e, xm[j] -= e;
    const Eigen::VectorXd fd = (nlp.constraints(xp) - nlp.constraints(xm)) / (2.0 * e);
    for (int i = 0; i < nlp.numConstraints(); ++i) worst.jacobian = std::max(worst.jacobian, relErr(Jd(i, j), fd[i]));
    worst.gradient = std::max(worst.gradient, relErr(grad[j], (nlp.objective(xp) - nlp.objective(xm)) / (2.0 * e)));
  }
  return worst;
}

// True if jacobian() lists the same (row, col) pattern at x and y (Ipopt takes the structure once).
inline bool sameJacobianPattern(const Nlp& nlp, const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  std::vector<Eigen::Triplet<double>> a, b;
  nlp.jacobian(x, a);
  nlp.jacobian(y, b);
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].row() != b[i].row() || a[i].col() != b[i].col()) return false;
  return true;
}

}  // namespace varsim::test

namespace varsim::test {

// Worst relative error of nlp.hessian(x, sigma, lambda) (lower triangle, summed, mirrored) against central
// differences of the exact Lagrangian gradient sigma grad f + J^T lambda; `samePattern` reports whether the
// Hessian's (row, col) list at x equals the one at nlp.initialGuess() with lambda = 0 (Ipopt takes it once) and
// every entry lies in the lower triangle. fourthOrder: the 4-point stencil (8 (g(x+e) - g(x-e)) - g(x+2e) + g(x-2e))
// / (12 e), for rows whose third derivatives are large (a waterline clipped against a wave grid); columns
// [first, last) only (last < 0: all).
inline double nlpHessianFdError(const Nlp& nlp, const Eigen::VectorXd& x, double sigma, const Eigen::VectorXd& lambda,
                                bool* samePattern = nullptr, double e = 1e-6, bool fourthOrder = false,
                                int first = 0, int last = -1) {
  const int n = nlp.numVariables(), m = nlp.numConstraints();
  auto lagrangianGradient = [&](const Eigen::VectorXd& y) {
    std::vector<Eigen::Triplet<double>> t;
    nlp.jacobian(y, t);
    Eigen::SparseMatrix<double> J(m, n);
    J.setFromTriplets(t.begin(), t.end());
    return Eigen::VectorXd(sigma * nlp.gradient(y) + J.transpose() * lambda);
  };
  std::vector<Eigen::Triplet<double>> t, t0;
  nlp.hessian(x, sigma, lambda, t);
  nlp.hessian(nlp.initialGuess(), 1.0, Eigen::VectorXd::Zero(m), t0);
  bool same = t.size() == t0.size();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, n);
  for (size_t i = 0; i < t.size(); ++i) {
    same = same && t[i].row() >= t[i].col() && t[i].row() == t0[i].row() && t[i].col() == t0[i].col();
    H(t[i].row(), t[i].col()) += t[i].value();
    if (t[i].row() != t[i].col()) H(t[i].col(), t[i].row()) += t[i].value();
  }
  if (samePattern) *samePattern = same;
  double worst = 0.0;
  for (int j = first; j < (last < 0 ? n : last); ++j) {
    const auto difference = [&](double step) {
      Eigen::VectorXd xp = x, xm = x;
      xp[j] += step, xm[j] -= step;
      return Eigen::VectorXd(lagrangianGradient(xp) - lagrangianGradient(xm));
    };
    const Eigen::VectorXd fd = fourthOrder ? Eigen::VectorXd((8.0 * difference(e) - difference(2.0 * e)) / (12.0 * e))
                                           : Eigen::VectorXd(difference(e) / (2.0 * e));
    for (int i = 0; i < n; ++i) worst = std::max(worst, relErr(H(i, j), fd[i]));
  }
  return worst;
}

}  // namespace varsim::test

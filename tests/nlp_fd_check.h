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

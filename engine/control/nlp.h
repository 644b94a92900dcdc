// engine/control/nlp.h — a nonlinear program min f(x) s.t. gL <= g(x) <= gU, xL <= x <= xU as the DMOC
// transcriptions present it to a solver (plan/ipopt_solver.h adapts it to Ipopt's TNLP). Pure Eigen, so the
// transcription and its derivative tests live in engine/ without the solver.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

namespace varsim {

constexpr double kNlpInfinity = 1e19;  // |bound| >= this means "no bound" (Ipopt's nlp_*_bound_inf default)

class Nlp {
 public:
  virtual ~Nlp() = default;
  virtual int numVariables() const = 0;
  virtual int numConstraints() const = 0;
  virtual void bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const = 0;
  virtual Eigen::VectorXd initialGuess() const = 0;
  virtual double objective(const Eigen::VectorXd& x) const = 0;
  virtual Eigen::VectorXd gradient(const Eigen::VectorXd& x) const = 0;
  virtual Eigen::VectorXd constraints(const Eigen::VectorXd& x) const = 0;
  // Exact first derivatives dg/dx as triplets in an order and pattern that do not depend on x (entries that
  // happen to vanish are still listed), so a solver can take the structure from any one call.
  virtual void jacobian(const Eigen::VectorXd& x, std::vector<Eigen::Triplet<double>>& out) const = 0;

  // Optional exact Hessian of the Lagrangian  objFactor * d2f/dx2 + sum_i lambda_i d2g_i/dx2  (lambda has
  // numConstraints() entries): lower triangle only (row >= col), triplets in an order and pattern that depend
  // on neither x, objFactor nor lambda; repeated (row, col) entries are summed. A solver uses it when
  // hasHessian() is true and falls back to a limited-memory approximation otherwise.
  virtual bool hasHessian() const { return false; }
  virtual void hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
                       std::vector<Eigen::Triplet<double>>& out) const {
    (void)x, (void)objFactor, (void)lambda;
    out.clear();
  }
};

}  // namespace varsim

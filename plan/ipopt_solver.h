// plan/ipopt_solver.h — solves an engine Nlp (engine/control/nlp.h) with Ipopt (Debian coinor-libipopt-dev,
// its C++ TNLP interface, MUMPS as shipped, limited-memory Hessian). The only place that includes Ipopt: the
// engine stays Eigen + SuiteSparse; scenes and ui use this layer.
#pragma once

#include <functional>
#include <string>

#include "engine/control/nlp.h"

namespace varsim {

struct IpoptSettings {
  int maxIterations = 500;      // Ipopt max_iter, >= 1
  double tolerance = 1e-5;      // Ipopt tol (scaled NLP error; the L-BFGS Hessian converges slowly below)
  double constraintTol = 1e-10; // Ipopt constr_viol_tol: the dynamics residual the plan must reach
};

struct IpoptIteration {
  int iteration;
  double objective, primalInfeasibility, dualInfeasibility;
};

struct IpoptResult {
  bool solved = false;     // Solve_Succeeded or Solved_To_Acceptable_Level
  std::string status;      // Ipopt's ApplicationReturnStatus, named ("Infeasible_Problem_Detected", ...)
  int iterations = 0;
  double objective = 0.0;
  Eigen::VectorXd x;       // the last iterate
};

// `onIteration` (optional) sees every Ipopt iteration; returning false stops the solve (user cancel).
IpoptResult solveWithIpopt(const Nlp& nlp, const IpoptSettings& settings,
                           const std::function<bool(const IpoptIteration&)>& onIteration = {});

}  // namespace varsim

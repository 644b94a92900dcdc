// plan/ipopt_solver.cpp — Ipopt TNLP adapter over an engine Nlp: dense vectors in, triplet Jacobian with the
// structure taken from the initial guess (the Nlp promises an x-independent pattern), the Nlp's exact Hessian
// (lower triangle, same promise) or L-BFGS, and the current iterate handed to the iteration callback.
#include "plan/ipopt_solver.h"

#include <algorithm>

#include <IpIpoptApplication.hpp>
#include <IpIpoptCalculatedQuantities.hpp>
#include <IpIpoptData.hpp>
#include <IpOrigIpoptNLP.hpp>
#include <IpTNLP.hpp>
#include <IpTNLPAdapter.hpp>
#include <IpTimingStatistics.hpp>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "plan/ipopt_clock.h"
#include "plan/kkt_order_cache.h"
#include "plan/ma27_bridge.h"

namespace varsim {
namespace {

using Ipopt::Index;
using Ipopt::Number;

const char* statusName(Ipopt::ApplicationReturnStatus s) {
  switch (s) {
    case Ipopt::Solve_Succeeded: return "Solve_Succeeded";
    case Ipopt::Solved_To_Acceptable_Level: return "Solved_To_Acceptable_Level";
    case Ipopt::Infeasible_Problem_Detected: return "Infeasible_Problem_Detected";
    case Ipopt::Search_Direction_Becomes_Too_Small: return "Search_Direction_Becomes_Too_Small";
    case Ipopt::Diverging_Iterates: return "Diverging_Iterates";
    case Ipopt::User_Requested_Stop: return "User_Requested_Stop";
    case Ipopt::Feasible_Point_Found: return "Feasible_Point_Found";
    case Ipopt::Maximum_Iterations_Exceeded: return "Maximum_Iterations_Exceeded";
    case Ipopt::Restoration_Failed: return "Restoration_Failed";
    case Ipopt::Error_In_Step_Computation: return "Error_In_Step_Computation";
    case Ipopt::Maximum_CpuTime_Exceeded: return "Maximum_CpuTime_Exceeded";
    case Ipopt::Not_Enough_Degrees_Of_Freedom: return "Not_Enough_Degrees_Of_Freedom";
    case Ipopt::Invalid_Problem_Definition: return "Invalid_Problem_Definition";
    case Ipopt::Invalid_Option: return "Invalid_Option";
    case Ipopt::Invalid_Number_Detected: return "Invalid_Number_Detected";
    case Ipopt::Unrecoverable_Exception: return "Unrecoverable_Exception";
    case Ipopt::NonIpopt_Exception_Thrown: return "NonIpopt_Exception_Thrown";
    case Ipopt::Insufficient_Memory: return "Insufficient_Memory";
    case Ipopt::Internal_Error: return "Internal_Error";
  }
  return "unknown_status";
}

// The previous solve to warm-start from, if it fits this Nlp (same numbers of variables and constraints).
const IpoptResult* warm(const IpoptSettings& s, const Nlp& nlp) {
  const IpoptResult* w = s.warmStart;
  if (!w || w->x.size() != nlp.numVariables() || w->lambda.size() != nlp.numConstraints() ||
      w->zL.size() != nlp.numVariables() || w->zU.size() != nlp.numVariables())
    return nullptr;
  return w;
}

// The Jacobian's and Hessian's triplet structure at the initial guess (the pattern is x-independent, Nlp's promise).
NlpStructure structureOf(const Nlp& nlp) {
  NlpStructure s;
  s.variables = nlp.numVariables();
  s.constraints = nlp.numConstraints();
  const Eigen::VectorXd x0 = nlp.initialGuess();
  std::vector<Eigen::Triplet<double>> t;
  nlp.jacobian(x0, t);
  for (const auto& e : t) s.jacobianRows.push_back(e.row()), s.jacobianCols.push_back(e.col());
  if (nlp.hasHessian()) {
    t.clear();
    nlp.hessian(x0, 1.0, Eigen::VectorXd::Zero(nlp.numConstraints()), t);
    for (const auto& e : t) s.hessianRows.push_back(e.row()), s.hessianCols.push_back(e.col());
  }
  return s;
}

class Adapter : public Ipopt::TNLP {
 public:
  Adapter(const Nlp& nlp, const IpoptSettings& settings, const std::function<bool(const IpoptIteration&)>& cb,
          IpoptResult& result)
      : nlp_(nlp), settings_(settings), cb_(cb), result_(result) {
    NlpStructure* cached = settings_.structure;
    structure_ = cached ? cached : &own_;
    if (structure_->variables != nlp_.numVariables() || structure_->constraints != nlp_.numConstraints())
      *structure_ = structureOf(nlp_);
    nnz_ = Index(structure_->jacobianRows.size());
    nnzHess_ = Index(structure_->hessianRows.size());
  }

  bool get_nlp_info(Index& n, Index& m, Index& nnzJac, Index& nnzHess, IndexStyleEnum& style) override {
    n = nlp_.numVariables();
    m = nlp_.numConstraints();
    nnzJac = nnz_;
    nnzHess = nnzHess_;
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    Eigen::VectorXd xL, xU, gL, gU;
    nlp_.bounds(xL, xU, gL, gU);
    Eigen::Map<Eigen::VectorXd>(xl, n) = xL;
    Eigen::Map<Eigen::VectorXd>(xu, n) = xU;
    Eigen::Map<Eigen::VectorXd>(gl, m) = gL;
    Eigen::Map<Eigen::VectorXd>(gu, m) = gU;
    return true;
  }
  bool get_starting_point(Index n, bool initX, Number* x, bool initZ, Number* zL, Number* zU, Index m, bool initLambda,
                          Number* lambda) override {
    const IpoptResult* w = warm(settings_, nlp_);
    if (initX) Eigen::Map<Eigen::VectorXd>(x, n) = w ? w->x : nlp_.initialGuess();
    if (initZ && w) Eigen::Map<Eigen::VectorXd>(zL, n) = w->zL, Eigen::Map<Eigen::VectorXd>(zU, n) = w->zU;
    if (initLambda && w) Eigen::Map<Eigen::VectorXd>(lambda, m) = w->lambda;
    return !(initZ || initLambda) || w;
  }
  // Evaluation errors (a step the update refuses, e.g. a non-positive wheel inertia) make Ipopt backtrack.
  bool eval_f(Index n, const Number* x, bool, Number& f) override {
    return guard([&] { f = nlp_.objective(vec(x, n)); });
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* g) override {
    return guard([&] { Eigen::Map<Eigen::VectorXd>(g, n) = nlp_.gradient(vec(x, n)); });
  }
  bool eval_g(Index n, const Number* x, bool, Index m, Number* g) override {
    return guard([&] { Eigen::Map<Eigen::VectorXd>(g, m) = nlp_.constraints(vec(x, n)); });
  }
  bool eval_jac_g(Index n, const Number* x, bool, Index, Index nele, Index* iRow, Index* jCol, Number* values) override {
    if (!values) return copyStructure(structure_->jacobianRows, structure_->jacobianCols, nele, iRow, jCol);
    return guard([&] {
      std::vector<Eigen::Triplet<double>> t;
      nlp_.jacobian(x ? vec(x, n) : nlp_.initialGuess(), t);
      for (Index i = 0; i < nele; ++i) values[i] = t[size_t(i)].value();
    });
  }
  bool eval_h(Index n, const Number* x, bool, Number objFactor, Index m, const Number* lambda, bool, Index nele,
              Index* iRow, Index* jCol, Number* values) override {
    if (!values) return copyStructure(structure_->hessianRows, structure_->hessianCols, nele, iRow, jCol);
    return guard([&] {
      std::vector<Eigen::Triplet<double>> t;
      const Eigen::VectorXd l = lambda ? vec(lambda, m) : Eigen::VectorXd::Zero(m);
      nlp_.hessian(x ? vec(x, n) : nlp_.initialGuess(), objFactor, l, t);
      for (Index i = 0; i < nele; ++i) values[i] = t[size_t(i)].value();
    });
  }
  bool intermediate_callback(Ipopt::AlgorithmMode mode, Index iter, Number obj, Number infPr, Number infDu, Number,
                             Number, Number, Number, Number, Index, const Ipopt::IpoptData* data,
                             Ipopt::IpoptCalculatedQuantities* cq) override {
    result_.iterations = iter;
    if (settings_.cancel && settings_.cancel->load()) {
      cancelled_ = true;
      return false;
    }
    IpoptIteration it{iter, obj, infPr, infDu, nullptr};
    if (cb_ && mode == Ipopt::RegularMode && currentIterate(data, cq)) it.x = &iterate_;
    const bool go = !cb_ || cb_(it);  // the caller sees every iteration, the last one too
    // A cancel that arrived while the callback ran (the app's plan job answers it with false) is a cancel too.
    if (!go && settings_.cancel && settings_.cancel->load()) cancelled_ = true;
    if (settings_.maxDualInfeasibility > 0.0 && !(infDu <= settings_.maxDualInfeasibility)) {
      diverged_ = true;
      return false;
    }
    return go;
  }
  bool cancelled() const { return cancelled_; }
  bool diverged() const { return diverged_; }
  void finalize_solution(Ipopt::SolverReturn, Index n, const Number* x, const Number* zL, const Number* zU, Index m,
                         const Number*, const Number* lambda, Number obj, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    result_.x = vec(x, n);
    result_.zL = vec(zL, n);
    result_.zU = vec(zU, n);
    result_.lambda = vec(lambda, m);
    result_.objective = obj;
  }

 private:
  static Eigen::VectorXd vec(const Number* x, Index n) { return Eigen::Map<const Eigen::VectorXd>(x, n); }
  static bool copyStructure(const std::vector<int>& rows, const std::vector<int>& cols, Index nele, Index* iRow,
                            Index* jCol) {
    if (size_t(nele) != rows.size()) return false;
    std::copy(rows.begin(), rows.end(), iRow);
    std::copy(cols.begin(), cols.end(), jCol);
    return true;
  }
  // Ipopt 3.11 has no get_curr_iterate: the iterate lives in the adapter's reduced space (fixed variables
  // removed), which TNLPAdapter::ResortX maps back to the TNLP's order (fixed values filled in).
  bool currentIterate(const Ipopt::IpoptData* data, Ipopt::IpoptCalculatedQuantities* cq) {
    if (!data || !cq || !IsValid(data->curr())) return false;
    auto* orig = dynamic_cast<Ipopt::OrigIpoptNLP*>(Ipopt::GetRawPtr(cq->GetIpoptNLP()));
    if (!orig) return false;
    auto* adapter = dynamic_cast<Ipopt::TNLPAdapter*>(Ipopt::GetRawPtr(orig->nlp()));
    if (!adapter) return false;
    iterate_.resize(nlp_.numVariables());
    adapter->ResortX(*data->curr()->x(), iterate_.data());
    return true;
  }
  template <class F>
  static bool guard(F f) {
    try {
      f();
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }
  const Nlp& nlp_;
  const IpoptSettings& settings_;
  const std::function<bool(const IpoptIteration&)>& cb_;
  IpoptResult& result_;
  NlpStructure own_;                 // the structure when the caller keeps none
  NlpStructure* structure_ = nullptr;
  Index nnz_ = 0, nnzHess_ = 0;
  Eigen::VectorXd iterate_;
  bool cancelled_ = false, diverged_ = false;
};

// settings.options by the option's registered type; false: an unknown option or a value that does not parse.
bool setOptions(Ipopt::IpoptApplication& app, const IpoptSettings& settings) {
  for (const auto& [name, value] : settings.options) {
    const Ipopt::SmartPtr<const Ipopt::RegisteredOption> option = app.RegOptions()->GetOption(name);
    if (!IsValid(option)) return false;
    try {
      // Checked against the registered option first: Ipopt itself would print its refusal on stdout.
      size_t used = value.size();
      bool ok = true;
      if (option->Type() == Ipopt::OT_Number) {
        const double v = std::stod(value, &used);
        ok = option->IsValidNumberSetting(v) && app.Options()->SetNumericValue(name, v);
      } else if (option->Type() == Ipopt::OT_Integer) {
        const int v = std::stoi(value, &used);
        ok = option->IsValidIntegerSetting(v) && app.Options()->SetIntegerValue(name, v);
      } else {
        ok = option->IsValidStringSetting(value) && app.Options()->SetStringValue(name, value);
      }
      if (!ok || used != value.size()) return false;
    } catch (const std::exception&) {
      return false;
    }
  }
  return true;
}

// Ipopt's timing statistics of the solve just run (its task timers; the evaluation timers live in the NLP).
IpoptProfile profileOf(Ipopt::IpoptApplication& app) {
  IpoptProfile p;
  if (!IsValid(app.IpoptDataObject())) return p;
  Ipopt::TimingStatistics& t = app.IpoptDataObject()->TimingStats();
  p.total = t.OverallAlgorithm().TotalCpuTime();
  // Ipopt 3.11 times MUMPS's numerical factorisation in no timer of its own: it is the linear solves' total less
  // the back-solves and the symbolic analysis.
  p.factorization = t.StdAugSystemSolverMultiSolve().TotalCpuTime() - t.LinearSystemBackSolve().TotalCpuTime() -
                    t.LinearSystemSymbolicFactorization().TotalCpuTime() - t.LinearSystemStructureConverter().TotalCpuTime();
  p.backsolve = t.LinearSystemBackSolve().TotalCpuTime();
  p.symbolic = t.LinearSystemSymbolicFactorization().TotalCpuTime() + t.LinearSystemStructureConverter().TotalCpuTime();
  if (auto* nlp = dynamic_cast<Ipopt::OrigIpoptNLP*>(Ipopt::GetRawPtr(app.IpoptNLPObject()))) {
    p.functions = nlp->f_eval_time().TotalCpuTime() + nlp->grad_f_eval_time().TotalCpuTime() +
                  nlp->c_eval_time().TotalCpuTime() + nlp->d_eval_time().TotalCpuTime();
    p.jacobian = nlp->jac_c_eval_time().TotalCpuTime() + nlp->jac_d_eval_time().TotalCpuTime();
    p.hessian = nlp->h_eval_time().TotalCpuTime();
  }
  return p;
}

// Ipopt's linear solver options for `settings.kktSolver` (MUMPS's ordering and scaling, or the LDL^T bridge).
void setLinearSolver(Ipopt::IpoptApplication& app, const IpoptSettings& settings) {
  app.Options()->SetIntegerValue("mumps_pivot_order", settings.mumpsPivotOrder);
  app.Options()->SetIntegerValue("mumps_scaling", settings.mumpsScaling);
  if (settings.kktSolver != KktSolver::Ldl) return;
  registerKktLdlAsMa27();
  app.Options()->SetStringValue("linear_solver", "ma27");
  // The bridge's analysis asks for exactly the storage its factor takes (Ipopt's default allocates 5 times it).
  app.Options()->SetNumericValue("ma27_la_init_factor", 1.0);
  app.Options()->SetNumericValue("ma27_liw_init_factor", 1.0);
}

// The order cache of the LDL^T bridge: the one kept with the caller's structure (later solves start from its orders),
// else `own`, this solve's (its factorisations share L's row patterns; the orders are the same as without a cache).
// Null with MUMPS.
kkt::OrderCache* kktOrders(const IpoptSettings& settings, kkt::OrderCache& own) {
  if (settings.kktSolver != KktSolver::Ldl) return nullptr;
  if (!settings.structure) return &own;
  if (!settings.structure->kktOrders) settings.structure->kktOrders = std::make_shared<kkt::OrderCache>();
  return settings.structure->kktOrders.get();
}

}  // namespace

struct KeptIpoptApplication {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app;
};

namespace {

// The application of settings.structure with its options cleared (made there by the first solve), else a new one.
Ipopt::SmartPtr<Ipopt::IpoptApplication> applicationFor(const IpoptSettings& settings) {
  if (!settings.structure) return IpoptApplicationFactory();
  std::shared_ptr<KeptIpoptApplication>& kept = settings.structure->application;
  if (!kept) kept = std::make_shared<KeptIpoptApplication>(KeptIpoptApplication{IpoptApplicationFactory()});
  else kept->app->Options()->clear();
  return kept->app;
}

}  // namespace

const char* kktSolverName(KktSolver s) { return s == KktSolver::Ldl ? "ldl" : "mumps"; }

bool parseKktSolver(const std::string& name, KktSolver& out) {
  if (name != "ldl" && name != "mumps") return false;
  out = name == "ldl" ? KktSolver::Ldl : KktSolver::Mumps;
  return true;
}

KktSolver kktSolverArg(const std::string& what, const std::string& name) {
  KktSolver out{};
  if (!parseKktSolver(name, out)) throw BadInput(what + "'" + shortText(name) + "': allowed ldl, mumps");
  return out;
}

IpoptResult solveWithIpopt(const Nlp& nlp, const IpoptSettings& settings,
                           const std::function<bool(const IpoptIteration&)>& onIteration) {
  IpoptResult result;
  Adapter* adapter = new Adapter(nlp, settings, onIteration, result);
  Ipopt::SmartPtr<Ipopt::TNLP> tnlp = adapter;
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = applicationFor(settings);
  app->Options()->SetStringValue("sb", "yes");  // no banner on stdout
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("hessian_approximation", nlp.hasHessian() ? "exact" : "limited-memory");
  app->Options()->SetIntegerValue("max_iter", settings.maxIterations);
  if (settings.maxCpuSeconds > 0.0) app->Options()->SetNumericValue("max_cpu_time", settings.maxCpuSeconds);
  app->Options()->SetNumericValue("tol", settings.tolerance);
  app->Options()->SetNumericValue("constr_viol_tol", settings.constraintTol);
  // An "acceptable" stop must still satisfy the dynamics as tightly (Ipopt's default would accept 1e-2).
  app->Options()->SetNumericValue("acceptable_constr_viol_tol", settings.constraintTol);
  app->Options()->SetNumericValue("bound_relax_factor", 0.0);  // bounds hold exactly (steering limit, rest)
  app->Options()->SetStringValue("mu_strategy", "adaptive");
  setLinearSolver(*app, settings);
  if (warm(settings, nlp)) {  // start near the previous solution's central path, not pushed back inside the bounds
    app->Options()->SetStringValue("warm_start_init_point", "yes");
    app->Options()->SetNumericValue("warm_start_bound_push", 1e-9);
    app->Options()->SetNumericValue("warm_start_mult_bound_push", 1e-9);
    app->Options()->SetNumericValue("mu_init", 1e-6);
  }
  // No options file: an ipopt.opt in the working directory must not change a plan (same inputs, same plan).
  if (!setOptions(*app, settings) || app->Initialize("") != Ipopt::Solve_Succeeded) {
    result.status = "Invalid_Option";
    return result;
  }
  kkt::OrderCache ownOrders;
  const kkt::ActiveOrderCache orders(kktOrders(settings, ownOrders));
  const IpoptClockScope clocks(settings.profile || settings.maxCpuSeconds > 0.0);
  const Ipopt::ApplicationReturnStatus s = app->OptimizeTNLP(tnlp);
  result.status = adapter->cancelled()    ? "cancelled"
                  : adapter->diverged()   ? "Diverging_Multipliers"
                                          : statusName(s);
  result.solved = s == Ipopt::Solve_Succeeded || s == Ipopt::Solved_To_Acceptable_Level;
  if (result.x.size() == 0) result.x = nlp.initialGuess();
  if (settings.profile) result.profile = profileOf(*app);
  return result;
}

}  // namespace varsim

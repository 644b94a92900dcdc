// engine/control/dmoc_costs.cpp — smoothness, terminal penalty and final-time cost over any DMOC transcription,
// with their exact gradient and Hessian (all quadratic in u and x_N; the smoothness term is 1/h in h).
#include "engine/control/dmoc_costs.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"

namespace varsim {
namespace {

void requireWeight(double v, const char* key) {
  if (!std::isfinite(v) || v < 0.0)
    throw BadInput(std::string("plan: key '") + key + "' = " + formatNumber(v) + ": allowed range [0, inf)");
}

}  // namespace

DmocCosts::DmocCosts(const Nlp& base, DmocLayout layout, DmocCostOptions options)
    : base_(base), layout_(std::move(layout)), options_(options) {
  requireWeight(options_.smooth, "weight_smooth");
  requireWeight(options_.terminalWeight, "terminal_weight");
  requireWeight(options_.timeWeight, "weight_time");
  if (options_.timeWeight > 0.0 && layout_.hIndex < 0)
    throw BadInput("plan: key 'weight_time' = " + formatNumber(options_.timeWeight) +
                   ": allowed only with free_time = 1 (the final time is fixed)");
}

void DmocCosts::bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const {
  base_.bounds(xL, xU, gL, gU);
  if (options_.terminalWeight > 0.0)
    for (int i : layout_.terminal) xL[i] = -kNlpInfinity, xU[i] = kNlpInfinity;
}

double DmocCosts::smoothSum(const Eigen::VectorXd& x) const {
  double s = 0.0;
  for (int k = 0; k + 1 < layout_.N; ++k)
    for (size_t j = 0; j < layout_.controls[size_t(k)].size(); ++j) {
      const double d = x[layout_.controls[size_t(k + 1)][j]] - x[layout_.controls[size_t(k)][j]];
      s += layout_.controlWeights[Eigen::Index(j)] * d * d;
    }
  return s;
}

double DmocCosts::objective(const Eigen::VectorXd& x) const {
  double J = base_.objective(x);
  if (options_.smooth > 0.0) J += options_.smooth * smoothSum(x) / stepSize(x);
  for (size_t i = 0; options_.terminalWeight > 0.0 && i < layout_.terminal.size(); ++i) {
    const double d = x[layout_.terminal[i]] - layout_.target[Eigen::Index(i)];
    J += options_.terminalWeight * d * d;
  }
  if (options_.timeWeight > 0.0) J += options_.timeWeight * layout_.N * stepSize(x);
  return J;
}

Eigen::VectorXd DmocCosts::gradient(const Eigen::VectorXd& x) const {
  Eigen::VectorXd g = base_.gradient(x);
  const double h = stepSize(x);
  if (options_.smooth > 0.0) {
    for (int k = 0; k + 1 < layout_.N; ++k)
      for (size_t j = 0; j < layout_.controls[size_t(k)].size(); ++j) {
        const int a = layout_.controls[size_t(k)][j], b = layout_.controls[size_t(k + 1)][j];
        const double c = 2.0 * options_.smooth * layout_.controlWeights[Eigen::Index(j)] * (x[b] - x[a]) / h;
        g[a] -= c, g[b] += c;
      }
    if (layout_.hIndex >= 0) g[layout_.hIndex] -= options_.smooth * smoothSum(x) / (h * h);
  }
  for (size_t i = 0; options_.terminalWeight > 0.0 && i < layout_.terminal.size(); ++i)
    g[layout_.terminal[i]] += 2.0 * options_.terminalWeight * (x[layout_.terminal[i]] - layout_.target[Eigen::Index(i)]);
  if (options_.timeWeight > 0.0) g[layout_.hIndex] += options_.timeWeight * layout_.N;
  return g;
}

// The base's triplets, then a fixed pattern for the added terms (present whenever the option is on, so the
// pattern does not depend on x): per control pair its 2x2 block, with free h the (h, u) column and (h, h); the
// terminal diagonal. Entries are placed in the lower triangle (row >= col) whatever the layout's order.
void DmocCosts::hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
                        std::vector<Eigen::Triplet<double>>& out) const {
  base_.hessian(x, objFactor, lambda, out);
  auto add = [&](int i, int j, double v) { out.emplace_back(std::max(i, j), std::min(i, j), v); };
  const double h = stepSize(x);
  const int hi = layout_.hIndex;
  if (options_.smooth > 0.0) {
    for (int k = 0; k + 1 < layout_.N; ++k)
      for (size_t j = 0; j < layout_.controls[size_t(k)].size(); ++j) {
        const int a = layout_.controls[size_t(k)][j], b = layout_.controls[size_t(k + 1)][j];
        const double w = objFactor * 2.0 * options_.smooth * layout_.controlWeights[Eigen::Index(j)];
        add(a, a, w / h), add(b, b, w / h), add(b, a, -w / h);
        if (layout_.hIndex >= 0) {  // d/dh of the gradient above: -(.)/h^2
          const double c = w * (x[b] - x[a]) / (h * h);
          add(hi, a, c), add(hi, b, -c);
        }
      }
    if (hi >= 0) add(hi, hi, objFactor * 2.0 * options_.smooth * smoothSum(x) / (h * h * h));
  }
  for (size_t i = 0; options_.terminalWeight > 0.0 && i < layout_.terminal.size(); ++i)
    add(layout_.terminal[i], layout_.terminal[i], objFactor * 2.0 * options_.terminalWeight);
}

}  // namespace varsim

// engine/control/dmoc_costs.cpp — smoothness, terminal penalty and final-time cost over any DMOC transcription,
// with their exact gradient and Hessian (all quadratic in u and x_N; the smoothness term is 1/h^p in h).
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
  requireWeight(options_.track, "weight_track");
  if (options_.track > 0.0 && (layout_.hIndex >= 0 || layout_.tracked.empty()))
    throw BadInput("plan: key 'weight_track' = " + formatNumber(options_.track) +
                   ": allowed only with free_time = 0 and a goal to track (else 0)");
}

double DmocCosts::trackSum(const Eigen::VectorXd& x) const {
  double s = 0.0;
  for (size_t i = 0; i < layout_.tracked.size(); ++i)
    for (size_t j = 0; j < layout_.tracked[i].size(); ++j)
      s += std::pow(x[layout_.tracked[i][j]] - layout_.trackTargets[i][Eigen::Index(j)], 2);
  return s;
}

void DmocCosts::bounds(Eigen::VectorXd& xL, Eigen::VectorXd& xU, Eigen::VectorXd& gL, Eigen::VectorXd& gU) const {
  base_.bounds(xL, xU, gL, gU);
  if (options_.terminalWeight > 0.0)
    for (int i : layout_.terminal) xL[i] = -kNlpInfinity, xU[i] = kNlpInfinity;
}

double DmocCosts::stencilCoefficient(int m) const {
  static const double node[3] = {1.0, -2.0, 1.0}, control[2] = {-1.0, 1.0};
  return layout_.controlsAreNodes ? node[m] : control[m];
}

double DmocCosts::difference(const Eigen::VectorXd& x, int k, size_t j) const {
  double d = 0.0;
  for (int m = 0; m < stencilSize(); ++m) d += stencilCoefficient(m) * x[layout_.controls[size_t(k + m)][j]];
  return d;
}

double DmocCosts::smoothSum(const Eigen::VectorXd& x) const {
  double s = 0.0;
  for (int k = 0; k + 1 < layout_.N; ++k)
    for (size_t j = 0; j < layout_.controls[size_t(k)].size(); ++j) {
      const double d = difference(x, k, j);
      s += layout_.controlWeights[Eigen::Index(j)] * d * d;
    }
  return s;
}

double DmocCosts::objective(const Eigen::VectorXd& x) const {
  double J = base_.objective(x);
  if (options_.smooth > 0.0) J += options_.smooth * smoothSum(x) / powerOfStep(stepSize(x));
  for (size_t i = 0; options_.terminalWeight > 0.0 && i < layout_.terminal.size(); ++i) {
    const double d = x[layout_.terminal[i]] - layout_.target[Eigen::Index(i)];
    J += options_.terminalWeight * d * d;
  }
  if (options_.timeWeight > 0.0) J += options_.timeWeight * layout_.N * stepSize(x);
  if (options_.track > 0.0) J += options_.track * layout_.h * trackSum(x);
  return J;
}

Eigen::VectorXd DmocCosts::gradient(const Eigen::VectorXd& x) const {
  Eigen::VectorXd g = base_.gradient(x);
  const double h = stepSize(x);
  if (options_.smooth > 0.0) {
    const double hp = powerOfStep(h);
    for (int k = 0; k + 1 < layout_.N; ++k)
      for (size_t j = 0; j < layout_.controls[size_t(k)].size(); ++j) {
        const double c = 2.0 * options_.smooth * layout_.controlWeights[Eigen::Index(j)] * difference(x, k, j) / hp;
        for (int m = 0; m < stencilSize(); ++m) g[layout_.controls[size_t(k + m)][j]] += stencilCoefficient(m) * c;
      }
    if (layout_.hIndex >= 0) g[layout_.hIndex] -= smoothPower() * options_.smooth * smoothSum(x) / (hp * h);
  }
  for (size_t i = 0; options_.terminalWeight > 0.0 && i < layout_.terminal.size(); ++i)
    g[layout_.terminal[i]] += 2.0 * options_.terminalWeight * (x[layout_.terminal[i]] - layout_.target[Eigen::Index(i)]);
  if (options_.timeWeight > 0.0) g[layout_.hIndex] += options_.timeWeight * layout_.N;
  for (size_t i = 0; options_.track > 0.0 && i < layout_.tracked.size(); ++i)
    for (size_t j = 0; j < layout_.tracked[i].size(); ++j) {
      const int v = layout_.tracked[i][j];
      g[v] += 2.0 * options_.track * layout_.h * (x[v] - layout_.trackTargets[i][Eigen::Index(j)]);
    }
  return g;
}

// The base's triplets, then a fixed pattern for the added terms (present whenever the option is on, so the
// pattern does not depend on x): per stencil its 2x2 (3x3 for node values) block, with free h the (h, u) column and
// (h, h); the terminal diagonal. Entries are placed in the lower triangle (row >= col) whatever the layout's order.
void DmocCosts::hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
                        std::vector<Eigen::Triplet<double>>& out) const {
  base_.hessian(x, objFactor, lambda, out);
  auto add = [&](int i, int j, double v) { out.emplace_back(std::max(i, j), std::min(i, j), v); };
  const double h = stepSize(x);
  const int hi = layout_.hIndex;
  if (options_.smooth > 0.0) {
    const double hp = powerOfStep(h), p = smoothPower();
    const int M = stencilSize();
    for (int k = 0; k + 1 < layout_.N; ++k)
      for (size_t j = 0; j < layout_.controls[size_t(k)].size(); ++j) {
        int v[3];
        for (int m = 0; m < M; ++m) v[m] = layout_.controls[size_t(k + m)][j];
        const double w = objFactor * 2.0 * options_.smooth * layout_.controlWeights[Eigen::Index(j)];
        // The diagonal first, then below it (the car's entries in their order before the node stencil came).
        for (int m = 0; m < M; ++m) add(v[m], v[m], w * stencilCoefficient(m) * stencilCoefficient(m) / hp);
        for (int m = 0; m < M; ++m)
          for (int n = 0; n < m; ++n) add(v[m], v[n], w * stencilCoefficient(m) * stencilCoefficient(n) / hp);
        if (hi >= 0) {  // d/dh of the gradient above: -p (.) / h^(p+1)
          const double c = w * difference(x, k, j) / (hp * h);
          for (int m = 0; m < M; ++m) add(hi, v[m], -p * stencilCoefficient(m) * c);
        }
      }
    if (hi >= 0) add(hi, hi, objFactor * p * (p + 1.0) * options_.smooth * smoothSum(x) / (hp * h * h));
  }
  for (size_t i = 0; options_.terminalWeight > 0.0 && i < layout_.terminal.size(); ++i)
    add(layout_.terminal[i], layout_.terminal[i], objFactor * 2.0 * options_.terminalWeight);
  for (size_t i = 0; options_.track > 0.0 && i < layout_.tracked.size(); ++i)  // Ipopt sums repeated entries
    for (int v : layout_.tracked[i]) add(v, v, objFactor * 2.0 * options_.track * layout_.h);
}

}  // namespace varsim

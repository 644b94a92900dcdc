// scenes/marionette/marionette_strings.cpp — the active set of taut strings (see marionette_strings.h).
#include "scenes/marionette/marionette_strings.h"

#include <cmath>
#include <string>

#include "engine/sim/errors.h"
#include "engine/tree/tree_lagrangian.h"

namespace varsim {

namespace {

// A taut string pushes when its multiplier is positive: h = (|d|² - L²)/(2L) with d from the bar to the puppet, so the
// impulse G^T lambda acts along +d (away from the bar) for lambda > 0. Tolerances sit above the solver's round-off
// (impulses of 1e-16 N s, lengths of 1e-16 m) and far below anything visible.
constexpr double kPushTolerance = 1e-12, kStretchTolerance = 1e-12;

}  // namespace

SlackStrings::SlackStrings(const tree::TreeConstraints& all) : all_(all), taut_(size_t(all.count()), true) {
  rebuildActive();
}

int SlackStrings::tautCount() const {
  int n = 0;
  for (bool b : taut_) n += b;
  return n;
}

void SlackStrings::setTaut(const std::vector<bool>& taut) {
  if (taut.size() != taut_.size())
    throw BadInput("strings: " + std::to_string(taut.size()) + " taut flags for " + std::to_string(taut_.size()));
  taut_ = taut;
  rebuildActive();
}

void SlackStrings::rebuildActive() {
  index_.clear();
  for (int j = 0; j < all_.count(); ++j)
    if (taut_[size_t(j)]) index_.push_back(j);
  active_ = all_.subset(index_);
}

int SlackStrings::step(tree::TreeStepper& s, const tree::TreeForcing& f, const Eigen::VectorXd& kinNext, double h) {
  tree::Tree& t = s.tree();
  const std::vector<double> saved = s.saveState();
  const std::vector<bool> tautBefore = taut_;
  const Eigen::VectorXd k0 = t.kinematicValue(), r0 = t.kinematicRate();
  int iterations = 0;
  for (int pass = 0;; ++pass) {
    rebuildActive();  // also picks up length changes of all_
    s.setConstraints(&active_);
    s.setKinematicTarget(kinNext, h);
    try {
      s.step(f);
    } catch (...) {
      s.loadState(saved), t.setKinematic(k0, r0), taut_ = tautBefore, rebuildActive();
      throw;
    }
    iterations += s.newtonIterations();
    bool changed = false;
    const Eigen::VectorXd& lambda = s.multipliers();
    for (size_t a = 0; a < index_.size(); ++a)
      if (lambda(Eigen::Index(a)) > kPushTolerance) taut_[size_t(index_[a])] = false, changed = true;
    t.setQ(s.q());  // the tree holds k_{k+1} after the step
    const Eigen::VectorXd stretch = all_.value(t);
    for (int j = 0; j < all_.count(); ++j)
      if (!taut_[size_t(j)] && stretch(j) > kStretchTolerance) taut_[size_t(j)] = true, changed = true;
    if (!changed || pass + 1 == kMaxPasses) break;  // index_ stays the set the step was taken with
    s.loadState(saved), t.setKinematic(k0, r0);
  }
  return iterations;
}

double SlackStrings::work(const tree::TreeStepper& s, const tree::TreeConstraints& before, const Eigen::VectorXd& kin0,
                          double h) const {
  tree::Tree& t = s.tree();
  const Eigen::VectorXd k1 = t.kinematicValue(), rate = t.kinematicRate();
  t.setQ(s.q());
  const Eigen::VectorXd now = all_.value(t);
  t.setKinematic(kin0, rate);
  const Eigen::VectorXd then = before.value(t);
  t.setKinematic(k1, rate);
  return multipliers(s).dot(then - now) / h;
}

Eigen::VectorXd SlackStrings::multipliers(const tree::TreeStepper& s) const {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(all_.count());
  const Eigen::VectorXd& lambda = s.multipliers();
  if (lambda.size() != Eigen::Index(index_.size())) return out;  // before the first step
  for (size_t a = 0; a < index_.size(); ++a) out(index_[a]) = lambda(Eigen::Index(a));
  return out;
}

void SlackStrings::restoreMultipliers(tree::TreeStepper& s, const Eigen::VectorXd& perString) const {
  Eigen::VectorXd lambda(Eigen::Index(index_.size()));
  for (size_t a = 0; a < index_.size(); ++a) lambda(Eigen::Index(a)) = perString(index_[a]);
  s.setMultipliers(lambda);
}

Eigen::VectorXd SlackStrings::tangentVelocity(const tree::TreeStepper& s) const {
  tree::Tree& t = s.tree();
  const Eigen::VectorXd v0 = s.qdot();
  if (index_.empty()) return v0;
  t.setState(s.q(), v0);
  const Eigen::MatrixXd G = active_.jacobian(t);
  Eigen::VectorXd b(G.rows());
  for (int a = 0; a < active_.count(); ++a) {
    const tree::DistanceConstraint& c = active_[a];
    const Eigen::Matrix4d g = t.g(c.frameB);
    const varsim::Vector6d vb = t.vb(c.frameB);  // the bar's body velocity from the kinematic rates
    const Eigen::Vector3d barVelocity = g.topLeftCorner<3, 3>() * (vb.tail<3>() + vb.head<3>().cross(c.pointB));
    const Eigen::Vector3d d = tree::pointPosition(t, c.frameA, c.pointA) - tree::pointPosition(t, c.frameB, c.pointB);
    b(a) = d.dot(barVelocity) / c.length;
  }
  const Eigen::LDLT<Eigen::MatrixXd> M(tree::massMatrix(t));
  const Eigen::MatrixXd MinvGt = M.solve(G.transpose());
  const Eigen::VectorXd mu = (G * MinvGt).ldlt().solve(b - G * v0);
  return v0 + MinvGt * mu;
}

double SlackStrings::violation(const tree::Tree& t, double* rms) const {
  const Eigen::VectorXd v = all_.value(t);
  double worst = 0, sum = 0;
  for (int j = 0; j < all_.count(); ++j) {
    const double e = taut_[size_t(j)] ? std::abs(v(j)) : std::max(v(j), 0.0);
    worst = std::max(worst, e), sum += e * e;
  }
  if (rms) *rms = all_.count() ? std::sqrt(sum / all_.count()) : 0.0;
  return worst;
}

}  // namespace varsim

// The trapezoidal tree VI (seed 002 eq. (24), Algorithm 1) on bench_tree's curled chain (every joint 0.5 rad
// from its parent, at rest), kept small (3 links): its steps solve the DEL equations of the trapezoidal L_d
// built from the tree's own T and V by finite differences, its energy error is second order and a few times the
// midpoint VI's, its one-step map is symplectic also at large joint turns, and a step redone as two half
// steps (the sub-step retry carries the discrete momentum) differs from the whole step by O(h^3).
#include <doctest/doctest.h>

#include <cmath>

#include "engine/integrators/tree_midpoint.h"
#include "engine/integrators/tree_trapezoidal.h"
#include "engine/tree/pendulum_chain.h"
#include "engine/tree/tree_lagrangian.h"
#include "tests/tree_stepper_fixtures.h"

using namespace varsim;
using namespace varsim::tree;
using Eigen::MatrixXd;

namespace {

constexpr int kLinks = 3;
Tree curledChain() { return pendulumChain(kLinks, 1.0, 1.0 / kLinks); }
VectorXd curledPose() { return VectorXd::Constant(kLinks, 0.5); }

// max |E - E0| / (E0 - E_rest) over 2 s from the curled pose at rest (bench_tree's dE).
double curledEnergyError(bool trapezoidal, double h) {
  Tree t = curledChain();
  t.setState(VectorXd::Zero(kLinks), VectorXd::Zero(kLinks));
  const double rest = potentialEnergy(t);
  std::unique_ptr<TreeStepper> s;
  if (trapezoidal) s = std::make_unique<TreeTrapezoidal>(t);
  else s = std::make_unique<TreeMidpoint>(t, 0.5);
  const std::vector<double> e = test::energyHistory(*s, curledPose(), h, static_cast<int>(std::lround(2.0 / h)));
  return test::energyError(e, 0, e.size()) / (e[0] - rest);
}

// (q, p) -> (q, p) after `steps` trapezoidal steps of h from (q, M(q)^-1 p): initialize's discrete Legendre
// transform puts the discrete momentum at t_0 exactly at p, as the sub-step rescale keeps it.
VectorXd trapezoidalFlow(const VectorXd& x, double h, int steps) {
  Tree t = curledChain();
  const VectorXd q = x.head(kLinks), p = x.tail(kLinks);
  t.setQ(q);
  TreeTrapezoidal tr(t);
  tr.initialize(q, massMatrix(t).ldlt().solve(p), h, {});
  for (int k = 0; k < steps; ++k) tr.step({});
  CHECK(tr.substeps() == 1);
  t.setQ(tr.q());
  VectorXd y(2 * kLinks);
  y << tr.q(), massMatrix(t) * tr.qdot();
  return y;
}

// A whipping state: the curled pose with joint rates up to 12 rad/s (h |qdot| = 0.24 rad at h = 0.02).
VectorXd whipState() {
  Tree t = curledChain();
  t.setQ(curledPose());
  VectorXd x(2 * kLinks);
  x << curledPose(), massMatrix(t) * Eigen::Vector3d(3, -8, 12);
  return x;
}

}  // namespace

TEST_CASE("TrapezoidalStepsSolveTheDelOfTheTrapezoidalLd") {
  // Seed 002 eq. (21)'s source, independent of the code's e_k (24): L_d(a, b) = h/2 [L(a, v) + L(b, v)] with
  // v = (b - a)/h and L = T - V from the tree; D_2 L_d(q_{k-1}, q_k) + D_1 L_d(q_k, q_{k+1}) = 0.
  const double h = 0.02;
  Tree t = curledChain(), probe = curledChain();
  TreeTrapezoidal tr(t);
  tr.initialize(curledPose(), VectorXd::Zero(kLinks), h, {});
  VectorXd qm, q0 = tr.q();
  for (int k = 0; k < 50; ++k) qm = q0, q0 = tr.q(), tr.step({});
  const VectorXd q1 = tr.q();
  const auto lagrangian = [&](const VectorXd& q, const VectorXd& v) {
    probe.setState(q, v);
    return kineticEnergy(probe) - potentialEnergy(probe);
  };
  const auto ld = [&](const VectorXd& a, const VectorXd& b) {
    const VectorXd v = (b - a) / h;
    return h / 2 * (lagrangian(a, v) + lagrangian(b, v));
  };
  double worst = 0, size = 0;
  for (int i = 0; i < kLinks; ++i) {
    VectorXd a = q0, b = q0;
    a(i) += 1e-7, b(i) -= 1e-7;
    const double d2 = (ld(qm, a) - ld(qm, b)) / 2e-7, d1 = (ld(a, q1) - ld(b, q1)) / 2e-7;
    worst = std::max(worst, std::abs(d1 + d2)), size = std::max(size, std::abs(d2));
  }
  MESSAGE("|D2 L_d + D1 L_d| = " << worst << " (|D2 L_d| = " << size << ", h|v| = "
                                 << (q1 - q0).cwiseAbs().maxCoeff() << ")");
  CHECK(tr.substeps() == 1);
  CHECK(worst < 1e-7 * size);
}

TEST_CASE("TrapezoidalCurledChainEnergyErrorOrderTwo") {
  const double a = curledEnergyError(true, 0.02), b = curledEnergyError(true, 0.01);
  const double m = curledEnergyError(false, 0.01);
  MESSAGE("curled 3-link chain, 2 s: trapezoidal dE " << a << " / " << b << " at h = 0.02 / 0.01 (order "
                                                      << std::log2(a / b) << "), midpoint " << m << " at h = 0.01");
  CHECK(std::log2(a / b) == doctest::Approx(2).epsilon(0.1));
  CHECK(b < 1e-3);
  CHECK(b / m > 1.5);  // measured 2.5: the trapezoidal L_d's error constant, not a wrong term
  CHECK(b / m < 4);
}

TEST_CASE("TrapezoidalStepSymplecticAtLargeTurn") {
  const VectorXd x = whipState();
  const int n2 = 2 * kLinks;
  MatrixXd J(n2, n2);
  for (int j = 0; j < n2; ++j) {
    VectorXd a = x, b = x;
    a(j) += 1e-6, b(j) -= 1e-6;
    J.col(j) = (trapezoidalFlow(a, 0.02, 1) - trapezoidalFlow(b, 0.02, 1)) / 2e-6;
  }
  MatrixXd omega = MatrixXd::Zero(n2, n2);
  omega.topRightCorner(kLinks, kLinks).setIdentity();
  omega.bottomLeftCorner(kLinks, kLinks) = -MatrixXd::Identity(kLinks, kLinks);
  const double defect = (J.transpose() * omega * J - omega).cwiseAbs().maxCoeff();
  MESSAGE("|J^T Omega J - Omega| = " << defect << " (|J| = " << J.cwiseAbs().maxCoeff() << ")");
  CHECK(defect < 1e-6);
}

TEST_CASE("TrapezoidalWholeStepVersusTwoHalfStepsIsThirdOrder") {
  const VectorXd x = whipState();
  double previous = 0;
  for (double h : {0.02, 0.01, 0.005}) {
    const double gap = (trapezoidalFlow(x, h, 1) - trapezoidalFlow(x, h / 2, 2)).cwiseAbs().maxCoeff();
    MESSAGE("h = " << h << ": |one step - two half steps| = " << gap);
    if (previous > 0) CHECK(std::log2(previous / gap) == doctest::Approx(3).epsilon(0.15));
    previous = gap;
  }
}

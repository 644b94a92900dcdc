// Tests of holonomic distance constraints on a tree (engine/tree/tree_constraints.*) and their
// enforcement at q_{k+1} with multipliers in the midpoint and trapezoidal integrators: Jacobian against
// finite differences, a double pendulum whose tip distance locks its elbow moves like the rigid body with
// the elbow as a constant (two formulations, one answer) while h(q) stays at the solver tolerance.
#include <doctest/doctest.h>

#include "engine/integrators/tree_midpoint.h"
#include "engine/integrators/tree_rk4.h"
#include "engine/integrators/tree_trapezoidal.h"
#include "engine/sim/errors.h"
#include "tests/tree_fixtures.h"
#include "tests/tree_stepper_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

TEST_CASE("DistanceConstraintJacobianMatchesFiniteDifferences") {
  Tree t = test::randomTree(91);
  TreeConstraints c;
  c.add(t, {3, Eigen::Vector3d(0.1, -0.2, 0.3), Tree::kWorld, Eigen::Vector3d(1, 2, 3), 2.0});
  c.add(t, {t.frames() - 1, Eigen::Vector3d(0, 0, 0.5), 5, Eigen::Vector3d(0.4, 0, 0), 0.7});
  const VectorXd q = t.q();
  const Eigen::MatrixXd fd = test::fdJacobian(
      [&](const VectorXd& x) {
        t.setQ(x);
        return c.value(t);
      },
      q);
  t.setQ(q);
  const Eigen::MatrixXd J = c.jacobian(t);
  MESSAGE("|Dh - FD| = " << (J - fd).norm() << " of " << fd.norm());
  CHECK((J - fd).norm() < 1e-8 * (1 + fd.norm()));
  CHECK(J.norm() > 0.1);
}

namespace {

// Runs the locked double pendulum (tip at fixed distance from the hinge) and the rigid body with the
// elbow as a constant; returns max |q1 difference| and the max constraint residual.
template <class Stepper>
std::pair<double, double> lockedVsRigid(double h, double T) {
  const double elbow = 0.6, q1 = 0.7;
  Tree locked = pendulumChain(2, 1, 1);
  TreeConstraints c;
  c.add(locked,
        {3, Eigen::Vector3d::Zero(), Tree::kWorld, Eigen::Vector3d::Zero(), std::sqrt(2 + 2 * std::cos(elbow))});
  Stepper a(locked);
  a.setConstraints(&c);
  a.initialize(Eigen::Vector2d(q1, elbow), Eigen::Vector2d::Zero(), h, {});
  Tree rigid;
  const int hinge = rigid.addFrame(Tree::kWorld, Joint::RotY, Drive::Dynamic);
  const int m1 = rigid.addFrame(hinge, Joint::TransZ, Drive::Constant, -1);
  const int m2 =
      rigid.addFrame(rigid.addFrame(m1, Joint::RotY, Drive::Constant, elbow), Joint::TransZ, Drive::Constant, -1);
  rigid.addMass(m1, 1, Eigen::Matrix3d::Zero());
  rigid.addMass(m2, 1, Eigen::Matrix3d::Zero());
  Stepper b(rigid);
  b.initialize(Eigen::VectorXd::Constant(1, q1), Eigen::VectorXd::Zero(1), h, {});
  double diff = 0, residual = 0;
  for (int k = 0; k * h < T; ++k) {
    a.step({}), b.step({});
    diff = std::max(diff, std::abs(a.q()(0) - b.q()(0)));
    locked.setQ(a.q());
    residual = std::max(residual, c.value(locked).cwiseAbs().maxCoeff());
  }
  return {diff, residual};
}

}  // namespace

TEST_CASE("LockedElbowMovesLikeTheRigidBodyMidpoint") {
  const auto [d1, r1] = lockedVsRigid<TreeMidpoint>(0.01, 3);
  const auto [d2, r2] = lockedVsRigid<TreeMidpoint>(0.005, 3);
  MESSAGE("midpoint: |q1 - rigid| " << d1 << " (h 0.01), " << d2 << " (h 0.005); max |h(q)| " << std::max(r1, r2));
  // h depends on the elbow only, so its force has no shoulder component: the shoulder follows the rigid
  // body's discrete equation exactly.
  CHECK(std::max(d1, d2) < 1e-11);
  CHECK(std::max(r1, r2) < 1e-10);
}

TEST_CASE("LockedElbowMovesLikeTheRigidBodyTrapezoidal") {
  const auto [d1, r1] = lockedVsRigid<TreeTrapezoidal>(0.01, 3);
  const auto [d2, r2] = lockedVsRigid<TreeTrapezoidal>(0.005, 3);
  MESSAGE("trapezoidal: |q1 - rigid| " << d1 << " (h 0.01), " << d2 << " (h 0.005); max |h(q)| " << std::max(r1, r2));
  CHECK(std::max(d1, d2) < 1e-11);
  CHECK(std::max(r1, r2) < 1e-10);
}

namespace {

// A 3-link pendulum whose tip hangs on a string of fixed length from a world anchor (a closed loop, one
// coupled constraint), released from rest for T seconds. Returns final q, max |h(q)|, max |E - E0|.
struct LoopRun {
  VectorXd q;
  double residual = 0, energyError = 0;
};
template <class Stepper>
LoopRun stringLoop(double h, double T) {
  Tree t = pendulumChain(3, 1, 1);
  const VectorXd q0 = Eigen::Vector3d(0.9, -0.4, 0.5);
  t.setQ(q0);
  const Eigen::Vector3d anchor(2.2, 0, -0.5);
  TreeConstraints c;
  c.add(t, {5, Eigen::Vector3d::Zero(), Tree::kWorld, anchor,
            (pointPosition(t, 5, Eigen::Vector3d::Zero()) - anchor).norm()});
  Stepper s(t);
  s.setConstraints(&c);
  s.initialize(q0, Eigen::Vector3d::Zero(), h, {});
  const double e0 = s.energy();
  LoopRun run;
  for (int k = 0; k * h < T; ++k) {
    s.step({});
    t.setQ(s.q());
    run.residual = std::max(run.residual, c.value(t).cwiseAbs().maxCoeff());
    run.energyError = std::max(run.energyError, std::abs(s.energy() - e0));
  }
  run.q = s.q();
  return run;
}

}  // namespace

TEST_CASE("StringLoopHoldsAndBothVariationalSchemesAgree") {
  double previous = INFINITY;
  for (double h : {0.01, 0.005, 0.0025}) {
    const LoopRun m = stringLoop<TreeMidpoint>(h, 2), t = stringLoop<TreeTrapezoidal>(h, 2);
    const double d = (m.q - t.q).norm();
    MESSAGE("h " << h << ": |q_mid - q_trap| " << d << ", max |h(q)| " << std::max(m.residual, t.residual)
                 << ", max |dE| " << m.energyError << " / " << t.energyError);
    CHECK(std::max(m.residual, t.residual) < 1e-10);
    CHECK(std::max(m.energyError, t.energyError) < 0.05);
    CHECK(d < previous / 3);  // both second order: the gap shrinks ~4x per halving
    previous = d;
  }
}

TEST_CASE("ConstraintBadInput") {
  Tree t = pendulumChain(2, 1, 1);
  TreeConstraints c;
  CHECK_THROWS_AS(c.add(t, {7, Eigen::Vector3d::Zero(), Tree::kWorld, Eigen::Vector3d::Zero(), 1}), BadInput);
  CHECK_THROWS_AS(c.add(t, {1, Eigen::Vector3d::Zero(), Tree::kWorld, Eigen::Vector3d::Zero(), 0}), BadInput);
  c.add(t, {3, Eigen::Vector3d::Zero(), Tree::kWorld, Eigen::Vector3d::Zero(), 2});
  CHECK_THROWS_AS(c.setLength(0, -1), BadInput);
  TreeRk4 r(t);
  r.setConstraints(&c);
  CHECK_THROWS_AS(r.initialize(Eigen::Vector2d(0, 0), Eigen::Vector2d(0, 0), 0.01, {}), BadInput);
}

namespace {

// A pendulum (hinge about y, unit rod, unit point mass) hanging from a cart that moves along x on a
// prescribed path x(t) = 0.3 sin(3 t): the cart is a kinematic variable of seed 003 Assumption 2.
Tree cartPendulum(int* tip) {
  Tree t;
  const int cart = t.addFrame(Tree::kWorld, Joint::TransX, Drive::Kinematic);
  *tip = t.addFrame(t.addFrame(cart, Joint::RotY, Drive::Dynamic), Joint::TransZ, Drive::Constant, -1);
  t.addMass(*tip, 1, Eigen::Matrix3d::Zero());
  return t;
}
double cartX(double time) { return 0.3 * std::sin(3 * time); }

// Final hinge angle after T with the cart moved over every step through setKinematicTarget.
double cartPendulumAngle(double h, double T) {
  int tip = 0;
  Tree t = cartPendulum(&tip);
  t.setKinematic(VectorXd::Constant(1, cartX(0)), VectorXd::Constant(1, 0.9));
  TreeMidpoint s(t);
  s.initialize(VectorXd::Constant(1, 0.4), VectorXd::Zero(1), h, {});
  const int steps = int(std::lround(T / h));
  for (int k = 0; k < steps; ++k) {
    s.setKinematicTarget(VectorXd::Constant(1, cartX((k + 1) * h)), h);
    s.step({});
  }
  return s.q()(0);
}

}  // namespace

TEST_CASE("KinematicPathOverTheStepKeepsTheMidpointSecondOrder") {
  // The cart enters L_d at t_k + h/2 with rate (x_{k+1} - x_k)/h: the generalized midpoint rule of a
  // time-dependent Lagrangian, second order like the autonomous one.
  const double T = 2, ref = cartPendulumAngle(0.02 / 64, T);
  const double e1 = std::abs(cartPendulumAngle(0.02, T) - ref), e2 = std::abs(cartPendulumAngle(0.01, T) - ref),
               e3 = std::abs(cartPendulumAngle(0.005, T) - ref);
  MESSAGE("cart pendulum errors " << e1 << ", " << e2 << ", " << e3 << "; orders " << std::log2(e1 / e2) << ", "
                                  << std::log2(e2 / e3));
  CHECK(std::log2(e1 / e2) > 1.8);
  CHECK(std::log2(e2 / e3) > 1.8);
}

namespace {

// A double pendulum whose tip hangs on a string from a bar (kinematic x and z) that moves around; the
// string holds at every t_{k+1} with the bar where it is then. Returns max |h(q_k; bar_k)| over the run.
template <class Stepper>
double stringOnMovingBar(double h, double T) {
  Tree t = pendulumChain(2, 1, 1);
  const int bar = t.addFrame(t.addFrame(Tree::kWorld, Joint::TransX, Drive::Kinematic), Joint::TransZ,
                             Drive::Kinematic);
  auto barAt = [](double time) { return Eigen::Vector2d(-1.2 + 0.4 * std::sin(2 * time), 0.3 * std::sin(3 * time)); };
  const VectorXd q0 = Eigen::Vector2d(0.8, 0.3);
  t.setQ(q0);
  t.setKinematic(barAt(0), Eigen::Vector2d::Zero());
  TreeConstraints c;
  c.add(t, {3, Eigen::Vector3d::Zero(), bar, Eigen::Vector3d::Zero(),
            (pointPosition(t, 3, Eigen::Vector3d::Zero()) - pointPosition(t, bar, Eigen::Vector3d::Zero())).norm()});
  Stepper s(t);
  s.setConstraints(&c);
  s.initialize(q0, Eigen::Vector2d::Zero(), h, {});
  double worst = 0;
  for (int k = 0; (k + 1) * h <= T; ++k) {
    s.setKinematicTarget(barAt((k + 1) * h), h);
    s.step({});
    CHECK(t.kinematicValue() == barAt((k + 1) * h));  // the tree holds the bar at t_{k+1} after the step
    t.setQ(s.q());
    worst = std::max(worst, c.value(t).cwiseAbs().maxCoeff());
  }
  return worst;
}

// A quadratic penalty pulling every coordinate to q* = 0.2 with a viscous part: F = -K (q - q*) - D qdot.
struct SpringDamper : StateForce {
  double K = 30, D = 0.7;
  VectorXd force(const Tree& t) const override { return -K * (t.q().array() - 0.2).matrix() - D * t.qdot(); }
  double potential(const Tree& t) const override { return 0.5 * K * (t.q().array() - 0.2).matrix().squaredNorm(); }
  void addJacobian(const Tree&, double a, double b, Eigen::MatrixXd& J) const override {
    J.diagonal().array() -= a * K + b * D;
  }
};

}  // namespace

TEST_CASE("StringOnAMovingBarHoldsToSolverTolerance") {
  const double mid = stringOnMovingBar<TreeMidpoint>(0.01, 3), trap = stringOnMovingBar<TreeTrapezoidal>(0.01, 3);
  MESSAGE("max |h(q_k; bar_k)| midpoint " << mid << ", trapezoidal " << trap);
  CHECK(mid < 1e-10);
  CHECK(trap < 1e-10);
}

TEST_CASE("KinematicTargetBadInput") {
  int tip = 0;
  Tree t = cartPendulum(&tip);
  TreeMidpoint s(t);
  CHECK_THROWS_AS(s.setKinematicTarget(VectorXd::Zero(2), 0.01), BadInput);
  CHECK_THROWS_AS(s.setKinematicTarget(VectorXd::Constant(1, NAN), 0.01), BadInput);
  CHECK_THROWS_AS(s.setKinematicTarget(VectorXd::Zero(1), 0), BadInput);
}

TEST_CASE("StateForceEntersTheMidpointResidualWithItsJacobian") {
  Tree t = test::randomTree(17);
  const int n = t.dof();
  SpringDamper spring;
  TreeForcing f;
  f.damping = VectorXd::Constant(n, 0.3), f.state = &spring;
  TreeMidpoint s(t, 0.5);
  s.initialize(VectorXd::LinSpaced(n, -0.3, 0.4), VectorXd::LinSpaced(n, 0.5, -0.2), 0.02, f);
  const VectorXd q1 = s.q() + 0.02 * VectorXd::LinSpaced(n, 0.1, 0.6);
  const Eigen::MatrixXd fd = test::fdJacobian([&](const VectorXd& x) { return s.residual(x, f); }, q1);
  const Eigen::MatrixXd J = s.jacobian(q1, f);
  MESSAGE("|J - FD| = " << (J - fd).norm() << " of " << fd.norm());
  CHECK((J - fd).norm() < 1e-6 * fd.norm());
  // Conservative part: with no damping the energy T + V + V_spring stays bounded over 2000 steps.
  TreeForcing conservative;
  SpringDamper stiff;
  stiff.D = 0, conservative.state = &stiff;
  TreeMidpoint c(t, 0.5);
  c.initialize(VectorXd::Zero(n), VectorXd::Zero(n), 0.01, conservative);
  auto energy = [&] {
    const double e = c.energy();
    return e + stiff.potential(t);  // energy() leaves the tree at (q, qdot)
  };
  const double e0 = energy();
  double drift = 0;
  for (int k = 0; k < 2000; ++k) c.step(conservative), drift = std::max(drift, std::abs(energy() - e0));
  MESSAGE("spring penalty: max |E - E0| " << drift << " of " << std::abs(e0));
  CHECK(drift < 1e-2 * (1 + std::abs(e0)));
}

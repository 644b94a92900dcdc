// Tests of the seed 003 tree (engine/tree/tree.*): g_{s,k} derivatives (eqs.
// 3–4) and body velocities with their derivatives (eqs. 6–11) against finite
// differences on random trees, body velocity against g^{-1} dg/dt, cache on/off
// bit-identical, bad input rejected.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "engine/lie/se3.h"
#include "engine/sim/errors.h"
#include "engine/tree/pendulum_chain.h"
#include "tests/tree_fixtures.h"

using namespace varsim;
using namespace varsim::tree;
using Eigen::VectorXd;

namespace {

constexpr double kEps = 1e-6;

// Central difference of f along a perturbation of q (which = 0), qdot (1) or
// kinematic values (2).
template <class T>
T centralDiff(Tree& t, int which, int i, const std::function<T()>& f) {
  const VectorXd q = t.q(), qd = t.qdot(), kv = t.kinematicValue(), kr = t.kinematicRate();
  auto shift = [&](double s) {
    VectorXd a = q, b = qd, c = kv;
    (which == 0 ? a : which == 1 ? b : c)(i) += s;
    t.setState(a, b);
    t.setKinematic(c, kr);
    return f();
  };
  const T plus = shift(kEps), minus = shift(-kEps);
  shift(0);
  return (plus - minus) / (2 * kEps);
}

}  // namespace

TEST_CASE("FramePoseDerivativesMatchFiniteDifferences") {
  double worst1 = 0, worst2 = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    Tree t = test::randomTree(seed);
    REQUIRE(t.dof() > 0);
    for (int k = 0; k < t.frames(); ++k) {
      for (int i = 0; i < t.dof(); ++i) {
        const Eigen::Matrix4d fd = centralDiff<Eigen::Matrix4d>(t, 0, i, [&] { return t.g(k); });
        worst1 = std::max(worst1, (fd - t.dg(k, i)).norm());
        for (int j = 0; j < t.dof(); ++j) {
          const Eigen::Matrix4d fd2 = centralDiff<Eigen::Matrix4d>(t, 0, j, [&] { return t.dg(k, i); });
          worst2 = std::max(worst2, (fd2 - t.ddg(k, i, j)).norm());
        }
      }
    }
  }
  MESSAGE("dg err " << worst1 << ", ddg err " << worst2);
  CHECK(worst1 < 1e-8);
  CHECK(worst2 < 1e-8);
}

TEST_CASE("BodyVelocityIsGInverseGdot") {
  double worst = 0;
  for (unsigned seed = 11; seed <= 16; ++seed) {
    Tree t = test::randomTree(seed);
    for (int k = 0; k < t.frames(); ++k) {
      // dg/dt = sum_i dg/dq_i qdot_i + (finite difference along the kinematic
      // rates).
      const VectorXd q = t.q(), qd = t.qdot(), kv = t.kinematicValue(), kr = t.kinematicRate();
      Eigen::Matrix4d gdot = Eigen::Matrix4d::Zero();
      for (int i = 0; i < t.dof(); ++i) gdot += t.dg(k, i) * qd(i);
      t.setKinematic(kv + kEps * kr, kr);
      const Eigen::Matrix4d gp = t.g(k);
      t.setKinematic(kv - kEps * kr, kr);
      const Eigen::Matrix4d gm = t.g(k);
      t.setKinematic(kv, kr);
      gdot += (gp - gm) / (2 * kEps);
      const Eigen::Matrix4d vhat = t.g(k).inverse() * gdot;
      worst = std::max(worst, (se3::vee(vhat) - t.vb(k)).norm() + vhat.row(3).norm());
    }
  }
  MESSAGE("v^b err " << worst);
  CHECK(worst < 1e-8);
}

TEST_CASE("BodyVelocityDerivativesMatchFiniteDifferences") {
  double w[5] = {0, 0, 0, 0, 0};
  for (unsigned seed = 21; seed <= 26; ++seed) {
    Tree t = test::randomTree(seed);
    for (int k = 0; k < t.frames(); ++k) {
      for (int i = 0; i < t.dof(); ++i) {
        w[0] = std::max(w[0], (centralDiff<Vector6d>(t, 0, i, [&] { return t.vb(k); }) - t.dvbDq(k, i)).norm());
        w[1] = std::max(w[1], (centralDiff<Vector6d>(t, 1, i, [&] { return t.vb(k); }) - t.dvbDqdot(k, i)).norm());
        for (int j = 0; j < t.dof(); ++j) {
          const Vector6d a = centralDiff<Vector6d>(t, 0, j, [&] { return t.dvbDq(k, i); });
          w[2] = std::max(w[2], (a - t.ddvbDqDq(k, i, j)).norm());
          const Vector6d b = centralDiff<Vector6d>(t, 0, i, [&] { return t.dvbDqdot(k, j); });
          w[3] = std::max(w[3], (b - t.ddvbDqDqdot(k, i, j)).norm());
          const Vector6d c = centralDiff<Vector6d>(t, 1, j, [&] { return t.dvbDqdot(k, i); });
          w[4] = std::max(w[4], c.norm());  // eq. (11): v is linear in qdot
        }
      }
    }
  }
  MESSAGE("dv/dq " << w[0] << " dv/dqdot " << w[1] << " d2v/dqdq " << w[2] << " d2v/dqdqdot " << w[3] << " d2v/dqdot2 "
                   << w[4]);
  for (double e : w) CHECK(e < 1e-8);
}

TEST_CASE("CacheOnAndOffGiveBitIdenticalQuantities") {
  Tree a = test::randomTree(31), b = test::randomTree(31);
  b.setCache(false);
  bool same = true;
  for (int k = 0; k < a.frames(); ++k) {
    same = same && a.g(k) == b.g(k) && a.vb(k) == b.vb(k);
    for (int i = 0; i < a.dof(); ++i) {
      same = same && a.dg(k, i) == b.dg(k, i) && a.dvbDq(k, i) == b.dvbDq(k, i) && a.dvbDqdot(k, i) == b.dvbDqdot(k, i);
      for (int j = 0; j < a.dof(); ++j) {
        same = same && a.ddg(k, i, j) == b.ddg(k, i, j) && a.ddvbDqDq(k, i, j) == b.ddvbDqDq(k, i, j) &&
               a.ddvbDqDqdot(k, i, j) == b.ddvbDqDqdot(k, i, j);
      }
    }
  }
  CHECK(same);
  // The memo follows state changes: after a new q the cached tree equals a
  // fresh uncached evaluation.
  VectorXd q = a.q().array() + 0.3;
  a.setQ(q), b.setQ(q);
  for (int k = 0; k < a.frames(); ++k) CHECK((a.vb(k) == b.vb(k) && a.g(k) == b.g(k)));
}

// Masses of a random tree lumped directly: sum over frames k below f of Ad^T M_k Ad (inertia, applied to a
// twist x of f) and Ad^T M_k v_k (momentum), with Ad from g_{f,k} = g_f^{-1} g_k; against the recursion.
TEST_CASE("CompositeQuantitiesAreTheSumsOverTheSubtree") {
  double worstI = 0, worstW = 0, worstG = 0;
  for (unsigned seed = 81; seed <= 86; ++seed) {
    Tree t = test::randomTree(seed);
    Tree u = test::randomTree(seed);
    u.setCache(false);
    const Vector6d x = (Vector6d() << 0.3, -0.2, 0.5, 1.1, -0.7, 0.4).finished();
    for (int f = 0; f < t.frames(); ++f) {
      Vector6d Ix = Vector6d::Zero(), W = Vector6d::Zero(), Wg = Vector6d::Zero();
      for (const Mass& b : t.masses()) {
        int k = b.frame;
        while (k != Tree::kWorld && k != f) k = t.parent(k);
        if (k != f) continue;  // not below f
        const Eigen::Matrix4d gfk = t.g(f).inverse() * t.g(b.frame);
        auto momentum = [&](const Vector6d& v) {
          return (Vector6d() << b.inertia * v.head<3>(), b.m * v.tail<3>()).finished();
        };
        Ix += adInvTransposeApply(gfk, momentum(adInvApply(gfk, x)));
        W += adInvTransposeApply(gfk, momentum(t.vb(b.frame)));
        const Eigen::Vector3d weight = b.m * t.g(b.frame).topLeftCorner<3, 3>().transpose() * t.gravity();
        Wg += adInvTransposeApply(gfk, (Vector6d() << Eigen::Vector3d::Zero(), weight).finished());
      }
      worstI = std::max(worstI, (t.compositeInertia(f).apply(x) - Ix).norm());
      worstW = std::max(worstW, (t.compositeMomentum(f) - W).norm());
      worstG = std::max(worstG, (t.compositeWeight(f) - Wg).norm());
      CHECK(t.compositeMomentum(f) == u.compositeMomentum(f));  // cache on/off bit-identical
      CHECK(t.compositeWeight(f) == u.compositeWeight(f));
      CHECK(t.compositeInertia(f).apply(x) == u.compositeInertia(f).apply(x));
    }
  }
  MESSAGE("composite inertia " << worstI << ", momentum " << worstW << ", weight " << worstG);
  CHECK(worstI < 1e-12);
  CHECK(worstW < 1e-12);
  CHECK(worstG < 1e-12);
}

TEST_CASE("BadTreeInputThrows") {
  Tree t;
  CHECK_THROWS_AS(t.addFrame(0, Joint::RotX, Drive::Dynamic), BadInput);
  CHECK_THROWS_AS(t.addFrame(Tree::kWorld, Joint::Fixed, Drive::Constant), BadInput);
  Eigen::Matrix4d bad = Eigen::Matrix4d::Identity();
  bad(0, 0) = 2;
  CHECK_THROWS_AS(t.addFixed(Tree::kWorld, bad), BadInput);
  const int f = t.addFrame(Tree::kWorld, Joint::RotZ, Drive::Dynamic);
  CHECK_THROWS_AS(t.addMass(f, -1, Eigen::Matrix3d::Identity()), BadInput);
  CHECK_THROWS_AS(t.addMass(f, 1, -Eigen::Matrix3d::Identity()), BadInput);
  CHECK_THROWS_AS(t.setQ(VectorXd::Zero(2)), BadInput);
  CHECK_THROWS_AS(t.setQ(VectorXd::Constant(1, NAN)), BadInput);
  CHECK_THROWS_AS(rodChain(0, 1, 1), BadInput);
  CHECK_THROWS_AS(rodChain(2, 0, 1), BadInput);
  CHECK_THROWS_AS(rodChain(2, 1, NAN), BadInput);
}

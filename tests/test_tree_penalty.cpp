// Tests of the penalty state force (engine/tree/tree_penalty.*): its Jacobian against finite differences with points in
// contact and sliding, the potential's gradient against the elastic force, and the sign of the power of the dissipative
// parts.
#include <doctest/doctest.h>

#include "engine/sim/errors.h"
#include "engine/tree/tree_penalty.h"
#include "tests/tree_fixtures.h"
#include "tests/tree_stepper_fixtures.h"

using namespace varsim;
using namespace varsim::tree;

namespace {

// A floating box (x, y, z, yaw, pitch, roll) with a two-link leg whose foot has four corner points.
struct Walker {
  Tree t;
  int foot = 0;
  Walker() {
    int f = Tree::kWorld;
    for (Joint j : {Joint::TransX, Joint::TransY, Joint::TransZ, Joint::RotZ, Joint::RotX, Joint::RotY})
      f = t.addFrame(f, j, Drive::Dynamic);
    t.addMass(f, 2, Eigen::Matrix3d::Identity() * 0.1);
    Eigen::Matrix4d hip = Eigen::Matrix4d::Identity();
    hip(2, 3) = -0.3;
    const int thigh = t.addFrame(t.addFixed(f, hip), Joint::RotX, Drive::Dynamic);
    t.addMass(thigh, 0.5, Eigen::Matrix3d::Identity() * 0.01);
    foot = t.addFrame(t.addFrame(thigh, Joint::TransZ, Drive::Constant, -0.3), Joint::RotX, Drive::Dynamic);
    t.addMass(foot, 0.5, Eigen::Matrix3d::Identity() * 0.01);
  }
  std::vector<ContactPoint> corners() const {
    std::vector<ContactPoint> c;
    for (double x : {-0.05, 0.05})
      for (double y : {-0.1, 0.05}) c.push_back({foot, Eigen::Vector3d(x, y, -0.3)});
    return c;
  }
};

}  // namespace

TEST_CASE("PenaltyJacobianMatchesFiniteDifferencesWhileSliding") {
  Walker w;
  const std::vector<JointLimit> limits{{6, -0.2, 0.2}, {7, 0.1, 1.0}};
  const TreePenalty pen(w.t, limits, 3.0, w.corners(), FloorContact{0.0, 2000, 20000, 0.8, 0.05});
  const int n = w.t.dof();
  Eigen::VectorXd q = Eigen::VectorXd::Zero(n), v = Eigen::VectorXd::Zero(n);
  q << 0.01, -0.02, 0.905, 0.1, 0.05, -0.04, 0.3,
      -0.1;  // foot 5 mm into the floor, limits active
  v << 0.03, -0.02, -0.05, 0.2, -0.1, 0.05, 0.3,
      -0.2;  // sliding and pressing in
  w.t.setState(q, v);
  double lowest = INFINITY;
  for (const ContactPoint& c : w.corners()) lowest = std::min(lowest, pointPosition(w.t, c.frame, c.point).z());
  q(2) -= lowest + 0.005;
  w.t.setState(q, v);
  REQUIRE(pen.normalForce(w.t) > 1);
  for (double a : {1.0, 0.0}) {
    const double b = 1 - a;  // d/dq alone, then d/dqdot alone
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
    w.t.setState(q, v);
    pen.addJacobian(w.t, a, b, J);
    const Eigen::MatrixXd fd = test::fdJacobian(
        [&](const Eigen::VectorXd& x) {
          w.t.setState(a == 1 ? x : q, a == 1 ? v : x);
          return pen.force(w.t);
        },
        a == 1 ? q : v);
    MESSAGE(std::string(a == 1 ? "dF/dq" : "dF/dqdot") << ": |J - FD| " << (J - fd).norm() << " of " << fd.norm());
    CHECK((J - fd).norm() < 1e-6 * fd.norm());
  }
}

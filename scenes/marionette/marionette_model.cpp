// scenes/marionette/marionette_model.cpp — builds the marionette tree, its strings, joint limits, contact points and body shapes
// (see marionette_model.h). Ball joints are three hinges X (flex), Z (twist), Y (side): the chain is singular only at a
// twist of ±90°, which the soft limits keep away from.
#include "scenes/marionette/marionette_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"

namespace varsim {
namespace {

using Eigen::Vector3d;
using tree::Drive;
using tree::Joint;
using tree::Tree;

Eigen::Matrix4d translation(const Vector3d& p) {
  Eigen::Matrix4d g = Eigen::Matrix4d::Identity();
  g.topRightCorner<3, 1>() = p;
  return g;
}
Eigen::Matrix3d capsuleInertia(double m, double r,
                               double len) {  // solid cylinder along z
  const double side = m * (3 * r * r + len * len) / 12;
  return Eigen::Vector3d(side, side, m * r * r / 2).asDiagonal();
}
Eigen::Matrix3d boxInertia(double m, const Vector3d& s) {
  return (m / 12 *
          Vector3d(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(), s.x() * s.x() + s.y() * s.y()))
      .asDiagonal();
}

constexpr Rgba kShirt{0.80f, 0.18f, 0.16f, 1}, kPants{0.16f, 0.28f, 0.62f, 1}, kSkin{0.93f, 0.76f, 0.60f, 1},
    kWood{0.62f, 0.44f, 0.26f, 1}, kShoe{0.25f, 0.16f, 0.10f, 1}, kHair{0.35f, 0.20f, 0.08f, 1};

// Lengths (m): torso box, upper arm, forearm to the hand, thigh, shin to the sole.
constexpr double kTorsoW = 0.12, kTorsoD = 0.07, kTorsoH = 0.20, kUpperArm = 0.12, kForearm = 0.12, kThigh = 0.15,
                 kShin = 0.18, kHeadR = 0.055, kNeck = 0.02, kHipRest = 0.2, kKneeRest = 0.35;

}  // namespace

int MarionetteModel::ball(int parent, const Vector3d& at, const double lo[3], const double hi[3],
                          const Vector3d& rest) {
  int f = tree_.addFixed(parent, translation(at));
  const Joint axes[3] = {Joint::RotX, Joint::RotZ, Joint::RotY};
  for (int a = 0; a < 3; ++a) {
    f = tree_.addFrame(f, axes[a], Drive::Dynamic);
    limits_.push_back({tree_.dof() - 1, lo[a], hi[a]});
    rest_.push_back(rest(a));
  }
  return f;
}

int MarionetteModel::hinge(int parent, const Vector3d& at, double lo, double hi, double rest) {
  const int f = tree_.addFrame(tree_.addFixed(parent, translation(at)), Joint::RotX, Drive::Dynamic);
  limits_.push_back({tree_.dof() - 1, lo, hi});
  rest_.push_back(rest);
  return f;
}

void MarionetteModel::body(int frame, const Vector3d& center, double mass, const Eigen::Matrix3d& inertia) {
  tree_.addMass(center.isZero() ? frame : tree_.addFixed(frame, translation(center)), mass, inertia);
}

void MarionetteModel::shape(int frame, ShapeKind kind, const Vector3d& center, Vec3f size, Rgba color) {
  shapes_.push_back({frame, kind, center, size, color});
}

// An arm or leg on the side `side` (+1 left, -1 right) from the joint at `at` on `parent`; returns the lower limb's
// frame (hand or shin) and records the upper one (knee_ for legs).
int MarionetteModel::limb(int parent, const Vector3d& at, double side, bool arm, double mass) {
  const bool left = side > 0;
  // Flex about x (forward is negative), twist about z, sideways about y (outward is -side).
  const double armLo[3] = {-2.8, -0.6, left ? -2.5 : -0.2}, armHi[3] = {0.8, 0.6, left ? 0.2 : 2.5};
  const double legLo[3] = {-1.8, -0.6, left ? -0.8 : -0.15}, legHi[3] = {0.5, 0.6, left ? 0.15 : 0.8};
  const double upper = arm ? kUpperArm : kThigh, r = arm ? 0.018 : 0.026;
  // Rest pose: arms a little forward and out with bent elbows, hips and knees slightly bent, so that no string pulls
  // along a straight limb (a singular direction: the strings could not lift it to first order).
  const Vector3d armRest(-0.3, 0, left ? -0.15 : 0.15), legRest(-kHipRest, 0, 0);
  const int top = ball(parent, at, arm ? armLo : legLo, arm ? armHi : legHi, arm ? armRest : legRest);
  body(top, {0, 0, -upper / 2}, (arm ? 0.04 : 0.08) * mass, capsuleInertia((arm ? 0.04 : 0.08) * mass, r, upper));
  shape(top, ShapeKind::Capsule, {0, 0, -upper / 2}, {float(r), float(r), float(upper - r)}, arm ? kShirt : kPants);
  shape(top, ShapeKind::Sphere, Vector3d::Zero(), {float(1.15 * r), 0, 0}, kWood);
  // Elbows bend the forearm forward (negative), knees the shin backward (positive).
  const int low = hinge(top, {0, 0, -upper}, arm ? -2.6 : 0.0, arm ? 0.0 : 2.5, arm ? -0.6 : kKneeRest);
  shape(low, ShapeKind::Sphere, Vector3d::Zero(), {float(r), 0, 0}, kWood);
  if (arm) {
    const double m = 0.045 * mass;
    body(low, {0, 0, -0.07}, m, capsuleInertia(m, 0.016, kForearm));
    shape(low, ShapeKind::Capsule, {0, 0, -0.05}, {0.015f, 0.015f, 0.085f}, kShirt);
    shape(low, ShapeKind::Sphere, {0, 0, -kForearm}, {0.024f, 0, 0}, kSkin);
    contacts_.push_back({low, {0, 0, -kForearm - 0.024}});
  } else {
    const double m = 0.085 * mass;
    const Vector3d foot(0.05, 0.09, 0.025);
    body(low, {0, -0.01, -0.11}, m, capsuleInertia(m, 0.03, kShin));
    shape(low, ShapeKind::Capsule, {0, 0, -0.08}, {0.021f, 0.021f, 0.13f}, kPants);
    // The foot (no ankle joint) is turned back by the shin's rest pitch so its sole is level at rest.
    Eigen::Matrix4d ankle = translation({0, 0, -kShin + foot.z()});
    ankle.topLeftCorner<3, 3>() = Eigen::AngleAxisd(kHipRest - kKneeRest, Vector3d::UnitX()).toRotationMatrix();
    const int sole = tree_.addFixed(low, ankle);
    shape(sole, ShapeKind::Box, {0, -0.025, -foot.z() / 2}, {float(foot.x()), float(foot.y()), float(foot.z())}, kShoe);
    for (double y : {0.02, -0.07})
      for (double x : {-0.02, 0.02}) contacts_.push_back({sole, {x, y, -foot.z()}});
    contacts_.push_back({top, {0, -0.027, -kThigh}});  // the knee
    knee_[left ? 0 : 1] = top;
  }
  return low;
}

MarionetteModel::MarionetteModel(const MarionetteConfig& c) {
  if (c.strings < 2 || c.strings > 6 || !(c.stringLength > 0) || !(c.mass > 0) || !(c.gravity >= 0) ||
      !(c.limitStiffness >= 0) || !(c.floorStiffness >= 0) || !(c.floorDamping >= 0) || !(c.friction >= 0))
    throw BadInput("marionette: strings in [2, 6], string length and mass > 0, the rest >= 0");
  tree_.setGravity({0, 0, -c.gravity});
  // Floating torso: translations then yaw (z), pitch (x), roll (y) about its centre.
  int f = Tree::kWorld;
  for (Joint j : {Joint::TransX, Joint::TransY, Joint::TransZ, Joint::RotZ, Joint::RotX, Joint::RotY})
    f = tree_.addFrame(f, j, Drive::Dynamic);
  torso_ = f;
  body(torso_, Vector3d::Zero(), 0.38 * c.mass, boxInertia(0.38 * c.mass, {kTorsoW, kTorsoD, kTorsoH}));
  shape(torso_, ShapeKind::Box, {0, 0, 0.02}, {float(kTorsoW), float(kTorsoD), float(kTorsoH - 0.04)}, kShirt);
  shape(torso_, ShapeKind::Box, {0, 0, -kTorsoH / 2 + 0.025}, {float(kTorsoW - 0.01), float(kTorsoD + 0.004), 0.05f},
        kPants);
  shape(torso_, ShapeKind::Capsule, {0, 0, kTorsoH / 2 + kNeck / 2}, {0.016f, 0.016f, float(kNeck)}, kSkin);
  contacts_.push_back({torso_, {0, 0, -kTorsoH / 2 - 0.01}});
  const double neckLo[3] = {-0.6, -0.8, -0.4}, neckHi[3] = {0.5, 0.8, 0.4};
  head_ = ball(torso_, {0, 0, kTorsoH / 2 + kNeck}, neckLo, neckHi, Vector3d::Zero());
  body(head_, {0, 0, 0.06}, 0.12 * c.mass, 0.4 * 0.12 * c.mass * kHeadR * kHeadR * Eigen::Matrix3d::Identity());
  shape(head_, ShapeKind::Sphere, {0, 0, 0.06}, {float(kHeadR), 0, 0}, kSkin);
  shape(head_, ShapeKind::Sphere, {0, 0.008, 0.072}, {float(kHeadR * 0.97), 0, 0}, kHair);        // hair at the back
  shape(head_, ShapeKind::Sphere, {0, -kHeadR, 0.055}, {0.011f, 0, 0}, {0.85f, 0.35f, 0.3f, 1});  // nose
  for (double x : {-0.02, 0.02})
    shape(head_, ShapeKind::Sphere, {x, -0.048, 0.072}, {0.007f, 0, 0}, {0.1f, 0.1f, 0.1f, 1});
  contacts_.push_back({head_, {0, 0, 0.06 + kHeadR}});
  for (double side : {1.0, -1.0}) {
    hand_[side > 0 ? 0 : 1] = limb(torso_, {side * 0.085, 0, kTorsoH / 2 - 0.015}, side, true, c.mass);
    foot_[side > 0 ? 0 : 1] = limb(torso_, {side * 0.04, 0, -kTorsoH / 2}, side, false, c.mass);
  }
  // Rest pose, lifted so the lowest sole point touches z = 0.
  rest_.insert(rest_.begin(), 6, 0.0);
  q0_ = Eigen::Map<const Eigen::VectorXd>(rest_.data(), tree_.dof());
  tree_.setQ(q0_);
  double lowest = INFINITY;
  for (const tree::ContactPoint& p : contacts_)
    lowest = std::min(lowest, tree::pointPosition(tree_, p.frame, p.point).z());
  q0_(2) = -lowest;
  tree_.setQ(q0_);
  const double headTop = tree::pointPosition(tree_, head_, {0, 0, 0.06 + kHeadR}).z();
  // The control bar: massless, kinematic x, y, z, roll (about y, +: the +x side down), pitch (about x, +: front down).
  f = Tree::kWorld;
  for (Joint j : {Joint::TransX, Joint::TransY, Joint::TransZ, Joint::RotY, Joint::RotX})
    f = tree_.addFrame(f, j, Drive::Kinematic);
  bar_ = f;
  barHeight_ = headTop + c.stringLength;
  addStrings(c);
  penalty_ = std::make_unique<tree::TreePenalty>(
      tree_, limits_, c.limitStiffness * c.mass, contacts_,
      tree::FloorContact{0.0, c.floorStiffness * c.mass, c.floorDamping * c.mass, c.friction, 0.2});
}

Eigen::VectorXd MarionetteModel::restBar() const {
  Eigen::VectorXd k = Eigen::VectorXd::Zero(kBarCount);
  k(kBarZ) = barHeight_;
  return k;
}

Vector3d MarionetteModel::barPoint(int j) {
  // Head at the front of the main bar, back at its rear, hands at the ends of the cross bar, knees on the leg bar in
  // front: rolling the bar lifts one hand and one knee, pitching it tips the head forward.
  static const Vector3d points[6] = {{0, -0.04, 0},     {0, 0.12, 0},     {0.16, -0.12, 0},
                                     {-0.16, -0.12, 0}, {0.05, -0.12, 0}, {-0.05, -0.12, 0}};
  return points[j];
}

void MarionetteModel::addStrings(const MarionetteConfig& c) {
  struct Attach {
    const char* name;
    int frame;
    Vector3d point;
  };
  const Attach all[6] = {
      {"head", head_, {0, 0, 0.06 + kHeadR}},     {"back", torso_, {0, kTorsoD / 2, 0.07}},
      {"hand_l", hand_[0], {0, 0, -kForearm}},    {"hand_r", hand_[1], {0, 0, -kForearm}},
      {"knee_l", knee_[0], {0, -0.027, -kThigh}}, {"knee_r", knee_[1], {0, -0.027, -kThigh}},
  };
  tree_.setQ(q0_);
  tree_.setKinematic(restBar(), Eigen::VectorXd::Zero(kBarCount));
  for (int j = 0; j < c.strings; ++j) {
    const Attach& a = all[j];
    const double len =
        (tree::pointPosition(tree_, bar_, barPoint(j)) - tree::pointPosition(tree_, a.frame, a.point)).norm();
    strings_.add(tree_, {a.frame, a.point, bar_, barPoint(j), len});
    info_.push_back({a.name, barPoint(j), len});
  }
}

}  // namespace varsim

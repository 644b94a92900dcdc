// scenes/marionette/marionette_model.h — the marionette of scene `marionette` as a seed 003 tree: a floating torso (three
// translations, three rotations), head, arms and legs on ball joints (three hinges each) and hinged elbows and knees
// (25 dynamic variables), plus a massless control bar driven by five kinematic variables (x, y, z, roll, pitch).
// Strings are distance constraints from bar points to the head, back, hands and knees; soft joint limits and the floor
// contact of the feet (and knees, hands, head, seat) are a TreePenalty. Also the body shapes for drawing. Geometry in
// metres at rest: standing on z = 0, facing -y, its left on +x, about 0.67 m tall.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/tree/tree_constraints.h"
#include "engine/tree/tree_penalty.h"
#include "render/draw_list.h"

namespace varsim {

struct MarionetteConfig {
  int strings = 6;            // 2..6: head, back, left hand, right hand, left knee, right knee (the first n)
  double stringLength = 0.5;  // m, bar height above the top of the head at rest (> 0)
  double mass = 1.0;          // kg, total (torso 38 %, head 12 %, upper arm 4 %, forearm 4.5 %, thigh 8 %, shin 8.5 %)
  double gravity = 9.81;      // m/s², along -z
  double limitStiffness = 2;  // N m/(rad kg), soft joint limits, per kg of puppet
  double floorStiffness = 3000, floorDamping = 30000, friction = 0.8;  // per point and kg (tree_penalty.h)
};

// What to draw for one body: a shape fixed in a frame of the tree.
struct MarionetteShape {
  int frame = 0;
  ShapeKind kind = ShapeKind::Box;
  Eigen::Vector3d center = Eigen::Vector3d::Zero();  // in the frame; capsules run along the frame's z
  Vec3f size{1, 1, 1};                               // as in render/draw_list.h
  Rgba color;
};

struct MarionetteString {
  std::string name;     // head, back, hand_l, hand_r, knee_l, knee_r
  Eigen::Vector3d bar;  // point in the bar frame
  double restLength;    // m, at the rest pose with the bar at rest
};

class MarionetteModel {
 public:
  enum Bar { kBarX, kBarY, kBarZ, kBarRoll, kBarPitch, kBarCount };  // kinematic variable indices

  explicit MarionetteModel(const MarionetteConfig& c);  // throws BadInput on a config out of range
  tree::Tree& tree() { return tree_; }
  const tree::Tree& tree() const { return tree_; }
  tree::TreeConstraints& strings() { return strings_; }
  const tree::TreeConstraints& strings() const { return strings_; }
  const tree::TreePenalty& penalty() const { return *penalty_; }
  const std::vector<MarionetteString>& stringInfo() const { return info_; }
  const std::vector<MarionetteShape>& shapes() const { return shapes_; }
  const Eigen::VectorXd& restPose() const { return q0_; }
  Eigen::VectorXd restBar() const;  // kinematic values at rest: (0, 0, bar height, 0, 0)
  int barFrame() const { return bar_; }
  int torsoFrame() const { return torso_; }
  int handFrame(bool left) const { return hand_[left ? 0 : 1]; }
  int footFrame(bool left) const { return foot_[left ? 0 : 1]; }
  double barHeight() const { return barHeight_; }
  // The six string points on the bar (bar frame; head, back, hands, knees), used or not.
  static Eigen::Vector3d barPoint(int j);

 private:
  // RotX, RotZ, RotY / RotX at `at` on `parent` with soft limits and rest angles; return the last frame.
  int ball(int parent, const Eigen::Vector3d& at, const double lo[3], const double hi[3], const Eigen::Vector3d& rest);
  int hinge(int parent, const Eigen::Vector3d& at, double lo, double hi, double rest);
  void body(int frame, const Eigen::Vector3d& center, double mass, const Eigen::Matrix3d& inertia);
  void shape(int frame, ShapeKind kind, const Eigen::Vector3d& center, Vec3f size, Rgba color);
  int limb(int parent, const Eigen::Vector3d& at, double side, bool arm, double mass);
  void addStrings(const MarionetteConfig& c);

  tree::Tree tree_;
  tree::TreeConstraints strings_;
  std::unique_ptr<tree::TreePenalty> penalty_;
  std::vector<tree::JointLimit> limits_;
  std::vector<tree::ContactPoint> contacts_;
  std::vector<MarionetteString> info_;
  std::vector<MarionetteShape> shapes_;
  std::vector<double> rest_;  // rest angle per joint variable, in order
  Eigen::VectorXd q0_;
  int torso_ = 0, head_ = 0, bar_ = 0, hand_[2] = {0, 0}, foot_[2] = {0, 0}, knee_[2] = {0, 0};
  double barHeight_ = 0;
};

}  // namespace varsim

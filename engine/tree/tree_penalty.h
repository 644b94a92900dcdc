// engine/tree/tree_penalty.h — penalty forces on a tree as a StateForce (TreeForcing::state): soft joint limits and a
// floor contact for points on frames. Each has an elastic part from a potential (reported by potential(), so energies
// include it, and evaluated by the midpoint scheme at q_alpha like gravity: the scheme stays variational for it) and,
// for the floor, a dissipative part whose power is never positive.
#pragma once

#include <vector>

#include "engine/integrators/tree_stepper.h"

namespace varsim::tree {

// Soft limit of dynamic variable `dof`: V = k/2 (r(q - hi)² + r(lo - q)²) with r a smooth ramp, r(u) = eps
// softplus(u / eps) ~ max(0, u) (eps = 0.01 rad): zero well inside, k/2 excess² beyond, smooth at the corners.
struct JointLimit {
  int dof = 0;
  double lo = -1, hi = 1;  // rad (or m), lo < hi
};

// Floor z = height against points fixed on frames. With depth d = r(height - p_z) (the smooth ramp with eps = 1 mm)
// and p the point:
//   normal  N = k d d' (1 + S(g) - S(1)), g = 1 - (c/k) pdot_z, S(x) = softplus(20 x) / 20
//           (k d d' = -dV/dp_z with V = k/2 d²; the factor is 1 at rest, about 1 - (c/k) pdot_z (Hunt–Crossley
//           damping c d) while pressing in or leaving slowly, and goes to 0 instead of pulling: its power is <= 0)
//   tangent f_t = -mu N v_t / sqrt(|v_t|² + s²)  (Coulomb regularised over the slip speed s: power <= 0).
struct FloorContact {
  double height = 0;        // m
  double stiffness = 0;     // k, N/m per point, >= 0
  double damping = 0;       // c, N s/m² (per metre of depth), >= 0
  double friction = 0;      // mu >= 0
  double slipSpeed = 0.05;  // s, m/s, > 0
};

struct ContactPoint {
  int frame = 0;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // in the frame
};

class TreePenalty : public StateForce {
 public:
  // Validates against the tree (dof/frame indices, lo < hi, k >= 0, ...); throws BadInput.
  TreePenalty(const Tree& t, std::vector<JointLimit> limits, double limitStiffness, std::vector<ContactPoint> points,
              FloorContact floor);

  VectorXd force(const Tree& t) const override;
  double potential(const Tree& t) const override;
  // Exact (the floor's through the second derivatives of the frame poses, eq. 4).
  void addJacobian(const Tree& t, double a, double b, Eigen::MatrixXd& J) const override;

  double normalForce(const Tree& t) const;  // sum of N over the points (N), for diagnostics
  const std::vector<ContactPoint>& points() const { return points_; }

 private:
  struct PointState {
    Eigen::Vector3d p, v;  // world position and velocity
    double depth;
  };
  PointState pointState(const Tree& t, const ContactPoint& c) const;
  // The contact force on one point and its partials in p and pdot (world, 3 x 3).
  Eigen::Vector3d contactForce(const PointState& s, Eigen::Matrix3d* dp, Eigen::Matrix3d* dv) const;

  std::vector<JointLimit> limits_;
  double k_;
  std::vector<ContactPoint> points_;
  FloorContact floor_;
};

}  // namespace varsim::tree

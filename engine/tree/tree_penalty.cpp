// engine/tree/tree_penalty.cpp — soft joint limits and the penalty floor contact (see tree_penalty.h). Generalized
// forces are J^T f with J the point Jacobian from the frame-pose derivatives of eq. (3).
#include "engine/tree/tree_penalty.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/sim/errors.h"

namespace varsim::tree {

namespace {

bool nonNegative(double x) { return std::isfinite(x) && x >= 0; }

// Smooth ramp r(u) = eps softplus(u / eps), which is max(0, u) away from |u| ~ eps, with r' = logistic(u / eps)
// and r'' = r' (1 - r') / eps. Penalties built on it are smooth, so Newton meets no kink where a joint reaches
// its limit or a point touches the floor (with max(0, u) it stalled there on stiff floors).
struct Ramp {
  double r = 0, d1 = 0, d2 = 0;
};
Ramp ramp(double u, double eps) {
  const double x = u / eps;
  if (x < -40) return {};  // exp(-40) eps: below round-off of anything it is added to
  const double L = 1 / (1 + std::exp(-x));
  return {eps * (x > 40 ? x : std::log1p(std::exp(x))), L, L * (1 - L) / eps};
}
double logistic(double x) { return 1 / (1 + std::exp(-x)); }
double softplus(double x) { return x > 40 ? x : std::log1p(std::exp(x)); }

constexpr double kLimitWidth = 0.01;  // rad (or m): the corner of the joint-limit ramp
constexpr double kFloorWidth = 1e-3;  // m: the corner of the floor ramp
constexpr double kSharp = 20;         // the damping factor's clip is smoothed over 1/20 of its range

// Limit excess ramps above hi and below lo: V = k/2 (r_hi² + r_lo²).
Ramp above(const JointLimit& l, double q) { return ramp(q - l.hi, kLimitWidth); }
Ramp below(const JointLimit& l, double q) { return ramp(l.lo - q, kLimitWidth); }

}  // namespace

TreePenalty::TreePenalty(const Tree& t, std::vector<JointLimit> limits, double limitStiffness,
                         std::vector<ContactPoint> points, FloorContact floor)
    : limits_(std::move(limits)), k_(limitStiffness), points_(std::move(points)), floor_(floor) {
  for (const JointLimit& l : limits_) {
    if (l.dof < 0 || l.dof >= t.dof() || !(l.lo < l.hi) || !std::isfinite(l.lo) || !std::isfinite(l.hi))
      throw BadInput("tree penalty: limit of variable " + std::to_string(l.dof) + " needs a dof in [0, " +
                     std::to_string(t.dof() - 1) + "] and finite lo < hi");
  }
  for (const ContactPoint& c : points_) {
    if (c.frame < 0 || c.frame >= t.frames() || !c.point.allFinite())
      throw BadInput("tree penalty: contact frame " + std::to_string(c.frame) + " out of range or point not finite");
  }
  if (!nonNegative(k_) || !nonNegative(floor_.stiffness) || !nonNegative(floor_.damping) ||
      !nonNegative(floor_.friction) || !(floor_.slipSpeed > 0) || !std::isfinite(floor_.height))
    throw BadInput("tree penalty: stiffness, damping and friction must be finite >= 0, slip speed > 0");
}

TreePenalty::PointState TreePenalty::pointState(const Tree& t, const ContactPoint& c) const {
  const Matrix4d g = t.g(c.frame);
  const Vector6d vb = t.vb(c.frame);  // (omega, v) in the frame: pdot = R (v + omega x r)
  PointState s;
  s.p = g.topLeftCorner<3, 3>() * c.point + g.topRightCorner<3, 1>();
  s.v = g.topLeftCorner<3, 3>() * (vb.tail<3>() + vb.head<3>().cross(c.point));
  s.depth = floor_.height - s.p.z();
  return s;
}

Eigen::Vector3d TreePenalty::contactForce(const PointState& s, Eigen::Matrix3d* dp, Eigen::Matrix3d* dv) const {
  if (dp) dp->setZero();
  if (dv) dv->setZero();
  const Ramp d = ramp(s.depth, kFloorWidth);
  const double k = floor_.stiffness;
  if (d.d1 == 0 || k == 0) return Eigen::Vector3d::Zero();
  // Elastic N_e = k d d' = -dV/dp_z; damping factor 1 + S(g) - S(1), g = 1 - (c/k) pdot_z, S = softplus(20 g)/20:
  // 1 at rest, ~ -(c/k) pdot_z when pressing in or leaving slowly, and N -> 0 instead of pulling when leaving fast.
  const double Ne = k * d.r * d.d1, dNe = k * (d.d1 * d.d1 + d.r * d.d2);  // dNe/d depth, d depth/dp_z = -1
  const double g = 1 - floor_.damping / k * s.v.z(), factor = 1 + (softplus(kSharp * g) - softplus(kSharp)) / kSharp;
  const double N = Ne * factor, dNdz = -dNe * factor, dNdvz = -Ne * logistic(kSharp * g) * floor_.damping / k;
  const Eigen::Vector2d vt = s.v.head<2>();
  const double w = std::sqrt(vt.squaredNorm() + floor_.slipSpeed * floor_.slipSpeed), mu = floor_.friction;
  Eigen::Vector3d f;
  f << -mu * N * vt / w, N;
  if (dp) dp->col(2) << -mu * dNdz * vt / w, dNdz;
  if (dv) {
    dv->topLeftCorner<2, 2>() = -mu * N * (Eigen::Matrix2d::Identity() / w - vt * vt.transpose() / (w * w * w));
    dv->col(2) << -mu * dNdvz * vt / w, dNdvz;
  }
  return f;
}

VectorXd TreePenalty::force(const Tree& t) const {
  VectorXd F = VectorXd::Zero(t.dof());
  for (const JointLimit& l : limits_) {
    const Ramp a = above(l, t.q()(l.dof)), b = below(l, t.q()(l.dof));
    F(l.dof) -= k_ * (a.r * a.d1 - b.r * b.d1);
  }
  for (const ContactPoint& c : points_) {
    const PointState s = pointState(t, c);
    if (ramp(s.depth, kFloorWidth).d1 == 0) continue;
    const Eigen::Vector3d f = contactForce(s, nullptr, nullptr);
    for (int i : t.dynamicAncestors(c.frame)) F(i) += pointDerivative(t, c.frame, c.point, i).dot(f);
  }
  return F;
}

double TreePenalty::potential(const Tree& t) const {
  double V = 0;
  for (const JointLimit& l : limits_) {
    const double a = above(l, t.q()(l.dof)).r, b = below(l, t.q()(l.dof)).r;
    V += 0.5 * k_ * (a * a + b * b);
  }
  for (const ContactPoint& c : points_)
    V += 0.5 * floor_.stiffness * std::pow(ramp(pointState(t, c).depth, kFloorWidth).r, 2);
  return V;
}

void TreePenalty::addJacobian(const Tree& t, double a, double b, Eigen::MatrixXd& J) const {
  for (const JointLimit& l : limits_) {
    const Ramp u = above(l, t.q()(l.dof)), v = below(l, t.q()(l.dof));
    J(l.dof, l.dof) -= a * k_ * (u.d1 * u.d1 + u.r * u.d2 + v.d1 * v.d1 + v.r * v.d2);
  }
  for (const ContactPoint& c : points_) {
    const PointState s = pointState(t, c);
    if (ramp(s.depth, kFloorWidth).d1 == 0) continue;
    Eigen::Matrix3d dp, dv;
    const Eigen::Vector3d f = contactForce(s, &dp, &dv);
    // F_i = P_i . f with P_i = dp/dq_i, pdot = sum_l P_l qdot_l; with H_ij = d²p/dq_i dq_j:
    //   dF_i/dq_j = H_ij . f + P_i . (df/dp P_j + df/dpdot sum_l H_jl qdot_l),
    //   dF_i/dqdot_j = P_i . df/dpdot P_j.
    const std::vector<int>& anc = t.dynamicAncestors(c.frame);
    const auto n = Eigen::Index(anc.size());
    const Eigen::Vector4d r(c.point.x(), c.point.y(), c.point.z(), 1);
    Eigen::Matrix3Xd P(3, n), Pdot = Eigen::Matrix3Xd::Zero(3, n);  // Pdot_j = sum_l H_jl qdot_l
    Eigen::MatrixXd Hf(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      P.col(i) = pointDerivative(t, c.frame, c.point, anc[size_t(i)]);
      for (Eigen::Index j = 0; j < n; ++j) {
        const Eigen::Vector3d H = (t.ddg(c.frame, anc[size_t(i)], anc[size_t(j)]) * r).head<3>();
        Hf(i, j) = H.dot(f);
        Pdot.col(i) += H * t.qdot()(anc[size_t(j)]);
      }
    }
    const Eigen::MatrixXd block = a * (Hf + P.transpose() * (dp * P + dv * Pdot)) + b * P.transpose() * dv * P;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) J(anc[size_t(i)], anc[size_t(j)]) += block(i, j);
  }
}

double TreePenalty::normalForce(const Tree& t) const {
  double N = 0;
  for (const ContactPoint& c : points_) N += contactForce(pointState(t, c), nullptr, nullptr).z();
  return N;
}

}  // namespace varsim::tree

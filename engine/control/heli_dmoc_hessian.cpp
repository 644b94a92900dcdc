// engine/control/heli_dmoc_hessian.cpp — the exact Hessian of the helicopter DMOC Lagrangian (heli_dmoc.h): the LGVI
// blocks of lgvi_hessian.h plus the helicopter's own node wrench (gravity in the chart, thrust F(gamma) u), the
// clearance rows (box distance and chart) and the effort cost. The end-of-step drag adds nothing: with tau(h w) w = w,
// Tr f^+ = -(c_w w, c_v v) is linear in xi (contact is off in the rows, see heli_dmoc.h).
#include <vector>

#include "engine/control/block_banded_hessian.h"
#include "engine/control/heli_dmoc.h"
#include "engine/lie/so3.h"

namespace varsim {
namespace {

// Second derivative of rockDistance in p (world): outside the box, (P_a - n n^T)/d in the box axes with P_a the
// projector on the axes where p lies beyond the faces (0 on a face, edge direction free on an edge); inside, the
// distance is the largest |local_i| - half_i: piecewise linear, 0.
Matrix3d rockDistanceHessian(const RockBox& b, const Vector3d& p) {
  const double c = std::cos(b.yaw), s = std::sin(b.yaw);
  Matrix3d Rz;
  Rz << c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0;
  const Vector3d local = Rz.transpose() * (p - b.center);
  const Vector3d q = local.cwiseAbs() - b.halfExtents;
  if (!(q.maxCoeff() > 0.0)) return Matrix3d::Zero();
  const Vector3d out = q.cwiseMax(0.0);
  const double d = out.norm();
  const Vector3d n = out.cwiseProduct(local.cwiseSign()) / d;
  Matrix3d P = Matrix3d::Zero();
  for (int i = 0; i < 3; ++i) P(i, i) = q[i] > 0.0 ? 1.0 : 0.0;
  return Rz * ((P - n * n.transpose()) / d) * Rz.transpose();
}

// d2 n(gamma)/dgamma_i dgamma_j for n = (sin p cos r, -sin r, cos p cos r) (Helicopter::thrustDirection).
void thrustDerivatives(double p, double r, Vector3d d[2], Vector3d dd[3]) {
  const double sp = std::sin(p), cp = std::cos(p), sr = std::sin(r), cr = std::cos(r);
  d[0] = Vector3d(cp * cr, 0.0, -sp * cr);
  d[1] = Vector3d(-sp * sr, -cr, -cp * sr);
  dd[0] = Vector3d(-sp * cr, 0.0, -cp * cr);  // pp
  dd[1] = Vector3d(-cp * sr, 0.0, sp * sr);   // pr
  dd[2] = Vector3d(-sp * cr, sr, -cp * cr);   // rr
}

}  // namespace

// Accumulated per block (16x16, symmetric) and per pair (theta_{k+1} x (theta_k, w_k)), emitted as a fixed lower
// triangle: within a block the (theta, x, w, v) 12x12 and the 4x4 of u; across blocks theta_{k+1} against theta_k, w_k.
void HeliDmoc::hessian(const Eigen::VectorXd& x, double objFactor, const Eigen::VectorXd& lambda,
                       std::vector<Eigen::Triplet<double>>& out) const {
  const HeliDmocSpec& s = spec_;
  const int N = s.N;
  const double h = s.h, m = s.heli.mass;
  BlockBandedHessian H(N, kBlock, {{0, 12}, {12, 16}});
  std::vector<RotationJet> chart(size_t(N + 1));
  for (int k = 0; k <= N; ++k) chart[size_t(k)] = rotationJet(Retraction::Exp, x.segment<3>(kBlock * k));
  const Vector3d G(0.0, 0.0, -m * s.heli.gravity), hub = heli_.hubPosition();
  for (int k = 0; k < N; ++k) {
    Eigen::MatrixXd& Dk = H.node(k);
    const int ck = kBlock * k;
    const Vector6d xi = twist(x, k), l10 = lambda.segment<6>(12 * k) / m, l9 = lambda.segment<6>(12 * k + 6);
    // eq. (10) rows / m: C(h w)^T J w, m v  -  mu^-(xi_{k-1})  -  h (gravity(R_k) + F(gamma_k) u_k)  -  h Tr f^+.
    Dk.block<6, 6>(6, 6) += lgviMomentumHessian(inertia_, s.lgvi, h, xi, l10);
    if (k > 0) H.node(k - 1).block<6, 6>(6, 6) -= lgviNextMomentumHessian(inertia_, s.lgvi, h, twist(x, k - 1), l10);
    Dk.block<3, 3>(0, 0) -= h * chartBilinearHessian(G, Rbar_[size_t(k)], chart[size_t(k)], l10.tail<3>());
    const RotorState u = control(x, k);
    Vector3d dn[2], ddn[3];
    thrustDerivatives(u.pitch, u.roll, dn, ddn);
    const Vector3d c = l10.head<3>().cross(hub) + l10.tail<3>();  // lam^T (hub x n, n) = n . c
    const Eigen::Vector4d& sc = uScale_;
    Eigen::Matrix4d Hu = Eigen::Matrix4d::Zero();  // scaled (u_c, u_psi, gamma_p, gamma_r)
    Hu(0, 2) = Hu(2, 0) = sc[0] * sc[2] * dn[0].dot(c);
    Hu(0, 3) = Hu(3, 0) = sc[0] * sc[3] * dn[1].dot(c);
    Hu(2, 2) = u.collective * sc[2] * sc[2] * ddn[0].dot(c);
    Hu(2, 3) = Hu(3, 2) = u.collective * sc[2] * sc[3] * ddn[1].dot(c);
    Hu(3, 3) = u.collective * sc[3] * sc[3] * ddn[2].dot(c);
    Dk.block<4, 4>(12, 12) -= h * Hu;
    Dk.block<4, 4>(12, 12).diagonal() += objFactor * 2.0 * h * W_;  // effort h sum (u - trim)^T W (u - trim)
    // eq. (9) rows.
    H.addPoseRows(k, lgviPoseRowsHessian(s.lgvi, h, Rbar_[size_t(k)], x.segment<3>(ck), xi, Rbar_[size_t(k + 1)],
                                         x.segment<3>(ck + kBlock), l9));
  }
  for (int k = 2; k <= lastClearanceNode() && s.withWorld; ++k) {
    Eigen::MatrixXd& Dk = H.node(k);
    const RotationJet& J = chart[size_t(k)];
    const Matrix3d& Rb = Rbar_[size_t(k)];
    const se3::Pose gk = pose(x, k);
    int r = clearanceRow0() + (k - 2) * rowsPerNode();
    for (const BoundingSphere& sp : s.spheres) {
      Eigen::Matrix3d dp;  // columns d p / d theta_i = Rbar B_i c
      for (int i = 0; i < 3; ++i) dp.col(i) = Rb * J.d[size_t(i)] * sp.center;
      const Vector3d p = gk.act(sp.center);
      for (const RockBox& rock : s.world.rocks()) {
        const double l = lambda[r++];
        Vector3d n;
        rockDistance(rock, p, n);
        const Matrix3d Hd = rockDistanceHessian(rock, p);
        Dk.block<3, 3>(0, 0) += l * (chartBilinearHessian(n, Rb, J, sp.center) + dp.transpose() * Hd * dp);
        Dk.block<3, 3>(3, 0) += l * Hd * dp;
        Dk.block<3, 3>(0, 3) += l * dp.transpose() * Hd;
        Dk.block<3, 3>(3, 3) += l * Hd;
      }
    }
    for (const Vector3d& p : heli_.contactPoints())
      Dk.block<3, 3>(0, 0) += lambda[r++] * chartBilinearHessian(Vector3d::UnitZ(), Rb, J, p);
  }
  H.emit(out);
}

}  // namespace varsim

// engine/control/boat_dmoc_hull_jet.cpp — the boat's wrench routines (boat_wrench_generic.h) on jets in a segment's
// variables (boat_dmoc_hull_jet.h): the node exposures, water velocities and immersion at g_k, the end pose
// g_{k+1} = (R_k tau(h w), x_k + h R_k v) and its hydrostatics, the drag and wind at xi^+ = (w, tau^T v), rotated by
// Tr = diag(tau, tau) into the axes of node k (lgvi_se3.h lgviEndOfStepWrench). The pose-only parts run on narrower
// jets: M = 4 in still water (attitude and height; nothing depends on the horizontal position), M = 6 under waves.
#include "engine/control/boat_dmoc_hull_jet.h"

#include "engine/control/lgvi_hessian.h"
#include "engine/models/boat_wrench_generic.h"

namespace varsim {
namespace {

// left * J.R * right on jets whose chart variables sit at 0..2, the chart argument being scale * variable + offset.
template <int N>
Mat3<Jet2<N>> rotationJets(const RotationJet& J, const Matrix3d& left, const Matrix3d& right, double scale, int off) {
  Mat3<Jet2<N>> R;
  const Matrix3d R0 = left * J.R * right;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = Jet2<N>(R0(i, j)), R(i, j).constant = false;
  for (int a = 0; a < 3; ++a) {
    const Matrix3d d = scale * left * J.d[size_t(a)] * right;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R(i, j).g[off + a] = d(i, j);
    for (int b = 0; b < 3; ++b) {
      const Matrix3d dd = scale * scale * left * J.second(a, b) * right;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) R(i, j).hess(off + a, off + b) = dd(i, j);
    }
  }
  return R;
}

template <int N>
Vec3<Jet2<N>> variables(const Vector3d& x, int off) {
  return {Jet2<N>::variable(x.x(), off), Jet2<N>::variable(x.y(), off + 1), Jet2<N>::variable(x.z(), off + 2)};
}

// A position on pose jets (attitude at 0..2): N = 6 or 12 all three coordinates at 3..5; N = 4 or 10 the height alone
// at 3 (still water: the hull's exposures and hydrostatics do not depend on the horizontal position).
template <int N>
Vec3<Jet2<N>> positionJets(const Vector3d& x) {
  if constexpr (N == 6 || N == 12) return variables<N>(x, 3);
  else return {Jet2<N>(x.x()), Jet2<N>(x.y()), Jet2<N>::variable(x.z(), 3)};
}

// A jet in N variables laid out as positionJets (N = 4 or 10: no x_k,x, x_k,y) as one in K = 6 or 12 variables
// (theta_k, x_k[, w, v]) = block offsets 0..K-1.
template <int K, int N>
Jet2<K> toBlock(const Jet2<N>& a) {
  if constexpr (N == K) {
    return a;
  } else {
    Jet2<K> r(a.v);
    if (a.constant) return r;
    r.constant = false;
    const auto at = [](int i) { return i < 3 ? i : i + 2; };
    for (int i = 0; i < N; ++i) {
      r.g[at(i)] = a.g[i];
      for (int j = 0; j <= i; ++j) r.hess(at(i), at(j)) = a.hess(i, j);
    }
    return r;
  }
}

template <int M, int N, int R, int C>
Eigen::Matrix<Jet2<N>, R, C> embedAll(const Eigen::Matrix<Jet2<M>, R, C>& a) {
  return a.unaryExpr([](const Jet2<M>& e) { return Jet2<N>::template embed<M>(e); });
}

// Gravity + buoyancy at the end pose (R1, x1) (jets in z), from the six faces (Boat::faces: the volume and its moment
// are exact for any patch size): evaluated on M-variable jets in the world perturbation (exp(phi^) R0, x0 + delta) about
// its value and composed with phi(z) = vee((Q - Q^T)/2), Q = R1 R0^T (the log of Q to second order at Q = I), and
// delta(z) = x1 - x0.
template <int M, int N>
Vec6<Jet2<N>> endHydrostaticWrench(const Boat& boat, const WaterSurface& water, double t, const Mat3<Jet2<N>>& R1,
                                   const Vec3<Jet2<N>>& x1) {
  using JM = Jet2<M>;
  using JN = Jet2<N>;
  const Matrix3d R0 = R1.unaryExpr([](const JN& e) { return e.v; });
  const Vector3d x0 = x1.unaryExpr([](const JN& e) { return e.v; });
  const Mat3<JM> R =
      rotationJets<M>(rotationJet(Retraction::Exp, Vector3d::Zero()), Matrix3d::Identity(), R0, 1.0, 0);
  const Vec3<JM> x = positionJets<M>(x0);
  HydrostaticStateT<JM> hydro;
  computeHydrostaticsT(boat.faces(), R, x, water, t, hydro);
  BoatWrenchT<JM> w;
  boat.hydrostaticWrenchT(R, x, hydro, w);
  const Mat3<JN> Q = R1 * R0.transpose();
  std::array<JN, size_t(M)> p;
  p[0] = 0.5 * (Q(2, 1) - Q(1, 2)), p[1] = 0.5 * (Q(0, 2) - Q(2, 0)), p[2] = 0.5 * (Q(1, 0) - Q(0, 1));
  if constexpr (M == 6) p[3] = x1.x() - x0.x(), p[4] = x1.y() - x0.y(), p[5] = x1.z() - x0.z();
  else p[3] = x1.z() - x0.z();
  const Vec6<JM> f = w.hydrostatic();
  Vec6<JN> out;
  for (int i = 0; i < 6; ++i) out[i] = compose<M, N>(f[i], p);
  return out;
}

// M pose variables (theta_k, x_k or its height), N segment variables (those and w, v).
template <int M, int N>
BoatHullJets hullJets(const Boat& boat, const WaterSurface& water, const LgviOptions& o, double h, double tk,
                      const Matrix3d& Rbar, const Vector3d& theta, const Vector3d& x, const Vector6d& xi) {
  using JM = Jet2<M>;
  using JN = Jet2<N>;
  BoatHullJets out;
  // Node k in (theta_k, x_k): exposures, water velocity and immersion frozen there.
  const Mat3<JM> Rk = rotationJets<M>(rotationJet(Retraction::Exp, theta), Rbar, Matrix3d::Identity(), 1.0, 0);
  const Vec3<JM> xk = positionJets<M>(x);
  HydrostaticStateT<JM> nodeM;
  computeHydrostaticsT(boat.patches(), Rk, xk, water, tk, nodeM, true);
  const std::vector<Vec3<JM>> etaM = boat.waterVelocitiesT(Rk, xk, tk, water, nodeM);
  out.immersion[0] = toBlock<6>(boat.thrusterImmersionT(Rk, xk, boat.thrusterRight(), water, tk));
  out.immersion[1] = toBlock<6>(boat.thrusterImmersionT(Rk, xk, boat.thrusterLeft(), water, tk));
  HydrostaticStateT<JN> node;  // the node data in the segment's variables (built in place: perf, no zero fill first)
  node.patches.reserve(nodeM.patches.size());
  std::vector<Vec3<JN>> eta;
  eta.reserve(etaM.size());
  for (size_t i = 0; i < nodeM.patches.size(); ++i) {
    const PatchExposureT<JM>& a = nodeM.patches[i];
    node.patches.push_back({JN::embed(a.wetArea), embedAll<M, N>(a.wetCentroid), JN::embed(a.dryArea),
                            embedAll<M, N>(a.dryCentroid), Matrix3d::Zero()});
    eta.push_back(embedAll<M, N>(etaM[i]));
  }

  // The segment (lgviNextPose on SO(3)xR^3): T = tau(h w) in w = variables M..M+2, v = M+3..M+5.
  const Mat3<JN> R = embedAll<M, N>(Rk);
  const Mat3<JN> T =
      rotationJets<N>(rotationJet(o.retraction, h * xi.head<3>()), Matrix3d::Identity(), Matrix3d::Identity(), h, M);
  const Vec3<JN> w = variables<N>(xi.head<3>(), M), v = variables<N>(xi.tail<3>(), M + 3);
  const Mat3<JN> R1 = R * T;
  const Vec3<JN> x1 = positionJets<N>(x) + h * (R * v);
  Vec6<JN> xiPlus;
  xiPlus << w, T.transpose() * v;

  BoatWrenchT<JN> drag;
  boat.patchWrenchesT(R1, xiPlus, node, eta, drag);
  const Vec6<JN> f = endHydrostaticWrench<M, N>(boat, water, tk + h, R1, x1) + drag.hydrodynamic + drag.wind;
  const Vec3<JN> torque = T * f.template head<3>(), force = T * f.template tail<3>();
  for (int i = 0; i < 3; ++i)
    out.endWrench[size_t(i)] = toBlock<12>(torque[i]), out.endWrench[size_t(3 + i)] = toBlock<12>(force[i]);
  return out;
}

}  // namespace

BoatHullJets boatHullJets(const Boat& boat, const WaterSurface& water, const LgviOptions& o, double h, double tk,
                          const Matrix3d& Rbar, const Vector3d& theta, const Vector3d& x, const Vector6d& xi) {
  if (water.still()) return hullJets<4, 10>(boat, water, o, h, tk, Rbar, theta, x, xi);
  return hullJets<6, 12>(boat, water, o, h, tk, Rbar, theta, x, xi);
}

}  // namespace varsim

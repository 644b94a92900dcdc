// engine/control/boat_dmoc_hull_jet.cpp — the boat's still-water hull wrench and thruster immersion on second-order jets
// (boat_dmoc_hull_jet.h): wet polygons of the patches at node k, the clipped faces at node k+1, the drag, wind and
// hydrostatic wrench of boat.h, rotated by Tr into the axes of node k.
#include "engine/control/boat_dmoc_hull_jet.h"

#include <algorithm>
#include <vector>

#include "engine/control/lgvi_hessian.h"

namespace varsim {
namespace {

using J10 = Jet2<10>;
using J4 = Jet2<4>;
template <int N>
using JetMat3 = std::array<JetVec3<N>, 3>;  // rows

// left * J.R on jets in the chart variables at offsets off..off+2, the chart argument being scale * variable.
template <int N>
JetMat3<N> rotationJets(const RotationJet& J, const Matrix3d& left, double scale, int off) {
  JetMat3<N> R;
  const Matrix3d R0 = left * J.R;
  std::array<Matrix3d, 3> d;
  for (int a = 0; a < 3; ++a) d[size_t(a)] = scale * left * J.d[size_t(a)];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Jet2<N>& e = R[size_t(i)][size_t(j)];
      e.v = R0(i, j);
      for (int a = 0; a < 3; ++a) {
        e.g[off + a] = d[size_t(a)](i, j);
        for (int b = 0; b < 3; ++b) e.H(off + a, off + b) = scale * scale * (left * J.second(a, b))(i, j);
      }
    }
  return R;
}

// The corners of a rectangle patch (HullPatch order) and the part of it where s <= 0, as a polygon of jets with the
// value of s at each vertex (the crossing points lie on s = 0 for every value of the variables: their s is 0).
template <int N>
struct JetPolygon {
  JetVec3<N> p[5];
  Jet2<N> s[5];
  int n = 0;
};

template <int N>
void clipRectangle(const HullPatch& hp, const std::array<Jet2<N>, 4>& s, JetPolygon<N>& out) {
  const Vector3d c[4] = {hp.corner, hp.corner + hp.edgeU, hp.corner + hp.edgeU + hp.edgeV, hp.corner + hp.edgeV};
  out.n = 0;
  for (int k = 0; k < 4; ++k) {  // Sutherland-Hodgman, as hull_hydrostatics.cpp's clip
    const int prev = (k + 3) % 4;
    const bool wetPrev = s[size_t(prev)].v <= 0.0, wetCur = s[size_t(k)].v <= 0.0;
    if (wetPrev != wetCur) {
      const Jet2<N> t = s[size_t(prev)] / (s[size_t(prev)] - s[size_t(k)]);
      out.p[out.n] = jetVec<N>(c[prev]) + t * jetVec<N>(c[k] - c[prev]);
      out.s[out.n++] = Jet2<N>(0.0);
    }
    if (wetCur) out.p[out.n] = jetVec<N>(c[k]), out.s[out.n++] = s[size_t(k)];
  }
}

// Signed area of the triangle (p0, p1, p2) along the constant normal n.
template <int N>
Jet2<N> triangleArea(const Vector3d& n, const JetVec3<N>& p0, const JetVec3<N>& p1, const JetVec3<N>& p2) {
  return 0.5 * dot(n, cross(p1 - p0, p2 - p0));
}

template <int N>
std::array<Jet2<N>, 4> cornerHeights(const HullPatch& hp, const JetVec3<N>& z, const Jet2<N>& d) {
  const Vector3d c[4] = {hp.corner, hp.corner + hp.edgeU, hp.corner + hp.edgeU + hp.edgeV, hp.corner + hp.edgeV};
  std::array<Jet2<N>, 4> s;
  for (int k = 0; k < 4; ++k) s[size_t(k)] = dot(c[k], z) + d;
  return s;
}

// What the drag and wind see of the exposures frozen at node k (jets in theta_k, x_k,z).
struct NodeExposure {
  J4 wetArea;
  JetVec3<4> wetFirst;                  // sum A c
  std::array<std::array<J4, 3>, 3> G;   // sum F F^T / A (the drag torque's quadratic part)
  struct Dry {
    J4 k;                               // 1/2 rho_a C_d dryArea
    JetVec3<4> r;                       // dry centroid
    Vector3d n;
    bool moves;                         // the waterline crosses the patch (else k and r are constants)
  };
  std::vector<Dry> dry;
};

NodeExposure nodeExposure(const Boat& boat, const JetVec3<4>& z, const J4& d) {
  const BoatSettings& bs = boat.settings();
  const double kappa = 0.5 * bs.airDensity * bs.windDrag;
  const bool windy = bs.wind.norm() > 0.0;
  NodeExposure e;
  Matrix3d Gc = Matrix3d::Zero();
  for (const HullPatch& hp : boat.patches()) {
    const std::array<J4, 4> s = cornerHeights(hp, z, d);
    int wet = 0;
    double smin = s[0].v;
    for (const J4& sk : s) wet += sk.v <= 0.0, smin = std::min(smin, sk.v);
    if (!(smin < 0.0)) wet = 0;  // computeHydrostatics clips only a patch with a corner below the water
    if (wet == 4) {
      e.wetArea += J4(hp.area);
      e.wetFirst = e.wetFirst + jetVec<4>(hp.area * hp.center);
      Gc += hp.area * hp.center * hp.center.transpose();
      continue;
    }
    J4 A(0.0);
    JetVec3<4> F = jetVec<4>(Vector3d::Zero());
    if (wet > 0) {
      JetPolygon<4> P;
      clipRectangle(hp, s, P);
      for (int k = 1; k + 1 < P.n; ++k) {
        const J4 a = triangleArea(hp.normal, P.p[0], P.p[k], P.p[k + 1]);
        A += a;
        F = F + (a * (1.0 / 3.0)) * (P.p[0] + P.p[k] + P.p[k + 1]);
      }
    }
    if (A.v > 0.0) {  // (a degenerate sliver of zero area is dry, as computeHydrostatics' clamp makes it)
      e.wetArea += A;
      e.wetFirst = e.wetFirst + F;
      const J4 invA = reciprocal(A);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) e.G[size_t(i)][size_t(j)] += F[size_t(i)] * F[size_t(j)] * invA;
    } else {
      A = J4(0.0), F = jetVec<4>(Vector3d::Zero());
    }
    const J4 dryArea = J4(hp.area) - A;
    if (!windy || !(dryArea.v > 1e-12 * hp.area)) continue;
    const J4 invDry = reciprocal(dryArea);
    e.dry.push_back({kappa * dryArea, invDry * (jetVec<4>(hp.area * hp.center) - F), hp.normal, wet > 0});
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e.G[size_t(i)][size_t(j)] += J4(Gc(i, j));
  return e;
}

// s_eps(sigma) of boat.cpp's wind exposure: max(0, sigma) rounded into (sigma + eps)^2 / (4 eps) over |sigma| < eps.
J10 windExposureJet(const J10& sigma, double eps) {
  if (eps <= 0.0) return sigma.v > 0.0 ? sigma : J10(0.0);
  if (sigma.v >= eps) return sigma;
  if (sigma.v <= -eps) return J10(0.0);
  const J10 a = sigma + eps;
  return (0.25 / eps) * (a * a);
}

// Gravity + buoyancy at the end pose (body axes of g_{k+1}), from the faces clipped by z+ . r + d+ <= 0.
void hydrostaticJets(const Boat& boat, const JetVec3<10>& z, const J10& d, JetVec3<10>& torque, JetVec3<10>& force) {
  const BoatSettings& bs = boat.settings();
  const double rg = bs.waterDensity * bs.gravity;
  J10 V(0.0);
  JetVec3<10> m = jetVec<10>(Vector3d::Zero());
  for (const HullPatch& face : boat.hull().patches(1e300)) {
    const std::array<J10, 4> s = cornerHeights(face, z, d);
    if (!(std::min({s[0].v, s[1].v, s[2].v, s[3].v}) < 0.0)) continue;
    JetPolygon<10> P;
    clipRectangle(face, s, P);
    J10 intS(0.0), intS2(0.0);
    JetVec3<10> intSr = jetVec<10>(Vector3d::Zero());
    for (int k = 1; k + 1 < P.n; ++k) {  // s linear on each triangle: int f g = A/12 (sum f_i g_i + sum f sum g)
      const int t[3] = {0, k, k + 1};
      const J10 a = triangleArea(face.normal, P.p[0], P.p[k], P.p[k + 1]);
      J10 sumS(0.0), sumS2(0.0);
      JetVec3<10> sumP = jetVec<10>(Vector3d::Zero()), sumSP = sumP;
      for (int i : t) {
        sumS += P.s[i];
        sumS2 += P.s[i] * P.s[i];
        sumP = sumP + P.p[i];
        sumSP = sumSP + P.s[i] * P.p[i];
      }
      intS += (a * (1.0 / 3.0)) * sumS;
      intS2 += (a * (1.0 / 12.0)) * (sumS2 + sumS * sumS);
      intSr = intSr + (a * (1.0 / 12.0)) * (sumSP + sumS * sumP);
    }
    const J10 zn = dot(face.normal, z);
    V += zn * intS;
    m = m + zn * (intSr - (0.5 * intS2) * z);
  }
  torque = rg * cross(m, z);
  force = (rg * V - bs.mass * bs.gravity) * z;
}

}  // namespace

BoatHullJets boatHullJets(const Boat& boat, const WaterSurface& water, const LgviOptions& o, double h,
                          const Matrix3d& Rbar, const Vector3d& theta, double xz, const Vector6d& xi,
                          const Vector6d& l) {
  const BoatSettings& bs = boat.settings();
  BoatHullJets out;
  // Node k: R_k = Rbar exp(theta^) in (theta, x_z) = variables 0..3.
  const RotationJet chart = rotationJet(Retraction::Exp, theta);
  const JetMat3<4> Rk4 = rotationJets<4>(chart, Rbar, 1.0, 0);
  const JetVec3<4>& zk = Rk4[2];  // R_k^T e_z
  const J4 dk = J4::variable(xz, 3);
  const Vector3d cj[2] = {boat.thrusterRight(), boat.thrusterLeft()};
  for (int j = 0; j < 2; ++j) {  // iota = clamp((0.05 - (z . c + x_z)) / 0.1, 0, 1) in still water
    const J4 ramp = (0.05 - (dot(cj[j], zk) + dk)) * 10.0;
    out.immersion[size_t(j)] = ramp.v > 0.0 && ramp.v < 1.0 ? ramp : J4(std::clamp(ramp.v, 0.0, 1.0));
  }
  const NodeExposure e = nodeExposure(boat, zk, dk);

  // The segment: T = tau(h w) in w = variables 4..6, v = 7..9; R_{k+1} = R_k T, x_{k+1},z = x_z + h (R_k v)_z.
  JetMat3<10> Rk;
  for (int i = 0; i < 3; ++i) Rk[size_t(i)] = embed<10>(Rk4[size_t(i)]);
  const JetMat3<10> T = rotationJets<10>(rotationJet(o.retraction, h * xi.head<3>()), Matrix3d::Identity(), h, 4);
  JetVec3<10> w, v;
  for (int i = 0; i < 3; ++i) w[size_t(i)] = J10::variable(xi[i], 4 + i), v[size_t(i)] = J10::variable(xi[3 + i], 7 + i);
  const auto TtRkt = [&](const Vector3d& a) {  // R_{k+1}^T a = T^T (R_k^T a)
    JetVec3<10> b = jetVec<10>(Vector3d::Zero()), c = b;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) b[size_t(k)] += a[i] * Rk[size_t(i)][size_t(k)];
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[size_t(j)] += T[size_t(k)][size_t(j)] * b[size_t(k)];
    return c;
  };
  JetVec3<10> vPlus = jetVec<10>(Vector3d::Zero());  // T^T v
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) vPlus[size_t(j)] += T[size_t(k)][size_t(j)] * v[size_t(k)];
  const JetVec3<10> zPlus = TtRkt(Vector3d::UnitZ());
  const J10 dPlus = J10::embed(dk) + h * dot(Rk[2], v);

  JetVec3<10> torque, force;
  hydrostaticJets(boat, zPlus, dPlus, torque, force);

  // eq. (15) drag on the frozen wet exposures: f = -E ((v+ - R^T eta) A + w x F), torque -F x E(v+ - R^T eta) - sum
  // F x E(w x F) / A, eta the uniform current (water velocity at every wet centroid in still water).
  const JetVec3<10> rel = vPlus - TtRkt(water.settings().current);
  const J10 A = J10::embed(e.wetArea);
  const JetVec3<10> F = embed<10>(e.wetFirst);
  const JetVec3<10> wxF = cross(w, F);
  JetVec3<10> Erel, EwxF;
  for (int i = 0; i < 3; ++i) {
    Erel[size_t(i)] = bs.damping[i] * rel[size_t(i)];
    EwxF[size_t(i)] = bs.damping[i] * wxF[size_t(i)];
    force[size_t(i)] -= A * Erel[size_t(i)] + EwxF[size_t(i)];
  }
  torque = torque - cross(F, Erel);
  for (int a = 0; a < 3; ++a) {  // sum_i F_i x E (w x F_i) / A_i = eps_abc E_c eps_cde w_d G_be
    const int b1 = (a + 1) % 3, c1 = (a + 2) % 3;
    for (int sgn = 0; sgn < 2; ++sgn) {
      const int b = sgn ? c1 : b1, c = sgn ? b1 : c1;
      const double eabc = sgn ? -1.0 : 1.0;
      const int d1 = (c + 1) % 3, e1 = (c + 2) % 3;
      const J10 wG = w[size_t(d1)] * J10::embed(e.G[size_t(b)][size_t(e1)]) -
                     w[size_t(e1)] * J10::embed(e.G[size_t(b)][size_t(d1)]);
      torque[size_t(a)] -= (eabc * bs.damping[c]) * wG;
    }
  }

  // Wind on the dry parts: f = k s_eps(-n . rel) rel, rel = R^T wind - (v+ + w x r), at the dry centroid r.
  if (!e.dry.empty()) {
    const JetVec3<10> windBody = TtRkt(bs.wind) - vPlus;
    for (const NodeExposure::Dry& p : e.dry) {  // jets times constants where the patch is wholly dry (cheaper)
      const Vector3d r0(p.r[0].v, p.r[1].v, p.r[2].v);
      const JetVec3<10> r = p.moves ? embed<10>(p.r) : jetVec<10>(r0);
      const JetVec3<10> relw = windBody - (p.moves ? cross(w, r) : -1.0 * cross(r0, w));
      const J10 sn = windExposureJet(-dot(p.n, relw), bs.windExposureBand);
      if (sn.v == 0.0 && sn.g.isZero()) continue;
      const JetVec3<10> f = (p.moves ? J10::embed(p.k) * sn : p.k.v * sn) * relw;
      force = force + f;
      torque = torque + (p.moves ? cross(r, f) : cross(r0, f));
    }
  }
  // l . Tr f^+ = l_a . T torque + l_l . T force.
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      out.endWrench += T[size_t(i)][size_t(k)] * (l[i] * torque[size_t(k)] + l[3 + i] * force[size_t(k)]);
  return out;
}

}  // namespace varsim

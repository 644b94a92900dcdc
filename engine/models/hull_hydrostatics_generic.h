// engine/models/hull_hydrostatics_generic.h — the one routine behind computeHydrostatics (hull_hydrostatics.h), on a
// generic scalar S (generic_scalar.h): convex polygon clipping of each hull patch against the grid columns and water
// planes of the piecewise-linear surface, and exact quadrature of the divergence-theorem integrands (seed 000 eq. (15):
// Pi_s, x_s, r_i, dA_i). S = double in the simulator; the boat plan instantiates it on jets for exact derivatives in
// the pose (R, o). Every clip test and clamp decides on the value part. Coordinates are relative to the pose origin.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "engine/models/hull_hydrostatics.h"

namespace varsim {
namespace hull_detail {

// A scalar argument: doubles by value (kept in registers on the simulator's path), jets by reference.
template <class S>
using ScalarArg = std::conditional_t<std::is_same_v<S, double>, double, const S&>;

// A convex planar polygon: 4 corners plus at most one new vertex per clip (6 clips at most).
template <class S>
struct Polygon {
  Vec3<S> v[16];
  int n = 0;
};

// Keeps the part where f(q) = a.q + c <= 0 (Sutherland-Hodgman for one plane).
template <class S>
void clip(const Polygon<S>& in, const Vector3d& a, ScalarArg<S> c, Polygon<S>& out) {
  out.n = 0;
  if (in.n == 0) return;
  S fPrev = a.dot(in.v[in.n - 1]) + c;
  for (int k = 0; k < in.n; ++k) {
    const Vec3<S>& prev = in.v[(k + in.n - 1) % in.n];
    const Vec3<S>& cur = in.v[k];
    const S fCur = a.dot(cur) + c;
    if ((scalarValue(fPrev) <= 0.0) != (scalarValue(fCur) <= 0.0))
      out.v[out.n++] = prev + (fPrev / (fPrev - fCur)) * (cur - prev);
    if (scalarValue(fCur) <= 0.0) out.v[out.n++] = cur;
    fPrev = fCur;
  }
  if (out.n < 3) out.n = 0;
}

// Integrals over one wet piece, relative coordinates q = p - o, water plane eta(q) = e0 + ex qx + ey qy.
template <class S>
struct Moments {
  S area = S(0.0);
  Vec3<S> first = Vec3<S>::Zero();         // int q dA
  S volume = S(0.0);                       // int n_z (q_z - eta) dA
  Vec3<S> volumeMoment = Vec3<S>::Zero();  // int n_z (q_x (q_z - eta), q_y (q_z - eta), (q_z^2 - eta^2)/2) dA
  Matrix3d second = Matrix3d::Zero();      // int q q^T dA (for hydrostaticDerivative; double only)
  bool volumes = true;                     // false: area and first moment only (the exposures)
};

// Degree-2 exact: per fan triangle, area/3 times the sum over the three edge midpoints.
template <class S>
void integrate(const Polygon<S>& w, const Vec3<S>& normal, ScalarArg<S> e0, double ex, double ey, Moments<S>& m) {
  const S nz = normal.z();
  for (int k = 1; k + 1 < w.n; ++k) {
    const Vec3<S>& p0 = w.v[0];
    const Vec3<S>& p1 = w.v[k];
    const Vec3<S>& p2 = w.v[k + 1];
    const S area = 0.5 * normal.dot((p1 - p0).cross(p2 - p0));
    const Vec3<S> mids[3] = {0.5 * (p0 + p1), 0.5 * (p1 + p2), 0.5 * (p2 + p0)};
    S vol = S(0.0);
    Vec3<S> vm = Vec3<S>::Zero();
    Matrix3d qq = Matrix3d::Zero();
    for (const Vec3<S>& q : mids) {
      if constexpr (std::is_same_v<S, double>) qq.noalias() += q * q.transpose();
      if (!m.volumes) continue;
      const S eta = e0 + ex * q.x() + ey * q.y();
      const S depth = q.z() - eta;
      vol += depth;
      vm += Vec3<S>(q.x() * depth, q.y() * depth, 0.5 * (q.z() * q.z() - eta * eta));
    }
    m.area += area;
    m.first += area * (p0 + p1 + p2) / 3.0;  // linear: the centroid rule is exact
    if (!m.volumes) continue;
    m.volume += nz * area * vol / 3.0;
    m.volumeMoment += nz * area * vm / 3.0;
    if constexpr (std::is_same_v<S, double>) m.second += (area / 3.0) * qq;
  }
}

// The wet piece of one hull patch (corners P, world-axes normal nW, relative to the pose origin o).
template <class S>
[[gnu::always_inline]] inline void wetPiece(const Polygon<S>& P, const Vec3<S>& nW, const Vec3<S>& o, const WaterSurface& water,
              const HeightWindow& win, double zmin, const double (&box)[4], Moments<S>& m) {
  const double s = water.spacing();
  if (water.still()) {
    if (zmin < 0.0) {  // water plane z = 0, i.e. q_z <= -o_z
      Polygon<S> W;
      clip(P, Vector3d::UnitZ(), S(o.z()), W);
      integrate(W, nW, S(-o.z()), 0.0, 0.0, m);
    }
    return;
  }
  if (!(zmin < water.maxElevation())) return;
  const long ia = long(std::floor(box[0] / s)), ib = long(std::floor(box[1] / s));
  const long ja = long(std::floor(box[2] / s)), jb = long(std::floor(box[3] / s));
  Polygon<S> Pj, Pjj, Pi, Pii, T, W;
  for (long j = ja; j <= jb; ++j) {
    const S y0 = j * s - o.y();                   // cell rows in relative coordinates
    clip(P, Vector3d(-Vector3d::UnitY()), y0, Pj);  // q_y >= y0
    clip(Pj, Vector3d::UnitY(), S(-(y0 + s)), Pjj);  // q_y <= y0 + s
    if (Pjj.n == 0) continue;
    for (long i = ia; i <= ib; ++i) {
      const S x0 = i * s - o.x();
      clip(Pjj, Vector3d(-Vector3d::UnitX()), x0, Pi);
      clip(Pi, Vector3d::UnitX(), S(-(x0 + s)), Pii);
      if (Pii.n == 0) continue;
      const double h00 = win.at(i, j), h10 = win.at(i + 1, j), h01 = win.at(i, j + 1), h11 = win.at(i + 1, j + 1);
      for (int lower = 1; lower >= 0; --lower) {
        // Lower triangle u >= v: (q_y - y0) - (q_x - x0) <= 0; upper: the opposite.
        const double sign = lower ? 1.0 : -1.0;
        clip(Pii, Vector3d(sign * Vector3d(-1.0, 1.0, 0.0)), S(sign * (x0 - y0)), T);
        if (T.n == 0) continue;
        // eta = h00 + u du + v dv with u = (q_x - x0)/s, v = (q_y - y0)/s; relative to o_z.
        const double du = lower ? h10 - h00 : h11 - h01;
        const double dv = lower ? h11 - h10 : h01 - h00;
        const double ex = du / s, ey = dv / s;
        const S e0 = h00 - o.z() - ex * x0 - ey * y0;
        clip(T, Vector3d(-ex, -ey, 1.0), S(-e0), W);  // q_z - eta(q) <= 0
        integrate(W, nW, e0, ex, ey, m);
      }
    }
  }
}

}  // namespace hull_detail

// computeHydrostatics (hull_hydrostatics.h) at the pose (R, o) on the scalar S. exposuresOnly (the plan's node data on
// jets): the patch exposures alone (volume and centroid left at zero and o), and in still water a patch whose four
// corners are under water taken as the constant it is (wet area and centroid its own: zero derivatives).
template <class S>
void computeHydrostaticsT(const std::vector<HullPatch>& patches, const Mat3<S>& R, const Vec3<S>& o,
                          const WaterSurface& water, double t, HydrostaticStateT<S>& out, bool exposuresOnly = false) {
  using namespace hull_detail;
  out.patches.assign(patches.size(), PatchExposureT<S>{});
  out.volume = S(0.0);
  out.wettedArea = S(0.0);
  Vec3<S> volumeMoment = Vec3<S>::Zero();
  const Matrix3d Rv = R.unaryExpr([](const S& a) { return scalarValue(a); });
  const Vector3d ov = o.unaryExpr([](const S& a) { return scalarValue(a); });

  // World bounding box of the hull for one consistent snapshot of node heights.
  double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
  for (const auto& p : patches)
    for (const Vector3d& c : {p.corner, Vector3d(p.corner + p.edgeU), Vector3d(p.corner + p.edgeV),
                              Vector3d(p.corner + p.edgeU + p.edgeV)}) {
      const Vector3d w = Rv * c + ov;
      xmin = std::min(xmin, w.x());
      xmax = std::max(xmax, w.x());
      ymin = std::min(ymin, w.y());
      ymax = std::max(ymax, w.y());
    }
  HeightWindow win;
  if (!water.still()) win = water.window(xmin, xmax, ymin, ymax, t);
  const double wetBelow = water.still() ? 0.0 : water.maxElevation();  // a patch wholly above is dry

  for (size_t idx = 0; idx < patches.size(); ++idx) {
    const HullPatch& hp = patches[idx];
    const Vector3d corners[4] = {hp.corner, hp.corner + hp.edgeU, hp.corner + hp.edgeU + hp.edgeV,
                                 hp.corner + hp.edgeV};
    Vector3d pv[4];  // the corners' values (world axes, relative to o), which decide the clip
    double zmin = 1e300, zmax = -1e300, box[4] = {1e300, -1e300, 1e300, -1e300};
    for (int k = 0; k < 4; ++k) {
      pv[k] = Rv * corners[k];
      zmin = std::min(zmin, pv[k].z() + ov.z());
      zmax = std::max(zmax, pv[k].z() + ov.z());
      box[0] = std::min(box[0], pv[k].x() + ov.x());
      box[1] = std::max(box[1], pv[k].x() + ov.x());
      box[2] = std::min(box[2], pv[k].y() + ov.y());
      box[3] = std::max(box[3], pv[k].y() + ov.y());
    }
    PatchExposureT<S>& e = out.patches[idx];
    if (exposuresOnly && water.still() && zmax < 0.0) {
      e.wetArea = S(hp.area), e.wetCentroid = hp.center.template cast<S>(), e.dryArea = S(0.0);
      out.wettedArea += e.wetArea;
      continue;
    }
    Polygon<S> P;
    Vec3<S> nW;
    if (zmin < wetBelow) {  // else wholly dry: no wet piece (wetPiece's test)
      nW = R * hp.normal;
      P.n = 4;
      for (int k = 0; k < 4; ++k) {
        if constexpr (std::is_same_v<S, double>) P.v[k] = pv[k];
        else P.v[k] = R * corners[k];
      }
    }
    Moments<S> m;
    m.volumes = !exposuresOnly;
    wetPiece(P, nW, o, water, win, zmin, box, m);
    e.wetArea = clampByValue(m.area, 0.0, hp.area);
    if (scalarValue(e.wetArea) > 0.0) {
      e.wetCentroid = R.transpose() * (m.first / m.area);
      if constexpr (std::is_same_v<S, double>) e.wetSecondMoment = R.transpose() * m.second * R;
    }
    e.dryArea = hp.area - e.wetArea;
    if (scalarValue(e.dryArea) > 1e-12 * hp.area)
      e.dryCentroid = (hp.area * hp.center - e.wetArea * (scalarValue(e.wetArea) > 0.0 ? e.wetCentroid
                                                                                        : Vec3<S>(hp.center))) /
                      e.dryArea;
    else
      e.dryArea = S(0.0);
    out.wettedArea += e.wetArea;
    out.volume += m.volume;
    volumeMoment += m.volumeMoment;
  }
  out.centroid = scalarValue(out.volume) > 0.0 ? Vec3<S>(o + volumeMoment / out.volume) : o;
}

}  // namespace varsim

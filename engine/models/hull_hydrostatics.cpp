// engine/models/hull_hydrostatics.cpp — box hull patches, convex polygon clipping against the grid
// columns and water planes of the piecewise-linear surface, and exact quadrature of the divergence-theorem
// integrands on the clipped pieces. Coordinates are taken relative to the pose origin to avoid
// cancellation when the boat is far from the world origin.
#include "engine/models/hull_hydrostatics.h"

#include <algorithm>
#include <cmath>

namespace varsim {

std::vector<HullPatch> BoxHull::patches(double patchSize) const {
  std::vector<HullPatch> out;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;  // e_b x e_c = e_a
    for (int s : {1, -1}) {
      Vector3d normal = Vector3d::Zero();
      normal[a] = s;
      Vector3d U = Vector3d::Zero(), V = Vector3d::Zero();
      U[s > 0 ? b : c] = size[s > 0 ? b : c];  // keeps U x V along the outward normal
      V[s > 0 ? c : b] = size[s > 0 ? c : b];
      const Vector3d faceCorner = center + 0.5 * s * size[a] * normal.cwiseAbs() - 0.5 * (U + V);
      // At most 200 pieces per edge: finer patches add cost and no accuracy to the (exact) volume.
      const int nu = std::clamp(int(std::ceil(U.norm() / patchSize)), 1, 200);
      const int nv = std::clamp(int(std::ceil(V.norm() / patchSize)), 1, 200);
      for (int q = 0; q < nv; ++q)
        for (int p = 0; p < nu; ++p) {
          HullPatch patch;
          patch.edgeU = U / nu;
          patch.edgeV = V / nv;
          patch.corner = faceCorner + p * patch.edgeU + q * patch.edgeV;
          patch.normal = normal;
          patch.center = patch.corner + 0.5 * (patch.edgeU + patch.edgeV);
          patch.area = patch.edgeU.cross(patch.edgeV).norm();
          out.push_back(patch);
        }
    }
  }
  return out;
}

namespace {

// A convex planar polygon: 4 corners plus at most one new vertex per clip (6 clips at most).
struct Polygon {
  Vector3d v[16];
  int n = 0;
};

// Keeps the part where f(q) = a.q + c <= 0 (Sutherland-Hodgman for one plane).
void clip(const Polygon& in, const Vector3d& a, double c, Polygon& out) {
  out.n = 0;
  if (in.n == 0) return;
  double fPrev = a.dot(in.v[in.n - 1]) + c;
  for (int k = 0; k < in.n; ++k) {
    const Vector3d& prev = in.v[(k + in.n - 1) % in.n];
    const Vector3d& cur = in.v[k];
    const double fCur = a.dot(cur) + c;
    if ((fPrev <= 0.0) != (fCur <= 0.0)) out.v[out.n++] = prev + (fPrev / (fPrev - fCur)) * (cur - prev);
    if (fCur <= 0.0) out.v[out.n++] = cur;
    fPrev = fCur;
  }
  if (out.n < 3) out.n = 0;
}

// Integrals over one wet piece, relative coordinates q = p - o, water plane eta(q) = e0 + ex qx + ey qy.
struct Moments {
  double area = 0.0;
  Vector3d first = Vector3d::Zero();         // int q dA
  double volume = 0.0;                       // int n_z (q_z - eta) dA
  Vector3d volumeMoment = Vector3d::Zero();  // int n_z (q_x (q_z - eta), q_y (q_z - eta), (q_z^2 - eta^2)/2) dA
  Matrix3d second = Matrix3d::Zero();        // int q q^T dA (for hydrostaticDerivative)
};

// Degree-2 exact: per fan triangle, area/3 times the sum over the three edge midpoints.
void integrate(const Polygon& w, const Vector3d& normal, double e0, double ex, double ey, Moments& m) {
  const double nz = normal.z();
  for (int k = 1; k + 1 < w.n; ++k) {
    const Vector3d& p0 = w.v[0];
    const Vector3d& p1 = w.v[k];
    const Vector3d& p2 = w.v[k + 1];
    const double area = 0.5 * normal.dot((p1 - p0).cross(p2 - p0));
    const Vector3d mids[3] = {0.5 * (p0 + p1), 0.5 * (p1 + p2), 0.5 * (p2 + p0)};
    double vol = 0.0;
    Vector3d vm = Vector3d::Zero();
    Matrix3d qq = Matrix3d::Zero();
    for (const Vector3d& q : mids) {
      qq.noalias() += q * q.transpose();
      const double eta = e0 + ex * q.x() + ey * q.y();
      const double depth = q.z() - eta;
      vol += depth;
      vm += Vector3d(q.x() * depth, q.y() * depth, 0.5 * (q.z() * q.z() - eta * eta));
    }
    m.area += area;
    m.first += area * (p0 + p1 + p2) / 3.0;  // linear: the centroid rule is exact
    m.volume += nz * area * vol / 3.0;
    m.volumeMoment += nz * area * vm / 3.0;
    m.second += (area / 3.0) * qq;
  }
}

}  // namespace

void computeHydrostatics(const std::vector<HullPatch>& patches, const se3::Pose& pose, const WaterSurface& water,
                         double t, HydrostaticState& out) {
  const Vector3d& o = pose.x;
  const Matrix3d& R = pose.R;
  out.patches.assign(patches.size(), PatchExposure{});
  out.volume = 0.0;
  out.wettedArea = 0.0;
  Vector3d volumeMoment = Vector3d::Zero();

  // World bounding box of the hull for one consistent snapshot of node heights.
  double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
  for (const auto& p : patches)
    for (const Vector3d& c : {p.corner, Vector3d(p.corner + p.edgeU), Vector3d(p.corner + p.edgeV),
                              Vector3d(p.corner + p.edgeU + p.edgeV)}) {
      const Vector3d w = R * c + o;
      xmin = std::min(xmin, w.x());
      xmax = std::max(xmax, w.x());
      ymin = std::min(ymin, w.y());
      ymax = std::max(ymax, w.y());
    }
  const bool still = water.still();
  HeightWindow win;
  if (!still) win = water.window(xmin, xmax, ymin, ymax, t);
  const double s = water.spacing();

  for (size_t idx = 0; idx < patches.size(); ++idx) {
    const HullPatch& hp = patches[idx];
    const Vector3d nW = R * hp.normal;
    Polygon P;
    P.n = 4;
    P.v[0] = R * hp.corner;
    P.v[1] = R * (hp.corner + hp.edgeU);
    P.v[2] = R * (hp.corner + hp.edgeU + hp.edgeV);
    P.v[3] = R * (hp.corner + hp.edgeV);
    double zmin = 1e300, pxmin = 1e300, pxmax = -1e300, pymin = 1e300, pymax = -1e300;
    for (int k = 0; k < 4; ++k) {
      zmin = std::min(zmin, P.v[k].z() + o.z());
      pxmin = std::min(pxmin, P.v[k].x() + o.x());
      pxmax = std::max(pxmax, P.v[k].x() + o.x());
      pymin = std::min(pymin, P.v[k].y() + o.y());
      pymax = std::max(pymax, P.v[k].y() + o.y());
    }
    Moments m;
    if (still) {
      if (zmin < 0.0) {  // water plane z = 0, i.e. q_z <= -o_z
        Polygon W;
        clip(P, Vector3d::UnitZ(), o.z(), W);
        integrate(W, nW, -o.z(), 0.0, 0.0, m);
      }
    } else if (zmin < water.maxElevation()) {
      const long ia = long(std::floor(pxmin / s)), ib = long(std::floor(pxmax / s));
      const long ja = long(std::floor(pymin / s)), jb = long(std::floor(pymax / s));
      Polygon Pj, Pjj, Pi, Pii, T, W;
      for (long j = ja; j <= jb; ++j) {
        const double y0 = j * s - o.y();              // cell rows in relative coordinates
        clip(P, -Vector3d::UnitY(), y0, Pj);          // q_y >= y0
        clip(Pj, Vector3d::UnitY(), -(y0 + s), Pjj);  // q_y <= y0 + s
        if (Pjj.n == 0) continue;
        for (long i = ia; i <= ib; ++i) {
          const double x0 = i * s - o.x();
          clip(Pjj, -Vector3d::UnitX(), x0, Pi);
          clip(Pi, Vector3d::UnitX(), -(x0 + s), Pii);
          if (Pii.n == 0) continue;
          const double h00 = win.at(i, j), h10 = win.at(i + 1, j), h01 = win.at(i, j + 1), h11 = win.at(i + 1, j + 1);
          for (int lower = 1; lower >= 0; --lower) {
            // Lower triangle u >= v: (q_y - y0) - (q_x - x0) <= 0; upper: the opposite.
            const double sign = lower ? 1.0 : -1.0;
            clip(Pii, sign * Vector3d(-1.0, 1.0, 0.0), sign * (x0 - y0), T);
            if (T.n == 0) continue;
            // eta = h00 + u du + v dv with u = (q_x - x0)/s, v = (q_y - y0)/s; relative to o_z.
            const double du = lower ? h10 - h00 : h11 - h01;
            const double dv = lower ? h11 - h10 : h01 - h00;
            const double ex = du / s, ey = dv / s;
            const double e0 = h00 - o.z() - ex * x0 - ey * y0;
            clip(T, Vector3d(-ex, -ey, 1.0), -e0, W);  // q_z - eta(q) <= 0
            integrate(W, nW, e0, ex, ey, m);
          }
        }
      }
    }
    PatchExposure& e = out.patches[idx];
    e.wetArea = std::clamp(m.area, 0.0, hp.area);
    if (e.wetArea > 0.0) {
      e.wetCentroid = R.transpose() * (m.first / m.area);
      e.wetSecondMoment = R.transpose() * m.second * R;
    }
    e.dryArea = hp.area - e.wetArea;
    if (e.dryArea > 1e-12 * hp.area)
      e.dryCentroid = (hp.area * hp.center - e.wetArea * (e.wetArea > 0.0 ? e.wetCentroid : hp.center)) / e.dryArea;
    else
      e.dryArea = 0.0;
    out.wettedArea += e.wetArea;
    out.volume += m.volume;
    volumeMoment += m.volumeMoment;
  }
  out.centroid = out.volume > 0.0 ? Vector3d(o + volumeMoment / out.volume) : o;
}

HydrostaticDerivative hydrostaticDerivative(const std::vector<HullPatch>& patches, const se3::Pose& pose,
                                            const HydrostaticState& state) {
  HydrostaticDerivative d;
  // The water moving past the fixed body: - int_sub (u + theta x r) dV = -V u + m x theta.
  const Vector3d m = pose.R.transpose() * (state.centroid - pose.x) * state.volume;
  d.moment.leftCols<3>() << 0.0, -m.z(), m.y(), m.z(), 0.0, -m.x(), -m.y(), m.x(), 0.0;
  d.moment.rightCols<3>() = -state.volume * Matrix3d::Identity();
  for (size_t i = 0; i < patches.size() && i < state.patches.size(); ++i) {
    const PatchExposure& e = state.patches[i];
    if (!(e.wetArea > 0.0)) continue;
    const Vector3d& n = patches[i].normal;
    const Vector3d firstMoment = e.wetArea * e.wetCentroid;  // int_wet r dA
    d.volume.head<3>() += firstMoment.cross(n).transpose();  // (theta x r) . n = theta . (r x n)
    d.volume.tail<3>() += e.wetArea * n.transpose();
    Matrix3d nHat;
    nHat << 0.0, -n.z(), n.y(), n.z(), 0.0, -n.x(), -n.y(), n.x(), 0.0;
    d.moment.leftCols<3>() += e.wetSecondMoment * nHat;  // int r (r x n)^T dA = S n^
    d.moment.rightCols<3>() += firstMoment * n.transpose();
  }
  return d;
}

}  // namespace varsim

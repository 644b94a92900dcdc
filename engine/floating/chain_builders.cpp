// engine/floating/chain_builders.cpp — box chains for the floating-base scenes, tests and benchmarks.
#include "engine/floating/chain_builders.h"

namespace varsim::floating {

Matrix3d boxInertia(double mass, const Vector3d& s) {
  const Vector3d q = s.cwiseProduct(s);
  return (mass / 12.0 * Vector3d(q.y() + q.z(), q.x() + q.z(), q.x() + q.y())).asDiagonal();
}

FloatingChain threeBodyChain(const std::array<double, 3>& masses, const std::array<Vector3d, 3>& sizes,
                             const std::array<Vector3d, 2>& axes) {
  BodySpec base{masses[1], boxInertia(masses[1], sizes[1]), Vector3d::Zero()};
  std::vector<HingeSpec> hinges(2);
  for (int side = 0; side < 2; ++side) {
    const int b = side == 0 ? 0 : 2;
    const double sign = side == 0 ? -1.0 : 1.0;
    HingeSpec& h = hinges[side];
    h.parent = 0;
    h.axis = axes[side];
    h.point = Vector3d(sign * 0.5 * sizes[1].x(), 0, 0);
    h.body = BodySpec{masses[b], boxInertia(masses[b], sizes[b]),
                      Vector3d(sign * (0.5 * sizes[1].x() + 0.5 * sizes[b].x()), 0, 0)};
  }
  return FloatingChain(base, hinges);
}

FloatingChain serialArm(double baseMass, const Vector3d& baseSize, const std::vector<ArmLink>& links) {
  BodySpec base{baseMass, boxInertia(baseMass, baseSize), Vector3d::Zero()};
  std::vector<HingeSpec> hinges;
  double x = 0.5 * baseSize.x();
  for (size_t i = 0; i < links.size(); ++i) {
    HingeSpec h;
    h.parent = static_cast<int>(i);
    h.axis = links[i].axis;
    h.point = Vector3d(x, 0, 0);
    h.body =
        BodySpec{links[i].mass, boxInertia(links[i].mass, links[i].size), Vector3d(x + 0.5 * links[i].size.x(), 0, 0)};
    x += links[i].size.x();
    hinges.push_back(h);
  }
  return FloatingChain(base, hinges);
}

}  // namespace varsim::floating

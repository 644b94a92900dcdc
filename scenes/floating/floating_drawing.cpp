// scenes/floating/floating_drawing.cpp — boxes and hinge rods of a floating chain as plain draw-list items.
#include "scenes/floating/floating_drawing.h"

#include "scenes/rigid_body/rigid_body_drawing.h"

namespace varsim {

namespace {

// A rotation taking the local z axis to the unit vector a.
Matrix3d zTo(const Vector3d& a) { return Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), a).toRotationMatrix(); }

}  // namespace

void drawFloatingChain(DrawList& out, const floating::FloatingChain& chain, const se3::Pose& g,
                       const Eigen::VectorXd& r, const FloatingLook& look) {
  std::vector<se3::Pose> world;
  for (int i = 0; i < chain.bodies(); ++i) world.push_back(g * chain.bodyPose(r, i));
  for (int i = 0; i < chain.bodies(); ++i) {
    ShapeItem box;
    box.kind = ShapeKind::Box;
    box.transform = poseToMat4(world[i]);
    box.size = toVec3f(look.sizes[i]);
    box.color = look.colors[i];
    out.shapes.push_back(box);
  }
  for (int j = 0; j < chain.joints(); ++j) {
    const floating::HingeSpec& h = chain.hinge(j);
    const se3::Pose& parent = world[h.parent];
    // The hinge is fixed in its parent's axes: its point relative to the parent's c.o.m. and its axis.
    const Vector3d p = parent.act(h.point - chain.body(h.parent).com);
    const Vector3d a = parent.R * h.axis;
    const double len = 1.3 * look.sizes[j + 1].maxCoeff() * 0.5 + 0.05;
    ShapeItem rod;
    rod.kind = ShapeKind::Cylinder;
    rod.transform = poseToMat4(se3::Pose{zTo(a), p});
    rod.size = {float(look.hingeRadius), float(look.hingeRadius), float(len)};
    rod.color = {0.85f, 0.85f, 0.9f, 1.0f};
    out.shapes.push_back(rod);
  }
}

}  // namespace varsim

// scenes/tree/urdf_drawing.cpp — the `urdf` scene's visuals, camera and panel (see urdf_drawing.h).
#include "scenes/tree/urdf_drawing.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace varsim {

namespace {

Mat4 toMat4(const Eigen::Matrix4d& g) {
  Mat4 m;
  const Eigen::Matrix4f f = g.cast<float>();  // column-major, as draw_list.h wants
  std::copy(f.data(), f.data() + 16, m.begin());
  return m;
}

ShapeKind shapeOf(urdf_import::Visual::Kind k) {
  switch (k) {
    case urdf_import::Visual::Kind::Cylinder:
      return ShapeKind::Cylinder;
    case urdf_import::Visual::Kind::Sphere:
      return ShapeKind::Sphere;
    default:
      return ShapeKind::Box;
  }
}

Eigen::Matrix4d poseOf(const urdf_import::Model& m, const urdf_import::Visual& v) {
  return m.tree.g(v.frame) * v.origin;
}

std::string fmt(const char* f, double x) {
  char b[48];
  std::snprintf(b, sizeof b, f, x);
  return b;
}

}  // namespace

void drawUrdfModel(const urdf_import::Model& m, DrawList& out) {
  for (const auto& v : m.visuals) {
    ShapeItem s;
    s.kind = shapeOf(v.kind);
    s.transform = toMat4(poseOf(m, v));
    s.size = {float(v.size[0]), float(v.size[1]), float(v.size[2])};
    s.color = {v.rgba[0], v.rgba[1], v.rgba[2], v.rgba[3]};
    s.ghost = v.fromMesh;  // a bounding box stands in for the mesh: drawn translucent
    out.shapes.push_back(s);
  }
}

UrdfWorkspace urdfWorkspace(const urdf_import::Model& m) {
  UrdfWorkspace w;
  if (m.tree.dof() == 0) return w;
  const int first = m.tree.frameOfDof(0);
  w.centre = m.tree.g(first).topRightCorner<3, 1>();
  for (const auto& v : m.visuals) {
    if (!m.tree.dependsOn(v.frame, 0)) continue;  // not moved by the first joint
    const Eigen::Vector3d c = poseOf(m, v).topRightCorner<3, 1>() - w.centre;
    w.radius = std::max(w.radius, c.norm() + 0.5 * Eigen::Vector3d(v.size[0], v.size[1], v.size[2]).norm());
  }
  return w;
}

void frameUrdfModel(const UrdfWorkspace& w, CameraHint& camera) {
  // Aim at the workspace centre from three-quarters front, slightly above, close enough that the sphere
  // the robot can sweep spans the (tall, narrow) default 3-D view.
  camera.target = {float(w.centre.x()), float(w.centre.y()), float(w.centre.z())};
  camera.distance = float(2.5 * w.radius);
  camera.setsAngles = true;
  camera.yaw = -1.0f, camera.pitch = 0.3f;
  camera.showGround = true;
  camera.groundHeight = 0.0f;
}

ScenePanel urdfPanel(const urdf_import::Model& m, const std::string& path, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& qdot, const Eigen::VectorXd& damping) {
  ScenePanel p;
  p.title = "URDF model";
  p.header.push_back(PanelWidget::text(m.robot + ": " + std::to_string(m.tree.dof()) + " movable joints, " +
                                       std::to_string(m.links.size()) + " links, " + std::to_string(m.tree.frames()) +
                                       " tree frames"));
  p.header.push_back(PanelWidget::text(path, PanelTone::Dim));
  PanelTab joints{"Joints", {}};
  PanelWidget table;
  table.kind = PanelWidget::Kind::Table;
  table.columns = {"joint", "type", "q", "qdot", "limits", "damping"};
  for (size_t i = 0; i < m.joints.size(); ++i) {
    const auto& j = m.joints[i];
    const Eigen::Index k = Eigen::Index(i);
    const std::string limits =
        j.limited ? "[" + fmt("%.3g", j.lower) + ", " + fmt("%.3g", j.upper) + "]" : std::string("none");
    table.rows.push_back({PanelWidget::text(j.name), PanelWidget::text(j.prismatic ? "prismatic" : "revolute"),
                          PanelWidget::text(fmt("%+.4f", q(k))), PanelWidget::text(fmt("%+.4f", qdot(k))),
                          PanelWidget::text(limits, PanelTone::Dim), PanelWidget::text(fmt("%.3g", damping(k)))});
  }
  joints.widgets.push_back(table);
  p.tabs.push_back(joints);
  PanelTab notes{"Import notes", {}};
  if (m.notes.empty()) notes.widgets.push_back(PanelWidget::text("everything in the file was modelled", PanelTone::Ok));
  for (const auto& n : m.notes) notes.widgets.push_back(PanelWidget::text(n, PanelTone::Drift));
  p.tabs.push_back(notes);
  return p;
}

}  // namespace varsim

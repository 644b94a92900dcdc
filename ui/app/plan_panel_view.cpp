// ui/app/plan_panel_view.cpp — the Plan panel in the 3-D view: the current iterate as a translucent ghost curve
// while Ipopt works, the converged plan as a solid path, the goal as an arrow along its heading, and picking the
// goal by a click on the ground (the mouse ray meets the scene's ground plane).
#include <imgui.h>

#include <cmath>

#include "plan/plan_endpoints.h"
#include "ui/app/app_state.h"
#include "ui/app/plan_panel.h"

namespace varsim {

namespace {

constexpr float kLift = 0.03f;  // m above the path's points: a curve on the ground must not z-fight with it

LineStrip pathStrip(const PlanPath& path, Rgba color, float width) {
  LineStrip s;
  s.points.reserve(path.size());
  for (const auto& p : path) s.points.push_back({p[0], p[1], p[2] + kLift});
  s.color = color;
  s.width = width;
  return s;
}

// An arrow lying on the ground at (x, y) pointing along heading: local z (the arrow's axis) -> (cos, sin, 0),
// local x -> world up.
ShapeItem goalArrow(double x, double y, double z, double heading) {
  const float c = float(std::cos(heading)), s = float(std::sin(heading));
  ShapeItem a;
  a.kind = ShapeKind::Arrow;
  a.transform = {0, 0, 1, 0, s, -c, 0, 0, c, s, 0, 0, float(x), float(y), float(z) + 0.1f, 1};
  a.size = {0.05f, 0.14f, 1.2f};
  a.color = {1.0f, 0.85f, 0.1f, 1.0f};
  a.ghost = true;
  return a;
}

}  // namespace

bool groundPoint(const AppState& app, double& x, double& y) {
  const ImGuiIO& io = ImGui::GetIO();
  const ScreenRect& view = app.view;
  glm::vec3 o, d;
  app.camera.pixelRay(io.MousePos.x - view.x, io.MousePos.y - view.y, int(view.w), int(view.h), o, d);
  const float t = (app.drawList.camera.groundHeight - o.z) / d.z;
  if (!(std::abs(d.z) > 1e-6f && t > 0.0f)) return false;
  x = double(o.x + t * d.x);
  y = double(o.y + t * d.y);
  return true;
}

void addPlanDrawing(AppState& app) {
  PlanPanelState& st = app.plan;
  if (st.scene.empty() || !app.driver.loaded() || st.scene != app.driver.sceneName()) return;
  const ParamSet& p = st.planParams;
  // The goal arrow while the Plan panel is in sight or at work: behind another tab it would be a stray arrow.
  const bool inUse = st.shown || st.picking || st.havePlan || st.job.running();
  if (inUse && p.spec("target_x") && p.spec("target_y")) {
    const double heading = p.spec("target_heading") ? p.real("target_heading") : 0.0;
    app.drawList.shapes.push_back(
        goalArrow(p.real("target_x"), p.real("target_y"), app.drawList.camera.groundHeight, heading));
  }
  if (st.havePlan && !st.job.running()) {
    app.drawList.lines.push_back(pathStrip(st.plan.path, {0.3f, 1.0f, 0.45f, 0.9f}, 3.0f));
    return;
  }
  const PlanJob::Snapshot s = st.job.snapshot();
  if (s.state == PlanJob::State::Running || s.state == PlanJob::State::Cancelled || s.state == PlanJob::State::Failed)
    app.drawList.lines.push_back(pathStrip(s.ghost, {0.35f, 0.85f, 1.0f, 0.55f}, 2.5f));
}

// Press on the ground: the goal's position; drag: its heading (along the drag); release: done. The camera does not
// orbit meanwhile (keyboard.cpp).
void handlePlanGoalClick(AppState& app) {
  PlanPanelState& st = app.plan;
  if (!st.picking || !app.driver.loaded()) return;
  const ImGuiIO& io = ImGui::GetIO();
  const bool overView = app.view.contains(io.MousePos.x, io.MousePos.y) && !io.WantCaptureMouse;
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) st.pickPressed = overView;
  if (!st.pickPressed) return;
  double gx = 0.0, gy = 0.0;
  const bool onGround = groundPoint(app, gx, gy);
  ParamSet& p = st.planParams;
  try {
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && onGround) {
      p.setReal("target_x", gx);
      p.setReal("target_y", gy);
      const PlanEndpointsInfo* e = PlanEndpointsRegistry::find(st.scene);
      st.goal = e && e->goals ? int(e->goals(app.driver.params()).size()) : 0;  // the clicked point's entry
    } else if (onGround && p.spec("target_heading") && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 8.0f)) {
      p.setReal("target_heading", std::atan2(gy - p.real("target_y"), gx - p.real("target_x")));
    }
  } catch (const BadInput& e) {
    app.notify(e.what(), true);
  }
  if (ImGui::IsMouseReleased(ImGuiMouseButton_Left)) st.picking = st.pickPressed = false;
}

}  // namespace varsim

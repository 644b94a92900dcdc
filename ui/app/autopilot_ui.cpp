// ui/app/autopilot_ui.cpp — the Autopilot (MPC) in the app (ui/core/autopilot.h): M or Simulation > Autopilot
// engages it on the car, the helicopter, the boat or the snakeboard with a goal ahead (8 m; the boat 3 m, the
// snakeboard 4 m); Ctrl + drag on the ground (the water) puts the goal there, T/G move it along world x, F/H along y
// (4 m/s while held); the goal and the predicted path are drawn in the 3-D view and the HUD tells the last re-plan;
// touching a control (key, button, stick beyond its dead-zone) hands the vehicle back, as from the Plan panel's Play.
#include "ui/app/autopilot_ui.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"
#include "ui/app/app_state.h"

namespace varsim {

namespace {

constexpr double kGoalSpeed = 4.0;   // m/s the goal keys move it

double column(const AppState& app, const char* name, double otherwise) {
  const auto& cols = app.driver.columns();
  const auto& row = app.driver.lastRow();
  for (size_t i = 0; i < cols.size() && i < row.size(); ++i)
    if (cols[i] == name) return row[i];
  return otherwise;
}

// Heading of the vehicle in the ground plane: the planar `theta`, or the yaw of the body quaternion.
double heading(const AppState& app) {
  const double theta = column(app, "theta", NAN);
  if (std::isfinite(theta)) return theta;
  const double w = column(app, "qw", 1.0), x = column(app, "qx", 0.0), y = column(app, "qy", 0.0),
               z = column(app, "qz", 0.0);
  return std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z));
}

void restoreUserValues(AppState& app, const std::vector<std::string>& keys) {
  // The plans' events set live keys (the car's torque, steer_rate, return_to_centre; the helicopter's assist and
  // controls) on the scene; the user's values, which the driver kept, come back through the driver.
  for (const std::string& key : keys) {
    if (!app.driver.params().spec(key)) continue;
    try {
      app.driver.setParam(key, app.driver.params().value(key));
    } catch (const BadInput& e) {
      app.notify(e.what(), true);
    }
  }
}

// The boat's thrusters only push and the wind is its brake (docs/app-autopilot.md): with the wind from astern it
// drifts past a goal ahead of it, and turning round takes longer than its 3 s horizon sees. Said when it engages.
void warnBoatWindAstern(AppState& app) {
  const ParamSet& p = app.driver.params();
  if (app.driver.sceneName() != "boat" || !p.spec("wind")) return;
  const std::vector<double>& wind = p.vector("wind");
  const double th = heading(app), along = wind[0] * std::cos(th) + wind[1] * std::sin(th);
  if (along <= 0.0) return;
  app.notify("Autopilot: the wind is from astern; the boat's thrusters only push, so it drifts past a goal downwind. "
             "Steer it bow into the wind (the thrust keys take it back) and press M again");
}

}  // namespace

bool engageAutopilot(AppState& app, double goalX, double goalY, bool synchronous) {
  SimDriver& d = app.driver;
  if (!d.loaded() || !Autopilot::available(d.sceneName())) {
    app.notify("Autopilot (MPC): the car, the helicopter, the boat and the snakeboard have one; this scene has none");
    return false;
  }
  try {
    const std::string scene = d.sceneName();
    const ParamSet flight = Autopilot::flightParams(scene, d.scene(), d.params());
    std::string changed;
    for (const ParamSpec& spec : flight.specs())
      if (spec.key.rfind("start_", 0) != 0 && spec.key != "speed" && spec.key != "steer" &&
          flight.valueText(spec.key) != d.params().valueText(spec.key))
        changed += (changed.empty() ? "" : ", ") + spec.key + " = " + flight.valueText(spec.key);
    if (!changed.empty()) {
      // The controller's step and world: the vehicle continues from where it is (as the Plan panel's Play does).
      d.load(scene, flight);
      app.onSceneLoaded();
      app.notify("Autopilot: " + scene + " now runs with the controller's " + changed);
    }
    app.autopilot.engage(scene, d.scene(), goalX, goalY, synchronous);
    app.autopilotSeenStep = d.step();
    app.notify("Autopilot on: Ctrl+drag on the ground or T/G, F/H move the goal; any control takes the vehicle back");
    warnBoatWindAstern(app);
    return true;
  } catch (const std::exception& e) {
    app.notify(std::string("Autopilot: ") + e.what(), true);
    return false;
  }
}

void toggleAutopilot(AppState& app) {
  if (app.autopilot.active()) {
    restoreUserValues(app, app.autopilot.disengage());
    app.notify("Autopilot off");
    return;
  }
  const double x = column(app, "x", 0.0), y = column(app, "y", 0.0), th = heading(app);
  const double ahead = Autopilot::available(app.driver.sceneName()) ? Autopilot::goalAhead(app.driver.sceneName()) : 0.0;
  engageAutopilot(app, x + ahead * std::cos(th), y + ahead * std::sin(th), false);
}

void autopilotKeyPressed(AppState& app, int key) {
  if (!app.autopilot.active()) return;
  for (const ControlBinding& b : app.live.bindings()) {
    const bool bound = key == b.keyPos || key == b.keyNeg ||
                       std::find(b.moreKeysPos.begin(), b.moreKeysPos.end(), key) != b.moreKeysPos.end() ||
                       std::find(b.moreKeysNeg.begin(), b.moreKeysNeg.end(), key) != b.moreKeysNeg.end();
    if (!bound) continue;
    restoreUserValues(app, app.autopilot.disengage());
    app.notify("Autopilot off: you took the controls");
    return;
  }
}

void autopilotBeforeStep(AppState& app) {
  if (!app.autopilot.active()) return;
  // A reset, a step back or a scene switch ends it: its plans belong to the state they were made from.
  const bool rewound = !app.driver.loaded() || app.driver.step() < app.autopilotSeenStep;
  if (rewound || app.live.touched()) {
    restoreUserValues(app, app.autopilot.disengage());
    app.notify(rewound ? "Autopilot off: the scene went back in time" : "Autopilot off: you took the controls");
    return;
  }
  app.autopilotSeenStep = app.driver.step();
  if (ImGui::GetIO().WantCaptureKeyboard) return;
  const auto down = [&](int key) { return app.window && glfwGetKey(app.window, key) == GLFW_PRESS ? 1.0 : 0.0; };
  const double dx = down(GLFW_KEY_T) - down(GLFW_KEY_G), dy = down(GLFW_KEY_F) - down(GLFW_KEY_H);
  const double step = kGoalSpeed * double(ImGui::GetIO().DeltaTime);
  if (dx != 0.0 || dy != 0.0) app.autopilot.moveGoal(dx * step, dy * step);
}

bool autopilotGoalDragging(const AppState& app) {
  return app.autopilot.active() && ImGui::GetIO().KeyCtrl && ImGui::IsMouseDown(ImGuiMouseButton_Left);
}

void handleAutopilotGoalDrag(AppState& app) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!autopilotGoalDragging(app) || io.WantCaptureMouse || !app.view.contains(io.MousePos.x, io.MousePos.y)) return;
  double x = 0.0, y = 0.0;
  if (groundPoint(app, x, y)) app.autopilot.setGoal(x, y);
}

void addAutopilotDrawing(AppState& app) {
  if (!app.autopilot.active()) return;
  const AutopilotView v = app.autopilot.view();
  const float ground = app.drawList.camera.groundHeight;
  // The goal: a magenta post with a ball on top (at the helicopter's goal height, a ball there) standing on a disc. The
  // post and the disc are opaque (a translucent magenta all but vanishes on the boat's blue water); the ball is a ghost
  // (it does not hide a vehicle that reaches it).
  const float top = v.goalHasHeight ? float(v.goal[2]) : ground + 1.5f;
  ShapeItem post;
  post.kind = ShapeKind::Capsule;
  post.transform = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, float(v.goal[0]), float(v.goal[1]), 0.5f * (ground + top), 1};
  post.size = {0.05f, 0.05f, std::max(0.1f, top - ground)};
  post.color = {0.95f, 0.2f, 0.85f, 1.0f};
  app.drawList.shapes.push_back(post);
  ShapeItem disc = post;
  disc.kind = ShapeKind::Disc;
  disc.transform[14] = ground + 0.03f;
  disc.size = {0.4f, 0, 0};
  app.drawList.shapes.push_back(disc);
  ShapeItem ball = post;
  ball.kind = ShapeKind::Sphere;
  ball.transform[14] = top;
  ball.size = {0.25f, 0, 0};
  ball.ghost = true;
  app.drawList.shapes.push_back(ball);
  // From the current step on: a re-plan that took longer than a step measured an older state. The helicopter's path
  // at its height; a car's or a boat's on the ground or the water (the boat's centre of mass is below the surface).
  const size_t from = size_t(std::clamp(app.driver.step() - v.predictedFrom, 0L, long(v.predicted.size())));
  if (v.predicted.size() >= from + 2) {
    LineStrip s;
    for (size_t i = from; i < v.predicted.size(); ++i)
      s.points.push_back({v.predicted[i][0], v.predicted[i][1], (v.goalHasHeight ? v.predicted[i][2] : ground) + 0.05f});
    s.color = {0.95f, 0.3f, 0.9f, 0.9f};
    s.width = 3.0f;
    app.drawList.lines.push_back(std::move(s));
  }
}

std::string autopilotHudLine(const AppState& app) {
  if (!app.autopilot.active()) return "";
  const AutopilotView v = app.autopilot.view();
  const double dx = column(app, "x", 0.0) - v.goal[0], dy = column(app, "y", 0.0) - v.goal[1];
  const double dz = v.goalHasHeight ? column(app, "z", 0.0) - v.goal[2] : 0.0;
  char line[200];
  if (v.solves == 0)
    std::snprintf(line, sizeof line, "AUTOPILOT (M off): goal %.1f m away, first plan being solved", std::sqrt(dx * dx + dy * dy + dz * dz));
  else
    std::snprintf(line, sizeof line, "AUTOPILOT (M off): goal %.1f m away; re-plan %.0f ms, %d iterations, %s",
                  std::sqrt(dx * dx + dy * dy + dz * dz), 1e3 * v.last.seconds, v.last.iterations,
                  !v.last.adopted ? "not converged: last plan kept"
                  : v.last.rolledOut ? "budget spent: rolled-out plan flown"
                                     : "converged");
  return line;
}

std::string autopilotReport(const AppState& app) {
  const AutopilotView v = app.autopilot.view();
  const double dx = column(app, "x", 0.0) - v.goal[0], dy = column(app, "y", 0.0) - v.goal[1];
  const double dz = v.goalHasHeight ? column(app, "z", 0.0) - v.goal[2] : 0.0;
  char line[240];
  std::snprintf(line, sizeof line, "autopilot: goal (%.4g, %.4g) m, %.3f m away at t = %.4g s, impacts %.0f, %d re-plans (%d stale)%s",
                v.goal[0], v.goal[1], std::sqrt(dx * dx + dy * dy + dz * dz), app.driver.scene().time(),
                column(app, "impacts", 0.0), v.solves, v.stale, v.active ? "" : ", off");
  return line;
}

}  // namespace varsim

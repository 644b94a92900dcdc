// plan/snakeboard_plan_endpoints.cpp — the snakeboard's Plan-panel hook (plan/plan_endpoints.h): a plan starts where
// the running board is — its pose, the shape the sticks left it in and its momentum — through the scene's start keys
// (start_x, start_y, start_heading, start_psi, start_phi_offset, speed), so a re-plan and its Play continue from the
// running state. No named goals (the target is a clicked point).
#include <algorithm>
#include <cmath>

#include "engine/models/snakeboard.h"
#include "plan/plan_endpoints.h"

namespace varsim {
namespace {

constexpr double kTwoPi = 6.283185307179586;

void snakeboardStartFrom(const Scene& running, ParamSet& p) {
  const double theta = sceneColumn(running, "theta"), phi = sceneColumn(running, "phi");
  p.setReal("start_x", sceneColumn(running, "x"));
  p.setReal("start_y", sceneColumn(running, "y"));
  p.setReal("start_heading", theta - kTwoPi * std::round(theta / kTwoPi));  // in [-pi, pi]: the key's range
  p.setReal("start_psi", sceneColumn(running, "psi"));
  p.setReal("start_phi_offset", phi - p.real("phi"));
  // The key is the speed the scene turns into p (xi = speed / (2 l cos^2 phi) e1(phi), the shape at rest): invert
  // that linear map at the running phi, so the rebuilt board carries the running board's momentum (column mu).
  const SnakeboardParams board{p.real("m"), p.real("I"), p.real("J"), p.real("l")};
  const double c = std::cos(phi);
  const double perSpeed =
      snakeboard::momentumOfVelocity(board, phi, 0.0, snakeboard::e1(board.l, phi) / (2.0 * board.l * c * c));
  p.setReal("speed", sceneColumn(running, "mu") / perSpeed);
}

}  // namespace

VARSIM_REGISTER_PLAN_ENDPOINTS(PlanEndpointsInfo{"snakeboard", snakeboardStartFrom, nullptr});

}  // namespace varsim

// engine/control/heli_path_pilot.cpp — stick deflections that make the flight assist follow a path
// (heli_path_pilot.h): the desired horizontal acceleration becomes the assist's attitude command, the vertical and
// yaw errors its climb-rate and yaw-rate commands.
#include "engine/control/heli_path_pilot.h"

#include <algorithm>
#include <cmath>

namespace varsim {
namespace {

double wrap(double a) { return std::remainder(a, 2.0 * M_PI); }

// The stick s with s T + (1 - |s|) b = theta (FlightAssist::attitudeCommand's blend of stick tilt T and brake b,
// |b| <= T), clamped to [-1, 1].
double invertBlend(double theta, double brake, double tilt) {
  const double up = tilt - brake, down = tilt + brake;
  double s = theta >= brake ? (up > 0.0 ? (theta - brake) / up : 1.0) : (down > 0.0 ? (theta - brake) / down : -1.0);
  return std::clamp(s, -1.0, 1.0);
}

}  // namespace

StickCommand pathPilotSticks(const FlightAssistSettings& assist, double gravity, const PathPilotGains& gains,
                             const PathReference& ref, const Vector3d& x, const Vector3d& v, double heading) {
  const double w = gains.position, g = std::max(gravity, FlightAssist::kMinGravity);
  const Vector3d a = ref.a + w * w * (ref.x - x) + 2.0 * w * (ref.v - v);
  const double c = std::cos(heading), s = std::sin(heading);
  const double forward = c * a.x() + s * a.y(), left = -s * a.x() + c * a.y();
  const double vForward = c * v.x() + s * v.y(), vLeft = -s * v.x() + c * v.y();
  // Thrust tilted by theta forward gives a = g tan(theta); +phi accelerates to the right (-y).
  const double theta = std::atan(forward / g), phi = std::atan(-left / g), T = assist.maxTilt;
  const double k = assist.brakeGain;
  const double brakeTheta = std::clamp(-std::atan(k * vForward / g), -T, T);
  const double brakePhi = std::clamp(std::atan(k * vLeft / g), -T, T);
  StickCommand st;
  st.pitch = invertBlend(theta, brakeTheta, T);
  st.roll = invertBlend(phi, brakePhi, T);
  st.throttle = std::clamp((ref.v.z() + gains.climb * (ref.x.z() - x.z())) / assist.maxClimbRate, -1.0, 1.0);
  const double yawRate = ref.headingRate + gains.heading * wrap(ref.heading - heading);
  st.yaw = std::clamp(-yawRate / assist.maxYawRate, -1.0, 1.0);  // stick right = clockwise = -z
  return st;
}

}  // namespace varsim

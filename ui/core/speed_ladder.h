// Simulation speed presets for +/−: log-spaced (ratio ≈ 1.25, as 10^(1/10)) from ×0.1 to ×4, shown as
// % of real time.
#pragma once
#include <array>

namespace varsim {

constexpr std::array<double, 17> kSpeedLadder = {0.1, 0.125, 0.16, 0.2, 0.25, 0.32, 0.4, 0.5, 0.64,
                                                 0.8, 1.0,   1.25, 1.6, 2.0, 2.5,  3.2, 4.0};
double fasterSpeed(double speed);  // next preset above (×4 stays ×4)
double slowerSpeed(double speed);  // next preset below (×0.1 stays ×0.1)
double clampSpeed(double speed);   // into [0.1, 4]; non-finite → 1

}  // namespace varsim

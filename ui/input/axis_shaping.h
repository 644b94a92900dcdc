// Per-axis shaping of raw gamepad values into a normalized control deflection: calibration (measured
// extents and rest point, because sticks do not rest at 0 and triggers differ between pads), a
// dead-zone that is rescaled (continuous at its edge, full deflection still reaches 1), expo, invert.
#pragma once

namespace varsim {

// Raw device values at full negative deflection, at rest and at full positive deflection. A trigger
// rests at its minimum: center == min makes the axis unipolar (normalized to [0, 1]).
struct AxisCalibration {
  double min = -1.0;
  double center = 0.0;
  double max = 1.0;
};

struct AxisShaping {
  double deadZone = 0.08;  // fraction of the normalized half-range ignored around rest, [0, 0.9]
  double expo = 0.0;       // 0 linear … 1 cubic: out = (1-e)·x + e·x³ (fine control near rest)
  bool invert = false;     // e.g. GLFW stick Y is -1 when pushed up
  AxisCalibration cal;
};

// Raw GLFW axes lie in [-1, 1]; anything beyond this (or non-finite) is a misbehaving device.
constexpr double kRawAxisLimit = 1.05;
bool rawAxisValid(double raw);

// Piecewise linear: cal.center → 0, cal.max → +1, cal.min → -1 (or → 0 for a unipolar axis),
// clamped. Degenerate calibrations (max <= center) give 0.
double normalizeAxis(double raw, const AxisCalibration& cal);
// sign(x)·max(0, (|x| - dz)/(1 - dz)): zero inside the dead-zone, 1 at full deflection.
double applyDeadZone(double x, double deadZone);
double applyExpo(double x, double expo);
// The whole chain; an invalid raw value (NaN, out of range) gives 0, the neutral deflection.
double shapeAxis(double raw, const AxisShaping& shaping);
// Clamps user-edited shaping values to their documented ranges (settings files, UI).
AxisShaping sanitizeShaping(AxisShaping s);

// Calibration sweep: the user moves the axis through its whole travel; the observed extents become
// the calibration. Re-centre takes the current raw value as the rest point.
class AxisCalibrator {
 public:
  void begin(double raw);
  void observe(double raw);  // invalid values are ignored
  bool active() const { return active_; }
  double observedMin() const { return min_; }
  double observedMax() const { return max_; }
  // Ends the sweep; returns false (and leaves `cal` unchanged) if the travel was too small (< 0.2).
  bool finish(AxisCalibration& cal, bool unipolar);
  static void recentre(AxisCalibration& cal, double raw);

 private:
  bool active_ = false;
  double min_ = 0.0, max_ = 0.0;
};

}  // namespace varsim

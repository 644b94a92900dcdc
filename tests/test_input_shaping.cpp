// Input layer (ui/input): rescaled dead-zone, expo, invert, calibration sweep and re-centre, keyboard
// ramps per physics step, NaN/out-of-range axes and disconnects → neutral with a notice, the game-convention
// key layout of every vehicle, and a recorded key sequence driving the car scene through this layer (no GL).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ui/input/axis_shaping.h"
#include "ui/input/control_binding.h"
#include "ui/input/key_names.h"
#include "ui/input/live_input.h"
#include "tests/scene_harness.h"

using namespace varsim;

static const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST_CASE("DeadZoneRescaled: zero inside, continuous at the edge, full deflection still 1") {
  const double dz = 0.1;
  CHECK(applyDeadZone(0.0, dz) == 0.0);
  CHECK(applyDeadZone(0.1, dz) == 0.0);
  CHECK(applyDeadZone(-0.0999, dz) == 0.0);
  CHECK(applyDeadZone(0.1 + 1e-9, dz) == doctest::Approx(1e-9 / 0.9).epsilon(1e-6));  // continuous at the edge
  CHECK(applyDeadZone(1.0, dz) == 1.0);
  CHECK(applyDeadZone(-1.0, dz) == -1.0);
  CHECK(applyDeadZone(0.55, dz) == doctest::Approx(0.5).epsilon(1e-14));  // linear rescale (x-dz)/(1-dz)
  CHECK(applyDeadZone(-0.55, dz) == doctest::Approx(-0.5).epsilon(1e-14));
  // Monotonic and odd over the whole range.
  double prev = -2.0;
  for (int i = -100; i <= 100; ++i) {
    const double x = i / 100.0, y = applyDeadZone(x, dz);
    CHECK(y >= prev);
    CHECK(y == -applyDeadZone(-x, dz));
    prev = y;
  }
  CHECK(applyDeadZone(0.95, 5.0) == doctest::Approx(0.5));  // dead-zone clamped to 0.9
}

TEST_CASE("Expo: fixes 0 and ±1, odd, flatter near rest") {
  for (double e : {0.0, 0.3, 1.0}) {
    CHECK(applyExpo(0.0, e) == 0.0);
    CHECK(applyExpo(1.0, e) == doctest::Approx(1.0).epsilon(1e-15));
    CHECK(applyExpo(-1.0, e) == doctest::Approx(-1.0).epsilon(1e-15));
    CHECK(applyExpo(-0.4, e) == -applyExpo(0.4, e));
  }
  CHECK(applyExpo(0.5, 0.0) == 0.5);
  CHECK(applyExpo(0.5, 1.0) == 0.125);
  CHECK(applyExpo(0.5, 0.5) == doctest::Approx(0.3125).epsilon(1e-15));
  // Slope at rest is (1 - e): finite difference.
  CHECK((applyExpo(1e-6, 0.7) / 1e-6) == doctest::Approx(0.3).epsilon(1e-9));
}

TEST_CASE("Calibration: off-centre rest and short travel map to the full range") {
  AxisShaping s;
  s.deadZone = 0.0;
  s.cal = {-0.8, 0.05, 0.9};  // a worn stick
  CHECK(shapeAxis(0.05, s) == 0.0);
  CHECK(shapeAxis(0.9, s) == 1.0);
  CHECK(shapeAxis(-0.8, s) == -1.0);
  CHECK(shapeAxis(1.0, s) == 1.0);  // clamped
  CHECK(shapeAxis(0.475, s) == doctest::Approx(0.5).epsilon(1e-14));
  CHECK(shapeAxis(-0.375, s) == doctest::Approx(-0.5).epsilon(1e-14));
  s.invert = true;
  CHECK(shapeAxis(0.475, s) == doctest::Approx(-0.5).epsilon(1e-14));
  // Trigger: rests at its minimum, unipolar [0, 1].
  AxisShaping t;
  t.deadZone = 0.0;
  t.cal = {-1.0, -1.0, 1.0};
  CHECK(shapeAxis(-1.0, t) == 0.0);
  CHECK(shapeAxis(0.0, t) == 0.5);
  CHECK(shapeAxis(1.0, t) == 1.0);
  CHECK(shapeAxis(-1.02, t) == 0.0);
}

TEST_CASE("CalibrationSweep: observed extents become the calibration, re-centre takes the rest point") {
  AxisCalibrator c;
  c.begin(0.02);
  for (double raw : {0.1, 0.7, 0.93, kNaN, 5.0, -0.2, -0.85, 0.3}) c.observe(raw);
  CHECK(c.observedMin() == -0.85);
  CHECK(c.observedMax() == 0.93);  // NaN and 5.0 ignored
  AxisCalibration cal;
  REQUIRE(c.finish(cal, false));
  CHECK(cal.min == -0.85);
  CHECK(cal.max == 0.93);
  CHECK(cal.center == 0.0);
  AxisCalibrator::recentre(cal, 0.04);
  CHECK(cal.center == 0.04);
  AxisShaping s;
  s.deadZone = 0.0;
  s.cal = cal;
  CHECK(shapeAxis(0.04, s) == 0.0);
  CHECK(shapeAxis(0.93, s) == 1.0);
  // Too little travel: rejected, calibration unchanged.
  AxisCalibrator small;
  small.begin(0.0);
  small.observe(0.1);
  AxisCalibration keep{-0.9, 0.0, 0.9};
  CHECK_FALSE(small.finish(keep, false));
  CHECK(keep.max == 0.9);
  // Trigger sweep: unipolar, rest at the minimum.
  AxisCalibrator trig;
  trig.begin(-0.97);
  trig.observe(0.98);
  AxisCalibration tc;
  REQUIRE(trig.finish(tc, true));
  CHECK(tc.center == -0.97);
  CHECK(tc.min == -0.97);
}

TEST_CASE("InvalidRawValues: NaN, infinities and out-of-range axes give the neutral deflection") {
  AxisShaping s;
  for (double raw : {kNaN, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 1.5, -3.0})
    CHECK(shapeAxis(raw, s) == 0.0);
  CHECK(rawAxisValid(1.0));
  CHECK(rawAxisValid(-1.04));
  CHECK_FALSE(rawAxisValid(1.06));
  // Corrupt shaping values (e.g. from a settings file) are repaired.
  AxisShaping bad;
  bad.deadZone = kNaN;
  bad.expo = 7.0;
  bad.cal = {0.5, 0.9, 0.4};
  const AxisShaping fixed = sanitizeShaping(bad);
  CHECK(fixed.deadZone == 0.08);
  CHECK(fixed.expo == 1.0);
  CHECK(fixed.cal.min == -1.0);
  CHECK(fixed.cal.max == 1.0);
}

TEST_CASE("DeflectionToValue: bipolar and unipolar controls") {
  const ControlSpec steer{"steer", -0.5, 0.5, 0.0, ""};
  const ControlSpec throttle{"throttle", 0.0, 1.0, 0.0, ""};
  const ControlSpec asym{"asym", -1.0, 3.0, 0.0, ""};
  CHECK(deflectionToValue(steer, 1.0) == 0.5);
  CHECK(deflectionToValue(steer, -0.5) == -0.25);
  CHECK(deflectionToValue(throttle, -1.0) == 0.0);
  CHECK(deflectionToValue(throttle, 0.25) == 0.25);
  CHECK(deflectionToValue(asym, 0.5) == 1.5);
  CHECK(deflectionToValue(asym, -0.5) == -0.5);
  CHECK(deflectionToValue(asym, kNaN) == 0.0);
  CHECK(deflectionToValue(asym, 9.0) == 3.0);
  for (double d : {-1.0, -0.3, 0.0, 0.6, 1.0}) CHECK(valueToDeflection(asym, deflectionToValue(asym, d)) == doctest::Approx(d));
  CHECK(isUnipolar(throttle));
  CHECK_FALSE(isUnipolar(steer));
}

TEST_CASE("DefaultBindings: sticks for bipolar, triggers for unipolar, a key pair for every control") {
  const std::vector<ControlSpec> controls = {{"a", -1, 1, 0, ""}, {"b", 0, 1, 0, ""}, {"c", -1, 1, 0, ""},
                                             {"d", -1, 1, 0, ""}, {"e", -1, 1, 0, ""}, {"f", 0, 2, 0, ""}};
  const auto b = defaultBindings(controls);
  REQUIRE(b.size() == 6);
  CHECK(b[0].axis == 0);
  CHECK(b[1].axis == 5);  // right trigger
  CHECK(b[1].shaping.cal.center == -1.0);
  CHECK(b[2].axis == 1);
  CHECK(b[2].shaping.invert);  // stick up is -1 in GLFW
  CHECK(b[5].axis == 4);
  for (const auto& x : b) {
    CHECK(x.keyPos >= 0);
    CHECK(x.keyNeg >= 0);
    CHECK(x.keyPos != key::kLeft);   // ←/→ are the step shortcuts
    CHECK(x.keyPos != key::kRight);
  }
  CHECK(keyName(b[0].keyPos) == "D");
  CHECK(keyFromName("up") == key::kUp);
  CHECK(keyFromName("w") == key::kW);
  CHECK(keyFromName("nonsense") == key::kNone);
}

TEST_CASE("KeyboardRamp: advanced per physics step, bounded, returns to neutral") {
  const std::vector<ControlSpec> controls = {{"steer", -1, 1, 0, ""}, {"throttle", 0, 1, 0, ""}};
  LiveInput in;
  in.configure(controls, {});
  KeyboardSnapshot keys;
  keys.down = {in.bindings()[0].keyPos, in.bindings()[1].keyPos};
  in.setDevices(GamepadSnapshot{}, keys);
  const double h = 0.01;  // rampRate 3/s → 0.03 per step
  InputVector u = in.inputsForStep(0, h);
  CHECK(u[0] == doctest::Approx(0.03).epsilon(1e-12));
  for (int k = 1; k < 10; ++k) u = in.inputsForStep(k, h);
  CHECK(u[0] == doctest::Approx(0.3).epsilon(1e-12));
  for (int k = 10; k < 100; ++k) u = in.inputsForStep(k, h);
  CHECK(u[0] == 1.0);
  CHECK(u[1] == 1.0);
  in.setDevices(GamepadSnapshot{}, KeyboardSnapshot{});
  u = in.inputsForStep(100, h);
  CHECK(u[0] == doctest::Approx(0.94).epsilon(1e-12));  // released: back twice as fast
  for (int k = 101; k < 200; ++k) u = in.inputsForStep(k, h);
  CHECK(u == InputVector{0.0, 0.0});
  // Both keys of a pair: target neutral.
  keys.down = {in.bindings()[0].keyPos, in.bindings()[0].keyNeg};
  in.setDevices(GamepadSnapshot{}, keys);
  CHECK(in.inputsForStep(200, h)[0] == 0.0);
}

TEST_CASE("GamepadNaNAndDisconnect: a misbehaving or vanished pad yields neutral plus a notice") {
  const std::vector<ControlSpec> controls = {{"steer", -1, 1, 0, ""}, {"pitch", -2, 2, 0, ""}};
  LiveInput in;
  std::vector<ControlBinding> b = defaultBindings(controls);
  b[0].shaping.deadZone = 0.0;
  in.configure(controls, b);
  GamepadSnapshot pad;
  pad.connected = true;
  pad.name = "Test Pad";
  pad.axes = {0.5, -1.0, 0, 0, -1, -1};  // left y pushed fully up
  in.setDevices(pad, {});
  auto notices = in.takeNotices();
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("connected") != std::string::npos);
  InputVector u = in.inputsForStep(0, 0.01);
  CHECK(u[0] == 0.5);
  CHECK(u[1] == doctest::Approx(2.0 * (1.0 - 0.08 - 0.0) / 0.92));  // full up, inverted: +max
  // NaN on the stick: that control neutral, the other unaffected; one notice.
  pad.axes[0] = kNaN;
  in.setDevices(pad, {});
  in.setDevices(pad, {});
  u = in.inputsForStep(1, 0.01);
  CHECK(u[0] == 0.0);
  CHECK(u[1] == doctest::Approx(2.0));
  CHECK_FALSE(in.channels()[0].rawValid);
  notices = in.takeNotices();
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("left x") != std::string::npos);
  // Out of range is treated the same way.
  pad.axes[0] = 40.0;
  in.setDevices(pad, {});
  CHECK(in.inputsForStep(2, 0.01)[0] == 0.0);
  // Disconnect: neutral at once, with a notice naming the pad.
  pad.axes[0] = 0.7;
  in.setDevices(pad, {});
  CHECK(in.inputsForStep(3, 0.01)[0] == doctest::Approx(0.7));
  in.takeNotices();
  GamepadSnapshot gone;
  in.setDevices(gone, {});
  CHECK(in.inputsForStep(4, 0.01) == InputVector{0.0, 0.0});
  notices = in.takeNotices();
  REQUIRE(notices.size() == 1);
  CHECK(notices[0].find("disconnected (Test Pad)") != std::string::npos);
  CHECK(notices[0].find("neutral") != std::string::npos);
}

TEST_CASE("GamepadButtons: ramp like keys; invalid binding indices are dropped") {
  const std::vector<ControlSpec> controls = {{"yaw", -1, 1, 0, ""}};
  ControlBinding b;
  b.buttonPos = 12;  // DPad right
  b.rampRate = 10.0;
  ControlBinding broken = b;
  broken.axis = 99;
  broken.keyPos = -7;
  broken.rampRate = kNaN;
  const ControlBinding fixed = sanitizeBinding(broken);
  CHECK(fixed.axis == -1);
  CHECK(fixed.keyPos == -1);
  CHECK(fixed.rampRate == 3.0);
  LiveInput in;
  in.configure(controls, {b});
  GamepadSnapshot pad;
  pad.connected = true;
  pad.axes = {0, 0, 0, 0, -1, -1};
  pad.buttons[12] = true;
  in.setDevices(pad, {});
  CHECK(in.inputsForStep(0, 0.05)[0] == doctest::Approx(0.5));
  CHECK(in.inputsForStep(1, 0.05)[0] == doctest::Approx(1.0));
  pad.connected = false;
  in.setDevices(pad, {});
  // Buttons of a disconnected pad are released: the ramp returns to neutral.
  CHECK(in.inputsForStep(2, 0.05)[0] == doctest::Approx(0.0));
}

namespace {

// A recorded key sequence: the keys held on steps [from, to).
struct KeySpan {
  long from, to;
  std::vector<int> keys;
};

// Steps `scene` with the inputs LiveInput makes of the key sequence (defaults: the game conventions).
test::Rows driveWithKeys(Scene& scene, const std::vector<KeySpan>& sequence, long steps) {
  LiveInput in;
  in.configure(scene.controls(), {});
  test::Rows rows;
  std::vector<double> row;
  scene.diagnostics(row);
  rows.push_back(row);
  for (long k = 0; k < steps; ++k) {
    KeyboardSnapshot keys;
    for (const auto& span : sequence)
      if (k >= span.from && k < span.to) keys.down.insert(keys.down.end(), span.keys.begin(), span.keys.end());
    in.setDevices(GamepadSnapshot{}, keys);
    scene.step(scene.dt(), in.inputsForStep(k, scene.dt()));
    scene.diagnostics(row);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("KeyboardDrivesTheCar: W forward, A left, steering centres on release, S brakes then reverses") {
  auto scene = test::makeScene("car", {{"speed", "0"}, {"world", "open"}});
  // 2 s W, 1 s W+A, 2 s W, 4 s S (60 steps per second).
  const std::vector<KeySpan> seq = {{0, 120, {key::kW}}, {120, 180, {key::kW, key::kA}}, {180, 300, {key::kW}}, {300, 540, {key::kS}}};
  const auto rows = driveWithKeys(*scene, seq, 540);
  const auto col = [&](const char* name) { return size_t(test::columnOf(*scene, name)); };
  const size_t x = col("x"), y = col("y"), th = col("theta"), steer = col("steer_angle"), speed = col("speed");
  std::printf("keys on the car: after 2 s of W x = %.3f m, speed %.3f m/s; after 1 s of W+A heading %.3f rad, steering %.3f rad\n",
              rows[120][x], rows[120][speed], rows[180][th], rows[180][steer]);
  CHECK(rows[120][x] > 1.0);  // W: forward along the heading
  CHECK(rows[120][y] == 0.0);
  CHECK(rows[120][speed] > 0.5);
  CHECK(rows[180][th] > 0.05);  // A: a left (counter-clockwise) turn
  CHECK(rows[180][steer] > 0.2);
  // Released A: the key ramp returns in 1/(2 x 3/s) s, then return_to_centre brings the steering angle
  // back at centre_rate = 1/s: at most 1/6 + tan(0.6)/1 = 0.85 s.
  const double stated = 1.0 / 6.0 + std::tan(0.6) / 1.0;
  const long back = 180 + long(std::ceil(stated * 60.0));
  CHECK(rows[back][steer] == 0.0);
  CHECK(rows[back - 6][steer] > 0.0);  // not instantly: the stated time is the right size
  for (long k = back; k <= 300; ++k) CHECK(rows[size_t(k)][steer] == 0.0);
  // S: brakes to a stop, then (throttle released, brake_reverses) backs up.
  double slowest = INFINITY;
  for (long k = 300; k <= 540; ++k) slowest = std::min(slowest, rows[size_t(k)][speed]);
  CHECK(rows[300][speed] > 1.0);
  CHECK(slowest < -0.3);
  // The arrows are the same controls: Up/Left instead of W/A give the same run bit for bit.
  auto arrows = test::makeScene("car", {{"speed", "0"}, {"world", "open"}});
  const std::vector<KeySpan> seqArrows = {
      {0, 120, {key::kUp}}, {120, 180, {key::kUp, key::kLeft}}, {180, 300, {key::kUp}}, {300, 540, {key::kDown}}};
  CHECK(driveWithKeys(*arrows, seqArrows, 540) == rows);
}

TEST_CASE("KeyboardFliesAndSteers: helicopter W climbs and Up flies forward; boat W forward and A turns left") {
  auto heli = test::makeScene("helicopter");
  const auto col = [](const Scene& sc, const char* name) { return size_t(test::columnOf(sc, name)); };
  const auto hr = driveWithKeys(*heli, {{0, 180, {key::kW}}, {180, 420, {key::kUp}}}, 420);
  const double z0 = hr[0][col(*heli, "z")], z1 = hr[180][col(*heli, "z")];
  const double x1 = hr[180][col(*heli, "x")], x2 = hr[420][col(*heli, "x")];
  std::printf("keys on the helicopter: 3 s of W climbs %.2f m; then 4 s of Up moves %.2f m along +x\n", z1 - z0, x2 - x1);
  CHECK(z1 - z0 > 2.0);
  CHECK(x2 - x1 > 1.0);
  // Coarse hull patches (0.5 m instead of 0.25: a quarter of the patches; the volume is exact for any patch size):
  // the keys are what is tested, and the boat step is most of this test's time (3x of it under ASan).
  auto boat = test::makeScene("boat", {{"patch_size", "0.5"}});
  const auto br = driveWithKeys(*boat, {{0, 300, {key::kW}}, {300, 600, {key::kA}}}, 600);
  const auto yaw = [&](const std::vector<double>& r) {
    const double w = r[col(*boat, "qw")], x = r[col(*boat, "qx")], y = r[col(*boat, "qy")], z = r[col(*boat, "qz")];
    return std::atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
  };
  std::printf("keys on the boat: 5 s of W moves %.2f m along +x; 5 s of A turns %.3f rad\n",
              br[300][col(*boat, "x")] - br[0][col(*boat, "x")], yaw(br[600]) - yaw(br[300]));
  CHECK(br[300][col(*boat, "x")] - br[0][col(*boat, "x")] > 1.0);
  CHECK(yaw(br[600]) - yaw(br[300]) > 0.2);  // counter-clockwise: a left turn
}

TEST_CASE("KeyConventions: every vehicle scene's keys, and the HUD legend") {
  auto controlsOf = [](const char* scene) { return test::makeScene(scene)->controls(); };
  auto pressed = [](const std::vector<ControlSpec>& controls, std::vector<int> keys) {
    LiveInput in;
    in.configure(controls, {});
    KeyboardSnapshot snap;
    snap.down = keys;
    in.setDevices(GamepadSnapshot{}, snap);
    InputVector u;
    for (int k = 0; k < 120; ++k) u = in.inputsForStep(k, 1.0 / 60.0);  // ramped to full
    return u;
  };
  const auto car = controlsOf("car");  // steer, throttle, brake
  CHECK(pressed(car, {key::kD}) == InputVector{1.0, 0.0, 0.0});
  CHECK(pressed(car, {key::kRight}) == InputVector{1.0, 0.0, 0.0});
  CHECK(pressed(car, {key::kS}) == InputVector{0.0, 0.0, 1.0});
  CHECK(keyboardLegend(car, defaultBindings(car)) ==
        "steer A/\u2190 | D/\u2192  \u00b7  throttle W/\u2191  \u00b7  brake S/\u2193");
  const auto heli = controlsOf("helicopter");  // yaw, throttle, roll, pitch
  CHECK(pressed(heli, {key::kW}) == InputVector{0.0, 1.0, 0.0, 0.0});
  CHECK(pressed(heli, {key::kA}) == InputVector{-1.0, 0.0, 0.0, 0.0});
  CHECK(pressed(heli, {key::kUp}) == InputVector{0.0, 0.0, 0.0, 1.0});    // nose down, forward
  CHECK(pressed(heli, {key::kLeft}) == InputVector{0.0, 0.0, -1.0, 0.0});  // roll left
  const auto boat = controlsOf("boat");  // thrust_left, thrust_right
  CHECK(pressed(boat, {key::kW}) == InputVector{1.0, 1.0});
  CHECK(pressed(boat, {key::kUp}) == InputVector{1.0, 1.0});
  CHECK(pressed(boat, {key::kA}) == InputVector{0.0, 1.0});  // right thruster: turns left
  CHECK(pressed(boat, {key::kRight}) == InputVector{1.0, 0.0});
  const auto board = controlsOf("snakeboard");  // rotor, steer
  CHECK(pressed(board, {key::kW}) == InputVector{1.0, 0.0});
  CHECK(pressed(board, {key::kLeft}) == InputVector{0.0, -1.0});  // steer < 0: phi > 0, a left turn
  // No key of any vehicle scene is a simulation shortcut (Space, Backspace, P, Tab, +/-, , and .).
  for (const char* name : {"car", "helicopter", "boat", "snakeboard"})
    for (const auto& b : defaultBindings(controlsOf(name)))
      for (int k : {b.keyPos, b.keyNeg}) CHECK((k == key::kNone || (k >= 'A' && k <= 'Z' && k != 'P') || (k >= key::kRight && k <= key::kUp)));
}

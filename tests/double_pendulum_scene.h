// The app driver tests' chaotic test scene: a driven double pendulum registered as
// "test_double_pendulum" (unit masses and lengths, semi-implicit Euler), in whose last bits any
// difference in inputs or step sequence shows within a few hundred steps, and random input tracks for it.
#pragma once
#include <cmath>
#include <random>

#include "engine/sim/errors.h"
#include "engine/sim/input_track.h"
#include "scenes/scene.h"

namespace varsim {
namespace {

class DoublePendulumScene : public Scene {
 public:
  explicit DoublePendulumScene(ParamSet p) : Scene(std::move(p)) {}
  void step(double h, const InputVector& u) override {
    if (t_ >= params_.real("blowup_time")) throw SimulationDiverged("test blow-up: 'omega' exceeded the limit");
    const double damping = params_.real("damping"), g = 9.81;
    const double d = th1_ - th2_;
    const double den = 3.0 - std::cos(2.0 * d);
    const double a1 = (-3 * g * std::sin(th1_) - g * std::sin(th1_ - 2 * th2_) -
                       2 * std::sin(d) * (w2_ * w2_ + w1_ * w1_ * std::cos(d))) / den;
    const double a2 = (2 * std::sin(d) * (2 * w1_ * w1_ + 2 * g * std::cos(th1_) + w2_ * w2_ * std::cos(d))) / den;
    w1_ += h * (a1 + 5.0 * u[0] - damping * w1_);
    w2_ += h * (a2 + 5.0 * u[1] - damping * w2_);
    th1_ += h * w1_;
    th2_ += h * w2_;
    t_ += h;
    ++steps_;
  }
  double time() const override { return t_; }
  std::vector<std::string> columns() const override { return {"t", "energy", "x", "y", "step_count"}; }
  void diagnostics(std::vector<double>& row) const override {
    const double y1 = -std::cos(th1_), y2 = y1 - std::cos(th2_);
    const double v1sq = w1_ * w1_, v2sq = w1_ * w1_ + w2_ * w2_ + 2 * w1_ * w2_ * std::cos(th1_ - th2_);
    row = {t_, 0.5 * (v1sq + v2sq) + 9.81 * (y1 + y2), std::sin(th1_) + std::sin(th2_), y2, double(steps_)};
  }
  std::vector<double> saveState() const override { return {t_, th1_, th2_, w1_, w2_, double(steps_)}; }
  void loadState(const std::vector<double>& s) override {
    t_ = s[0]; th1_ = s[1]; th2_ = s[2]; w1_ = s[3]; w2_ = s[4]; steps_ = long(s[5]);
  }
  void draw(DrawList&) const override {}
  std::vector<ControlSpec> controls() const override {
    return {{"torque1", -1, 1, 0, "shoulder torque"}, {"torque2", -1, 1, 0, "elbow torque"}};
  }

 private:
  double t_ = 0, th1_ = 2.0, th2_ = 2.5, w1_ = 0, w2_ = 0;
  long steps_ = 0;
};

// Registered once per test executable although several test files include this header (they share one
// doctest executable per module): the first file's static initialiser adds it, the others find it.
[[maybe_unused]] const bool kDoublePendulumRegistered =
    SceneRegistry::find("test_double_pendulum") != nullptr || SceneRegistry::add(SceneInfo{
    "test_double_pendulum", "Test double pendulum", "chaotic test system for the app driver",
    [] {
      return std::vector<ParamSpec>{
          ParamSpec::real("dt", 1.0 / 120, 1e-5, 0.1, "s", "step", true),
          ParamSpec::real("damping", 0.0, 0.0, 10.0, "1/s", "joint damping").setLive(),
          ParamSpec::real("blowup_time", 1e9, 0.0, 1e9, "s", "throws SimulationDiverged from this time on")};
    },
    nullptr, [](const ParamSet& p) { return std::make_unique<DoublePendulumScene>(p); }});

InputTrack randomTrack(unsigned seed, long steps) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  InputTrack t;
  t.neutral = {0, 0};
  for (long k = 0; k < steps; k += 1 + long(rng() % 40)) t.append(k, {u(rng), u(rng)});
  return t;
}

}  // namespace
}  // namespace varsim

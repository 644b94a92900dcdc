// Plot widget data side (ui/plot): ring buffer order and wrap-around, rewind truncation, window
// selection, autoscale (linear and log-y), ticks, min/max decimation and CSV export of visible data.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "ui/plot/plot_export.h"
#include "ui/plot/plot_history.h"
#include "ui/plot/plot_range.h"

using namespace varsim;

static PlotHistory ramp(size_t capacity, int samples, double dt) {
  PlotHistory p(capacity);
  p.setSeries({"a", "b"});
  for (int i = 0; i < samples; ++i) REQUIRE(p.push(i * dt, {double(i), -2.0 * i}));
  return p;
}

TEST_CASE("PlotRingBuffer: keeps the newest samples in order across wrap-around") {
  PlotHistory p = ramp(100, 250, 0.1);
  CHECK(p.size() == 100);
  CHECK(p.time(0) == doctest::Approx(15.0));
  CHECK(p.value(0, 0) == 150.0);
  CHECK(p.value(1, 99) == -498.0);
  for (size_t i = 1; i < p.size(); ++i) CHECK(p.time(i) > p.time(i - 1));
  CHECK(p.seriesIndex("b") == 1);
  CHECK(p.seriesIndex("zz") == -1);
  // Wrong width, NaN time and going back in time are refused.
  CHECK_FALSE(p.push(100.0, {1.0}));
  CHECK_FALSE(p.push(std::nan(""), {1.0, 2.0}));
  CHECK_FALSE(p.push(1.0, {1.0, 2.0}));
  CHECK(p.size() == 100);
}

TEST_CASE("PlotTruncate: a history rewind drops the future, pushing continues after it") {
  PlotHistory p = ramp(100, 250, 0.1);
  p.truncateAfter(20.0);
  CHECK(p.size() == 51);  // samples 150…200
  CHECK(p.newestTime() == doctest::Approx(20.0));
  REQUIRE(p.push(20.05, {7.0, 7.0}));
  CHECK(p.value(0, p.size() - 1) == 7.0);
  p.truncateAfter(-1.0);
  CHECK(p.size() == 0);
  CHECK(p.nearest(3.0) == 0);
}

TEST_CASE("PlotWindow: 5 s … 10 min, sliding once enough time has passed") {
  CHECK(kPlotWindows.front() == 5.0);
  CHECK(kPlotWindows.back() == 600.0);
  CHECK(clampPlotWindow(7.0) == 5.0);
  CHECK(clampPlotWindow(8.0) == 10.0);
  CHECK(clampPlotWindow(1e6) == 600.0);
  CHECK(clampPlotWindow(std::nan("")) == 10.0);
  TimeWindow w = timeWindow(3.0, 10.0);
  CHECK(w.tMin == 0.0);
  CHECK(w.tMax == 10.0);
  w = timeWindow(42.0, 10.0);
  CHECK(w.tMin == 32.0);
  CHECK(w.tMax == 42.0);
  PlotHistory p = ramp(1000, 1000, 0.1);  // t = 0 … 99.9
  const auto [first, last] = p.range(32.0, 42.0);
  CHECK(p.time(first) == doctest::Approx(32.0));
  CHECK(p.time(last - 1) == doctest::Approx(42.0));
  CHECK(last - first == 101);
  CHECK(p.range(5.0, 1.0).first == p.range(5.0, 1.0).second);  // empty for an inverted window
  CHECK(p.nearest(41.96) == 420);
  CHECK(p.nearest(41.94) == 419);
  CHECK(p.nearest(-5.0) == 0);
  CHECK(p.nearest(1e9) == 999);
}

TEST_CASE("Autoscale: linear range with padding; constants, NaN and empty handled") {
  PlotHistory p(64);
  p.setSeries({"x", "y"});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  p.push(0.0, {1.0, 5.0});
  p.push(1.0, {3.0, nan});
  p.push(2.0, {2.0, 5.0});
  YRange r = autoscale(p, {0}, 0, p.size(), false);
  REQUIRE(r.valid);
  CHECK(r.lo == doctest::Approx(0.9).epsilon(1e-14));
  CHECK(r.hi == doctest::Approx(3.1).epsilon(1e-14));
  r = autoscale(p, {0, 1}, 0, p.size(), false);
  CHECK(r.hi == doctest::Approx(5.2).epsilon(1e-14));
  r = autoscale(p, {1}, 0, p.size(), false);  // constant 5 (NaN skipped): still a visible band
  REQUIRE(r.valid);
  CHECK(r.lo < 5.0);
  CHECK(r.hi > 5.0);
  CHECK(r.hi - r.lo == doctest::Approx(0.01));
  CHECK_FALSE(autoscale(p, {1}, 1, 2, false).valid);  // only NaN visible
  CHECK_FALSE(autoscale(p, {7}, 0, 3, false).valid);  // unknown series
}

TEST_CASE("Autoscale: a floor relative to the signal's scale; round-off draws flat, an exact zero at 0") {
  PlotHistory p(64);
  p.setSeries({"qnorm_err", "zero", "energy_err", "tiny"});
  const double noise[] = {2.2e-16, -1.1e-16, 0.0, 3.3e-16};
  for (int i = 0; i < 4; ++i) p.push(i, {noise[i], 0.0, 1e-4 * (i - 1.5), 1.136e-20 + 1e-24 * i});
  // |q| - 1 (scale 1): round-off of 1e-16 gets the ±1e-9 floor about its middle, not a ±3e-16 axis.
  YRange r = autoscale(p, {0}, 0, p.size(), false, 1.0);
  REQUIRE(r.valid);
  CHECK(r.hi - r.lo == doctest::Approx(2e-9).epsilon(1e-6));
  CHECK(0.5 * (r.lo + r.hi) == doctest::Approx(1.1e-16).epsilon(1e-6));
  // Exactly zero everywhere: a unit axis (or ±scale) with the line at 0, never ±1e-12.
  r = autoscale(p, {1}, 0, p.size(), false, 1.0);
  CHECK(r.lo == -1.0);
  CHECK(r.hi == 1.0);
  r = autoscale(p, {1}, 0, p.size(), false, 250.0);
  CHECK(r.hi == 250.0);
  r = autoscale(p, {1}, 0, p.size(), false, 0.0);
  CHECK(r.hi == 1.0);
  // E - E0 of 1e-4 J against |E0| = 40 J: resolved as before (5 % padding), the floor is 4e-8.
  r = autoscale(p, {2}, 0, p.size(), false, 40.0);
  CHECK(r.lo == doctest::Approx(-1.65e-4).epsilon(1e-9));
  CHECK(r.hi == doctest::Approx(1.65e-4).epsilon(1e-9));
  // 1.136e-20 varying by 3e-24 (the four identical tick labels): flat at the floor, ticks distinct.
  r = autoscale(p, {3}, 0, p.size(), false, 1.0);
  CHECK(r.hi - r.lo == doctest::Approx(2e-9).epsilon(1e-6));
  const auto ticks = niceTicks(r.lo, r.hi, 4);
  REQUIRE(ticks.size() >= 3);
  CHECK(ticks[1] - ticks[0] == doctest::Approx(5e-10).epsilon(1e-6));
  // With no declared scale the floor follows the data (1e-9 x 1000): 1000 + 1e-7 draws flat, 1000 + 1e-4 resolves.
  PlotHistory big(8);
  big.setSeries({"x"});
  big.push(0.0, {1000.0});
  big.push(1.0, {1000.0 + 1e-7});
  r = autoscale(big, {0}, 0, big.size(), false, 0.0);
  CHECK(r.hi - r.lo == doctest::Approx(2e-6).epsilon(1e-6));
  big.push(2.0, {1000.0 + 1e-4});
  r = autoscale(big, {0}, 0, big.size(), false, 0.0);
  CHECK(r.hi - r.lo == doctest::Approx(1.1e-4).epsilon(1e-6));
}

TEST_CASE("AutoscaleLog: decades of |y|, zeros skipped, padded to tenths") {
  PlotHistory p(64);
  p.setSeries({"err"});
  p.push(0.0, {0.0});
  p.push(1.0, {-1e-12});
  p.push(2.0, {3e-9});
  p.push(3.0, {1e-6});
  const YRange r = autoscale(p, {0}, 0, p.size(), true);
  REQUIRE(r.valid);
  CHECK(r.lo == doctest::Approx(-12.3).epsilon(1e-12));
  CHECK(r.hi == doctest::Approx(-5.7).epsilon(1e-12));
  const auto ticks = logTicks(r.lo, r.hi);
  CHECK(ticks.front() == -12.0);
  CHECK(ticks.back() == -6.0);
  PlotHistory zeros(8);
  zeros.setSeries({"z"});
  zeros.push(0.0, {0.0});
  CHECK_FALSE(autoscale(zeros, {0}, 0, 1, true).valid);
}

TEST_CASE("NiceTicks: steps of 1, 2 or 5 × 10^k covering the range") {
  auto t = niceTicks(0.0, 1.0, 5);
  REQUIRE(t.size() == 6);
  CHECK(t[1] == doctest::Approx(0.2));
  t = niceTicks(-0.37, 0.52, 4);
  CHECK(t.front() == doctest::Approx(-0.2));
  CHECK(t.back() == doctest::Approx(0.4));
  bool hasZero = false;
  for (double v : t) hasZero = hasZero || v == 0.0;
  CHECK(hasZero);  // exactly 0, not -1e-17
  t = niceTicks(1234.0, 1239.0, 5);
  CHECK(t.front() == doctest::Approx(1234.0));
  CHECK(niceTicks(1.0, 1.0, 5).empty());
  CHECK(niceTicks(0.0, std::nan(""), 5).empty());
  CHECK(logTicks(-30.0, 0.0).size() <= 8);
}

TEST_CASE("DecimateMinMax: one min/max span per pixel column keeps extremes") {
  PlotHistory p(10000);
  p.setSeries({"s"});
  for (int i = 0; i < 10000; ++i) p.push(i * 0.001, {std::sin(i * 0.05) + (i == 5000 ? 10.0 : 0.0)});
  const auto cols = decimateMinMax(p, 0, 0, p.size(), 0.0, 10.0, 100, false);
  REQUIRE(cols.size() == 100);
  double hi = -1e9;
  for (const auto& c : cols) hi = std::max(hi, c.hi);
  CHECK(hi == doctest::Approx(10.0 + std::sin(250.0)));  // a one-sample spike survives decimation
  CHECK(cols[50].hi > 9.0);
  const auto sparse = decimateMinMax(p, 0, 0, 3, 0.0, 10.0, 100, false);
  CHECK(std::isnan(sparse[99].lo));  // columns without samples are empty
}

TEST_CASE("PlotExport: visible window and series at round-trip precision") {
  PlotHistory p(1000);
  p.setSeries({"energy", "L_x", "L_y"});
  for (int i = 0; i < 1000; ++i) p.push(i / 60.0, {1.0 / 3.0 + i, std::exp(-i * 0.01), double(i)});
  const std::string path = std::string(VARSIM_TEST_OUT) + "/plot_export.csv";
  std::string error;
  REQUIRE(exportVisibleCsv(path, p, {0, 2}, 5.0, 6.0, error));
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  CHECK(header == "t,energy,L_y");
  std::vector<std::string> rows;
  while (std::getline(in, line)) rows.push_back(line);
  CHECK(rows.size() == 61);  // t = 300/60 … 360/60, both ends included
  std::stringstream first(rows.front());
  double t, e, ly;
  char c1, c2;
  first >> t >> c1 >> e >> c2 >> ly;
  CHECK(t == 300.0 / 60.0);
  CHECK(e == 1.0 / 3.0 + 300);  // exact round trip
  CHECK(ly == 300.0);
  CHECK_FALSE(exportVisibleCsv("/nonexistent_dir/x.csv", p, {0}, 0, 1, error));
  CHECK(error.find("/nonexistent_dir/x.csv") != std::string::npos);
  CHECK_FALSE(exportVisibleCsv(path, p, {9}, 0, 1, error));
  CHECK(exportFileName("Energy error: relative", 1.0, 11.5) == "varsim_energy_error_relative_t1.00-11.50.csv");
}

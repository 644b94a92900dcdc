// Tests of the XY plot math (ui/plot/xy_plot_math.h) behind the app's integrator-study plots: log ranges in whole
// decades, decade labels and minor ticks, and curves split where a method blew up.
#include <doctest/doctest.h>

#include <cmath>

#include "ui/plot/xy_plot_math.h"

using namespace varsim;

TEST_CASE("LogRangeIsWholeDecadesOverPositiveValues") {
  const AxisRange r = xyAxisRange({3e-5, 0.02, 0.0, -1.0, NAN, INFINITY, 450.0}, true);
  CHECK(r.valid);
  CHECK(r.lo == -5.0);
  CHECK(r.hi == 3.0);
  const AxisRange one = xyAxisRange({0.1, 0.1}, true);  // a single value still spans a decade
  CHECK(one.lo == -1.0);
  CHECK(one.hi == 0.0);
  CHECK_FALSE(xyAxisRange({0.0, -2.0, NAN}, true).valid);
  CHECK_FALSE(xyAxisRange({}, false).valid);
  const AxisRange lin = xyAxisRange({-1.0, 3.0, NAN}, false);
  CHECK(lin.lo == doctest::Approx(-1.2));
  CHECK(lin.hi == doctest::Approx(3.2));
  const AxisRange flat = xyAxisRange({2.0, 2.0}, false);
  CHECK(flat.hi - flat.lo == doctest::Approx(4e-3));
}

TEST_CASE("AxisFractionOnLogAndLinearAxes") {
  const AxisRange r{-3.0, 1.0, true};
  CHECK(axisFraction(1e-3, r, true) == doctest::Approx(0.0));
  CHECK(axisFraction(0.1, r, true) == doctest::Approx(0.5));
  CHECK(axisFraction(10.0, r, true) == doctest::Approx(1.0));
  CHECK(std::isnan(axisFraction(0.0, r, true)));
  CHECK(std::isnan(axisFraction(NAN, r, false)));
  CHECK(axisFraction(-1.0, AxisRange{-3.0, 1.0, true}, false) == doctest::Approx(0.5));
}

TEST_CASE("DecadeLabelsAndMinorTicks") {
  CHECK(decadeLabel(-2) == "0.01");
  CHECK(decadeLabel(0) == "1");
  CHECK(decadeLabel(3) == "1000");
  CHECK(decadeLabel(-5) == "1e-05");
  CHECK(decadeLabel(6) == "1e+06");
  const auto minor = minorLogTicks(-1.0, 1.0);  // 2..9 x 10^-1 and 2..9 x 10^0
  REQUIRE(minor.size() == 16);
  CHECK(minor.front() == doctest::Approx(std::log10(0.2)));
  CHECK(minor.back() == doctest::Approx(std::log10(9.0)));
  CHECK(minorLogTicks(0.5, 0.6).size() == 0);   // between 10^0.5 and 10^0.6: no 2..9 multiple (3.16 .. 3.98)
  CHECK(minorLogTicks(0.0, 0.35).size() == 1);  // 2
  CHECK(minorLogTicks(1.0, 0.0).empty());
}

TEST_CASE("CurveSplitsWhereTheMethodBlewUp") {
  using S = PointState;
  // h descending: blown up at the two largest steps, partial at the third, then
  // a clean tail with one missing cell (a cancelled study) and a zero error
  // (not drawable on a log axis).
  const std::vector<CurvePoint> pts = {{2, 0, S::BlownUp},   {4, 0, S::BlownUp}, {8, 0.5, S::Partial},
                                       {16, 0.1, S::Ok},     {32, 0.03, S::Ok},  {64, 0.01, S::Ok},
                                       {128, 0, S::Missing}, {256, 1e-3, S::Ok}, {512, 0.0, S::Ok},
                                       {1024, 1e-5, S::Ok},  {2048, 1e-6, S::Ok}};
  const auto seg = curveSegments(pts, true, true);
  REQUIRE(seg.size() == 3);
  CHECK(seg[0] == std::pair<size_t, size_t>(3, 6));
  CHECK(seg[1] == std::pair<size_t, size_t>(7, 8));  // a lone point: drawn as a marker
  CHECK(seg[2] == std::pair<size_t, size_t>(9, 11));
  // On a linear y axis the zero error joins its neighbours.
  const auto lin = curveSegments(pts, true, false);
  REQUIRE(lin.size() == 2);
  CHECK(lin[1] == std::pair<size_t, size_t>(7, 11));
  CHECK(curveSegments({}, true, true).empty());
}

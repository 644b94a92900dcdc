// Parameter validation: every rejection names the key, the value and the allowed range.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "engine/sim/param.h"

using namespace varsim;

static ParamSet sample() {
  return ParamSet({ParamSpec::real("mass", 2.0, 0.0, 1e6, "kg", "body mass", true),
                   ParamSpec::integer("links", 20, 1, 1000, "number of links"),
                   ParamSpec::boolean("assist", true, "flight assist"),
                   ParamSpec::choice("tangent", "cay", {"cay", "exp", "tln"}, "tangent map"),
                   ParamSpec::vector("inertia", {1, 2, 3}, 0.0, 1e6, "kg m^2", "moments", true)});
}

static std::string messageOf(const std::function<void()>& f) {
  try { f(); } catch (const BadInput& e) { return e.what(); }
  return "";
}

TEST_CASE("param: defaults and typed accessors") {
  ParamSet p = sample();
  CHECK(p.real("mass") == 2.0);
  CHECK(p.integer("links") == 20);
  CHECK(p.flag("assist"));
  CHECK(p.choice("tangent") == "cay");
  CHECK(p.vec3("inertia").isApprox(Eigen::Vector3d(1, 2, 3)));
}

TEST_CASE("param: strings parse into every type") {
  ParamSet p = sample();
  p.setFromString("mass", "3.5", "--set");
  p.setFromString("links", "7", "--set");
  p.setFromString("assist", "false", "--set");
  p.setFromString("tangent", "exp", "--set");
  p.setFromString("inertia", "1,2,3.5", "--set");
  CHECK(p.real("mass") == 3.5);
  CHECK(p.integer("links") == 7);
  CHECK_FALSE(p.flag("assist"));
  CHECK(p.choice("tangent") == "exp");
  CHECK(p.vector("inertia")[2] == 3.5);
  CHECK(p.valueText("inertia") == "1,2,3.5");
}

TEST_CASE("param: bad values are rejected with key, value and range") {
  ParamSet p = sample();
  std::string m = messageOf([&] { p.setFromString("mass", "0", "f.json"); });
  CHECK(m.find("f.json") != std::string::npos);
  CHECK(m.find("'mass'") != std::string::npos);
  CHECK(m.find("(0, 1e+06]") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("mass", "nan", "x"); }).find("not finite") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("mass", "abc", "x"); }).find("not a number") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("links", "2.5", "x"); }).find("not an integer") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("links", "1001", "x"); }).find("out of range") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("tangent", "foo", "x"); }).find("one of: cay, exp, tln") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("inertia", "1,2", "x"); }).find("expected 3") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("nokey", "1", "x"); }).find("unknown key 'nokey'") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("assist", "maybe", "x"); }).find("true|false") != std::string::npos);
  // A rejected value leaves the previous one in place.
  CHECK(p.real("mass") == 2.0);
}

TEST_CASE("param: formatNumber round-trips") {
  for (double v : {0.1, 1.0 / 3.0, 1e-300, 6.02214076e23, -2.5}) CHECK(std::strtod(formatNumber(v).c_str(), nullptr) == v);
  CHECK(formatNumber(0.1) == "0.1");
  // The shortest text wins: 10 is "10", not "1e+01"; 1e6 stays "1e+06".
  CHECK(formatNumber(10) == "10");
  CHECK(formatNumber(100) == "100");
  CHECK(formatNumber(1e6) == "1e+06");
  CHECK(formatNumber(1e8) == "1e+08");
}

TEST_CASE("param: formatNumber is the shortest of the 17 precisions of %g, first on ties") {
  // The definition, every precision tried; formatNumber starts at the shortest round-trip digit count.
  const auto search = [](double v) {
    std::string best;
    char buf[40];
    for (int precision = 1; precision <= 17; ++precision) {
      std::snprintf(buf, sizeof buf, "%.*g", precision, v);
      if (std::strtod(buf, nullptr) == v && (best.empty() || std::strlen(buf) < best.size())) best = buf;
    }
    return best.empty() ? std::string(buf) : best;
  };
  std::vector<double> values = {0.0, -0.0, 1234560.0, 1e-4, 1.5e10, 9.999999999999999e22, 1e23, 5e-324, 1e-320,
                                std::ldexp(1.0, 60), std::ldexp(1.0, -60), 0.3, 2.0 / 3.0, 1e308,
                                std::numeric_limits<double>::infinity(), std::nan("")};
  std::mt19937_64 rng(34);
  for (int i = 0; i < 1500; ++i) {
    const double mantissa = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
    values.push_back(std::ldexp(mantissa, int(rng() % 200) - 100));              // any bits
    values.push_back(std::round(mantissa * std::pow(10.0, double(rng() % 9))) *  // few decimal digits
                     std::pow(10.0, double(int(rng() % 12) - 6)));
  }
  for (const double v : values) CHECK(formatNumber(v) == search(v));
}

TEST_CASE("param: --set numbers follow the one strict parser (number_text.h)") {
  ParamSet p = sample();
  p.setFromString("mass", "1e-320", "--set");  // a subnormal, as a scene file takes it
  CHECK(p.real("mass") == 1e-320);
  p.setFromString("inertia", "2,4,5", "--set");
  CHECK(p.vector("inertia")[2] == 5.0);
  std::string m = messageOf([&] { p.setFromString("inertia", "2,4,5,", "--set"); });
  CHECK(m.find("--set: key 'inertia': item 4: empty text is not a number") != std::string::npos);
  CHECK(m.find("allowed 3 numbers") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("inertia", ",2,4", "x"); }).find("item 1") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("mass", "0x10", "x"); }).find("'0x10' is not a number") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("mass", " 3", "x"); }).find("not a number") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("mass", "1e400", "x"); }).find("out of the range") != std::string::npos);
  CHECK(messageOf([&] { p.setFromString("links", "inf", "x"); }).find("not finite") != std::string::npos);
  const std::string huge(100000, '9');
  m = messageOf([&] { p.setFromString("mass", huge, "x"); });
  CHECK(m.find("(100000 characters)") != std::string::npos);
  CHECK(m.size() < 200);
  m = messageOf([&] { p.setFromString(std::string(10000, 'k'), "1", "x"); });
  CHECK(m.find("unknown key") != std::string::npos);
  CHECK(m.size() < 300);
}

TEST_CASE("param: counts are whole numbers checked against their limits before conversion") {
  CHECK(parseCount("1e8", 0, 1e8).value == 1e8);
  CHECK(parseCount("0", 0, 1e8).ok);
  CHECK(parseCount("1e300", 0, 1e8).error == "'1e300' is above the maximum 1e+08");
  CHECK(parseCount("-1", 0, 1e8).error == "'-1' is below the minimum 0");
  CHECK(parseCount("2.5", 1, 10).error == "'2.5' is not a whole number");
  CHECK_FALSE(parseCount("0x10", 0, 100).ok);
  std::vector<double> v;
  CHECK(parseNumberList("1,2.5,-3e-2", v).empty());
  CHECK(v == std::vector<double>{1, 2.5, -3e-2});
  CHECK(parseNumberList("1,2,", v) == "item 3: empty text is not a number (expected a decimal literal such as -1.5e-3)");
  CHECK(shortText("abc", 60) == "abc");
  CHECK(shortText(std::string(61, 'a'), 60) == std::string(60, 'a') + "... (61 characters)");
}

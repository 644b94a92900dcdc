// Observed order of convergence (or scaling exponent): the least-squares slope of log(y) against
// log(x). One definition for every test and benchmark that measures an order or a slope.
#pragma once
#include <cmath>
#include <vector>

namespace varsim::test {

inline double logLogSlope(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0, my = 0;
  const double n = double(x.size());
  for (size_t i = 0; i < x.size(); ++i) mx += std::log(x[i]) / n, my += std::log(y[i]) / n;
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double dx = std::log(x[i]) - mx;
    sxy += dx * (std::log(y[i]) - my), sxx += dx * dx;
  }
  return sxy / sxx;
}

}  // namespace varsim::test

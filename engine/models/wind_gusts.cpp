// engine/models/wind_gusts.cpp — the gust samples: splitmix64 of (seed, sample index, component) as the uniform
// source, Box-Muller for the normal deviates, linear interpolation in time between samples.
#include "engine/models/wind_gusts.h"

#include <cmath>

namespace varsim {
namespace {

std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A uniform number in (0, 1) from the counter.
double uniform(std::uint64_t seed, std::uint64_t counter) {
  const std::uint64_t bits = splitmix64(splitmix64(seed) ^ counter) >> 11;  // 53 bits
  return (double(bits) + 0.5) / 9007199254740992.0;
}

// Sample `index` of the sequence: a standard normal per component (Box-Muller), horizontal then 0.3 vertical.
Vector3d sample(std::uint64_t seed, std::uint64_t index) {
  Vector3d v;
  for (int c = 0; c < 3; ++c) {
    const double u1 = uniform(seed, 6 * index + 2 * std::uint64_t(c)), u2 = uniform(seed, 6 * index + 2 * std::uint64_t(c) + 1);
    v[c] = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }
  v.z() *= 0.3;
  return v;
}

}  // namespace

Vector3d gustVelocity(const GustSettings& s, double t) {
  if (!(s.strength > 0.0) || !(s.period > 0.0) || !(t >= 0.0)) return Vector3d::Zero();
  const double u = t / s.period;
  const double i = std::floor(u), a = u - i;
  const std::uint64_t k = std::uint64_t(i);
  return s.strength * ((1.0 - a) * sample(s.seed, k) + a * sample(s.seed, k + 1));
}

}  // namespace varsim

// Study (prints a table; not a timed test): issue 12 item 4 — seed 002 Fig. 2. For N seeded random (J, omega)
// (principal moments 1, m, kappa with kappa uniform in [1, kappa_max], random orientation and direction), the
// bounds h_bar |w| of eqs. (19) (TLN) and (20) (Cayley) against the empirical h |w| at which the Newton Jacobian
// (17)/(18) first turns singular and at which Newton from omega_k first fails (scan 1e-3..100). Prints the
// fraction of trials whose observed failure lies below each bound (must be 0) and how tight each bound is
// (min / median of observed / bound); writes every trial as CSV and, when built with stb, a PNG scatter:
// x = kappa (1..kappa_max), y = h|w| log (0.1..100, grid at decades), red = TLN singular, orange = TLN Newton
// failure, blue = Cayley Newton failure, dark red / dark blue lines = (19) / (20).
// Usage: bench_rigid_step_bounds [--trials N] [--seed S] [--kappa-max K] [--csv FILE] [--png FILE]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/integrators/rigid_step_bounds.h"

#ifdef VARSIM_HAVE_STB
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#endif

using namespace varsim;
using namespace varsim::stepbounds;

namespace {

struct Stats {
  int observed = 0, below = 0;
  std::vector<double> ratio;  // observed / bound where both are finite
  double min() const { return ratio.empty() ? NAN : *std::min_element(ratio.begin(), ratio.end()); }
  double median() {
    if (ratio.empty()) return NAN;
    std::nth_element(ratio.begin(), ratio.begin() + long(ratio.size() / 2), ratio.end());
    return ratio[ratio.size() / 2];
  }
  void add(double obs, double bnd) {
    if (!std::isfinite(obs)) return;
    ++observed;
    if (obs < bnd) ++below;
    if (std::isfinite(bnd)) ratio.push_back(obs / bnd);
  }
};

#ifdef VARSIM_HAVE_STB
struct Canvas {
  int w = 900, h = 600;
  double kappaMax;
  std::vector<unsigned char> rgb = std::vector<unsigned char>(size_t(900 * 600 * 3), 255);
  int px(double kappa) const { return int(40 + (w - 60) * (kappa - 1.0) / (kappaMax - 1.0)); }
  int py(double y) const { return int(h - 30 - (h - 50) * (std::log10(y) + 1.0) / 3.0); }  // 0.1 .. 100
  void dot(int x, int y, const unsigned char c[3], int r = 1) {
    for (int i = -r; i <= r; ++i)
      for (int j = -r; j <= r; ++j)
        if (x + i >= 0 && x + i < w && y + j >= 0 && y + j < h)
          std::memcpy(&rgb[size_t(((y + j) * w + x + i) * 3)], c, 3);
  }
};

void writePng(const std::string& path, double kappaMax, const std::vector<BoundTrial>& trials) {
  Canvas cv;
  cv.kappaMax = kappaMax;
  const unsigned char grid[3] = {215, 215, 215}, red[3] = {230, 40, 40}, orange[3] = {245, 160, 30},
                      blue[3] = {40, 90, 230}, dred[3] = {120, 0, 0}, dblue[3] = {0, 0, 120};
  for (double y : {0.1, 1.0, 10.0, 100.0})
    for (int x = cv.px(1.0); x <= cv.px(kappaMax); ++x) cv.dot(x, cv.py(y), grid, 0);
  for (int k = 1; k <= int(kappaMax); ++k)
    for (int y = cv.py(100.0); y <= cv.py(0.1); ++y) cv.dot(cv.px(k), y, grid, 0);
  for (const BoundTrial& t : trials) {
    if (std::isfinite(t.singular[0]) && t.singular[0] <= 100) cv.dot(cv.px(t.kappa), cv.py(t.singular[0]), red);
    if (std::isfinite(t.newtonFail[0]) && t.newtonFail[0] <= 100)
      cv.dot(cv.px(t.kappa), cv.py(t.newtonFail[0]), orange);
    if (std::isfinite(t.newtonFail[1]) && t.newtonFail[1] <= 100) cv.dot(cv.px(t.kappa), cv.py(t.newtonFail[1]), blue);
  }
  for (int x = cv.px(1.0); x <= cv.px(kappaMax); ++x) {
    const double kappa = 1.0 + (kappaMax - 1.0) * (x - cv.px(1.0)) / double(cv.px(kappaMax) - cv.px(1.0));
    for (int s = 0; s < 2; ++s) {
      const double b = bound(s ? Scheme::Cayley : Scheme::Tln, kappa, 1.0);
      if (std::isfinite(b) && b >= 0.1 && b <= 100) cv.dot(x, cv.py(b), s ? dblue : dred, 1);
    }
  }
  if (!stbi_write_png(path.c_str(), cv.w, cv.h, 3, cv.rgb.data(), cv.w * 3))
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
}
#endif

}  // namespace

int main(int argc, char** argv) {
  int trials = 50000;
  std::uint64_t seed = 2;
  double kappaMax = 10.0;
  std::string csv = "rigid_step_bounds.csv", png = "rigid_step_bounds.png";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--trials")
      trials = std::atoi(argv[i + 1]);
    else if (a == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--kappa-max")
      kappaMax = std::atof(argv[i + 1]);
    else if (a == "--csv")
      csv = argv[i + 1];
    else if (a == "--png")
      png = argv[i + 1];
    else
      return std::fprintf(stderr, "unknown option %s\n", a.c_str()), 2;
  }
  if (trials < 1 || !(kappaMax > 1.0 && kappaMax <= 1e4)) return std::fprintf(stderr, "bad --trials/--kappa-max\n"), 2;
  std::FILE* f = std::fopen(csv.c_str(), "w");
  if (!f) return std::fprintf(stderr, "cannot write %s\n", csv.c_str()), 2;
  std::fprintf(f, "trial,kappa,hbar_tln,hbar_cay,singular_tln,singular_cay,newton_fail_tln,newton_fail_cay\n");
  std::vector<BoundTrial> all;
  Stats singular[2], newton[2];
  for (int k = 0; k < trials; ++k) {
    Matrix3d J;
    Vector3d w;
    sampleTrial(seed, kappaMax, J, w);
    const BoundTrial t = boundTrial(J, w);
    all.push_back(t);
    for (int i = 0; i < 2; ++i) singular[i].add(t.singular[i], t.bound[i]), newton[i].add(t.newtonFail[i], t.bound[i]);
    std::fprintf(f, "%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", k, t.kappa, t.bound[0], t.bound[1], t.singular[0],
                 t.singular[1], t.newtonFail[0], t.newtonFail[1]);
  }
  std::fclose(f);
  std::printf("seed 002 Fig. 2: %d trials, kappa uniform in [1, %g], h|w| scanned 1e-3..100 (all values times |w|)\n",
              trials, kappaMax);
  std::printf(
      "| bound | observed failure | trials failing | below bound | fraction below | min obs/bound | "
      "median obs/bound |\n| --- | --- | --- | --- | --- | --- | --- |\n");
  const char* names[2] = {"(19) TLN", "(20) Cayley"};
  for (int i = 0; i < 2; ++i) {
    for (Stats* s : {&singular[i], &newton[i]})
      std::printf("| %s | %s | %d | %d | %.3g | %.4f | %.4f |\n", names[i],
                  s == &singular[i] ? "singular Jacobian" : "Newton fails", s->observed, s->below,
                  double(s->below) / trials, s->min(), s->median());
  }
  // Tightness of (19) by kappa band: the lowest observed singular step over the bound.
  std::printf(
      "\n| kappa band | trials | TLN singular: min obs/bound | TLN Newton: min obs/bound |\n| --- | --- | --- | --- "
      "|\n");
  const double edges[] = {1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 1e300};
  for (int b = 0; b + 1 < int(sizeof edges / sizeof edges[0]) && edges[b] < kappaMax; ++b) {
    Stats sing, newt;
    int n = 0;
    for (const BoundTrial& t : all)
      if (t.kappa >= edges[b] && t.kappa < edges[b + 1])
        ++n, sing.add(t.singular[0], t.bound[0]), newt.add(t.newtonFail[0], t.bound[0]);
    std::printf("| [%g, %g) | %d | %.4f | %.4f |\n", edges[b], std::min(edges[b + 1], kappaMax), n, sing.min(),
                newt.min());
  }
  std::printf("CSV: %s\n", csv.c_str());
#ifdef VARSIM_HAVE_STB
  writePng(png, kappaMax, all);
  std::printf("PNG: %s\n", png.c_str());
#endif
  return 0;
}

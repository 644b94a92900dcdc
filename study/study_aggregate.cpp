// study/study_aggregate.cpp — per-cell means, slopes and cost at equal error
// of the integrator study (see the header).
#include "study/study_aggregate.h"

#include <algorithm>

namespace varsim::study {

double logLogSlope(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (size_t i = 0; i < x.size(); ++i)
    mx += std::log(x[i]) / double(x.size()), my += std::log(y[i]) / double(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
    sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
  }
  return sxy / sxx;
}

std::vector<StudyCell> aggregateStudy(const StudyProblem& p, const std::vector<RunResult>& results) {
  std::vector<StudyCell> cells;
  for (const std::string& m : p.methods) {
    for (double h : p.steps) {
      StudyCell c{m, h};
      c.steps = std::lround(p.duration / h);
      for (const RunResult& r : results) {
        if (r.method != m || r.h != h) continue;
        c.cpuMs += 1e3 * r.cpuSeconds;
        if (r.blowup) {
          ++c.blowups, c.firstBlowupHw = std::min(c.firstBlowupHw, r.hOmega);
          continue;
        }
        ++c.ok;
        // Errors below 1e-300 (exact results) are floored so the logarithm
        // stays finite.
        c.pos += std::log(std::max(r.posErr, 1e-300)), c.rot += std::log(std::max(r.rotErr, 1e-300));
        c.pose += std::log(std::max(r.posErr + r.rotErr, 1e-300));
        c.energy += r.energyDrift, c.momentum += r.momentumDrift, c.newton += r.newtonPerStep;
      }
      const int n = c.ok + c.blowups;
      if (n > 0) c.cpuMs /= n;
      if (c.ok > 0) {
        c.pos = std::exp(c.pos / c.ok), c.rot = std::exp(c.rot / c.ok), c.pose = std::exp(c.pose / c.ok);
        c.energy /= c.ok, c.momentum /= c.ok, c.newton /= c.ok;
      }
      cells.push_back(c);
    }
  }
  return cells;
}

double costAtError(const std::vector<StudyCell>& cells, const std::string& m, double target) {
  const StudyCell* prev = nullptr;
  for (const StudyCell& c : cells) {  // h descending: error falls, cost rises
    if (c.method != m || c.blowups > 0 || !(c.pose > 0)) continue;
    if (prev && (prev->pose - target) * (c.pose - target) <= 0 && prev->pose != c.pose) {
      const double s = std::log(target / prev->pose) / std::log(c.pose / prev->pose);
      return std::exp(std::log(prev->cpuMs) + s * std::log(c.cpuMs / prev->cpuMs));
    }
    prev = &c;
  }
  return NAN;
}

}  // namespace varsim::study

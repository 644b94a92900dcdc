// scenes/study_runner.cpp — the `varsim study` command: argument parsing,
// parallel runs, CSV, summary table.
#include "scenes/study_runner.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "engine/sim/param.h"

namespace varsim::study {
namespace {

const char* kUsage =
    "usage: varsim study fig3|fig4|fig5 [--runs N] [--seed S] "
    "[--csv FILE] [--timings] [--threads K] [--duration T] "
    "[--h H (fig3)]";

double countFlag(const std::string& flag, const std::string& value, double lo, double hi) {
  const NumberText n = parseCount(value, lo, hi);
  if (!n.ok)
    throw BadInput(flag + " " + shortText(value) + ": " + n.error + "; allowed a whole number in [" + formatNumber(lo) +
                   ", " + formatNumber(hi) + "]");
  return n.value;
}

// Least-squares slope of log y against log x (the observed order when x = h).
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

// One (method, h) cell over the runs: geometric means of the errors over the
// runs that did not blow up.
struct Cell {
  std::string method;
  double h = 0;
  int ok = 0, blowups = 0;
  double pos = 0, rot = 0, pose = 0, energy = 0, momentum = 0, newton = 0, cpuMs = 0;
  double firstBlowupHw = INFINITY;  // smallest h |omega| among the runs that blew up
};

std::vector<Cell> aggregate(const StudyProblem& p, const std::vector<RunResult>& results) {
  std::vector<Cell> cells;
  for (const std::string& m : p.methods) {
    for (double h : p.steps) {
      Cell c{m, h};
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

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// CPU time (ms per run) at which `m`'s mean pose error reaches `target`,
// interpolated log-log between the two steps that bracket it (only steps where
// no run blew up); NaN if the curve does not reach the target.
double costAt(const std::vector<Cell>& cells, const std::string& m, double target) {
  const Cell* prev = nullptr;
  for (const Cell& c : cells) {  // h descending: error falls, cost rises
    if (c.method != m || c.blowups > 0 || !(c.pose > 0)) continue;
    if (prev && (prev->pose - target) * (c.pose - target) <= 0 && prev->pose != c.pose) {
      const double s = std::log(target / prev->pose) / std::log(c.pose / prev->pose);
      return std::exp(std::log(prev->cpuMs) + s * std::log(c.cpuMs / prev->cpuMs));
    }
    prev = &c;
  }
  return NAN;
}

}  // namespace

StudyOptions parseStudyArgs(const std::vector<std::string>& args) {
  if (args.size() < 2) throw BadInput(kUsage);
  StudyOptions o;
  o.figure = args[1];
  problemFor(o.figure);  // refuses an unknown figure
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--timings") {
      o.timings = true;
      continue;
    }
    if (i + 1 >= args.size()) throw BadInput(flag + ": missing value; " + kUsage);
    const std::string& v = args[++i];
    if (flag == "--runs")
      o.runs = int(countFlag(flag, v, 1, 1000));
    else if (flag == "--seed")
      o.seed = std::uint64_t(countFlag(flag, v, 0, 9007199254740992.0));
    else if (flag == "--threads")
      o.threads = int(countFlag(flag, v, 1, 64));
    else if (flag == "--duration")
      o.duration = countFlag(flag, v, 1, 3600);
    else if (flag == "--csv") {
      if (v.empty()) throw BadInput("--csv: empty file name");
      o.csvPath = v;
    } else if (flag == "--h") {
      const NumberText n = parseNumber(v);
      const int e = n.ok && n.value > 0 ? std::ilogb(n.value) : 1;
      if (o.figure != "fig3" || !n.ok || n.value != std::ldexp(1.0, e) || e < -7 || e > 0)
        throw BadInput("--h " + shortText(v) + ": allowed for fig3 only, a power of 2 in [2^-7, 1] s (e.g. 0.25)");
      o.h = n.value;
    } else {
      throw BadInput("unknown flag '" + shortText(flag) + "'; " + kUsage);
    }
  }
  return o;
}

StudyProblem configuredProblem(const StudyOptions& o) {
  StudyProblem p = problemFor(o.figure);
  if (o.runs > 0) p.runs = o.runs;
  if (o.duration > 0) p.duration = o.duration;
  if (o.h > 0) p.steps = {o.h};
  return p;
}

std::vector<RunResult> runStudy(const StudyProblem& p, const StudyOptions& o) {
  std::vector<std::vector<RunResult>> perRun(size_t(p.runs));
  std::atomic<int> next{0};
  int done = 0;
  std::mutex lock;
  std::exception_ptr failure;
  const int threads =
      std::max(1, std::min(p.runs, o.threads > 0 ? o.threads : int(std::thread::hardware_concurrency())));
  auto worker = [&] {
    for (int run = next++; run < p.runs; run = next++) {
      try {
        perRun[size_t(run)] = runCase(p, o.seed, run);
      } catch (...) {
        const std::lock_guard<std::mutex> g(lock);
        if (!failure) failure = std::current_exception();
      }
      const std::lock_guard<std::mutex> g(lock);
      std::fprintf(stderr, "\rstudy %s: %d/%d cases", p.figure.c_str(), ++done, p.runs);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  std::fprintf(stderr, " (%d threads)\n", threads);
  if (failure) std::rethrow_exception(failure);
  // Order: method (problem order), h descending, run.
  std::vector<RunResult> out;
  for (const std::string& m : p.methods)
    for (double h : p.steps)
      for (const auto& run : perRun)
        for (const RunResult& r : run)
          if (r.method == m && r.h == h) out.push_back(r);
  return out;
}

std::string studyCsv(const std::vector<RunResult>& results, bool timings) {
  std::string csv =
      "method,h,run,steps,h_omega,blowup,blowup_t,pos_err,rot_"
      "err,energy_drift,momentum_drift,"
      "newton_per_step";
  csv += timings ? ",cpu_s,wall_s\n" : "\n";
  char line[512];
  for (const RunResult& r : results) {
    std::snprintf(line, sizeof line, "%s,%.17g,%d,%ld,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", r.method.c_str(),
                  r.h, r.run, r.steps, r.hOmega, r.blowup ? 1 : 0, r.blowupTime, r.posErr, r.rotErr, r.energyDrift,
                  r.momentumDrift, r.newtonPerStep);
    csv += line;
    if (timings) {
      std::snprintf(line, sizeof line, ",%.6g,%.6g", r.cpuSeconds, r.wallSeconds);
      csv += line;
    }
    csv += '\n';
  }
  return csv;
}

std::string studySummary(const StudyProblem& p, const std::vector<RunResult>& results) {
  const std::vector<Cell> cells = aggregate(p, results);
  const bool car = p.system == "car";
  std::string out = "# varsim study " + p.figure + ": " + p.system + ", " + std::to_string(p.runs) + " runs of " +
                    formatNumber(p.duration) +
                    " s; errors: geometric mean over runs of the mean over 1 s checkpoints "
                    "(truth: RK4, h = " +
                    formatNumber(p.truthStep) + " s); '-' = every run blew up\n";
  out += std::string("method      h         blowups  pos_err(m)  ") + (car ? "head_err(rad)" : "rot_err(rad) ") +
         "  dE/E(max)   " + (car ? "" : "dM/M(max)   ") + "newton/step  cpu ms/run\n";
  for (const Cell& c : cells) {
    char line[256];
    const auto num = [&](double v) { return c.ok > 0 ? fmt("%-12.3e", v) : std::string("-           "); };
    std::snprintf(line, sizeof line, "%-11s %-9.6g %3d/%-3d  %s%s  %s%s%-11.2f  %.3g\n", c.method.c_str(), c.h,
                  c.blowups, c.ok + c.blowups, num(c.pos).c_str(), num(c.rot).c_str(), num(c.energy).c_str(),
                  car ? "" : num(c.momentum).c_str(), c.newton, c.cpuMs);
    out += line;
  }
  out +=
      "\n# observed orders (least squares over the <= 4 smallest h with no blow-up and a rotation/heading error\n"
      "# below 0.1 rad; >= 3 such h needed) and the smallest h|w| at which a run blew up\n";
  {
    for (const std::string& m : p.methods) {
      std::vector<double> hs, pos, rot;
      double firstHw = INFINITY;
      for (auto it = cells.rbegin(); it != cells.rend(); ++it) {
        if (it->method != m) continue;
        firstHw = std::min(firstHw, it->firstBlowupHw);
        // Asymptotic range: no blow-up and the rotation (heading) error below 0.1 rad, far from its saturation.
        if (it->blowups == 0 && it->rot < 0.1 && hs.size() < 4)
          hs.push_back(it->h), pos.push_back(it->pos), rot.push_back(it->rot);
      }
      const std::string blow =
          std::isfinite(firstHw) ? "first blow-up at h|w| = " + fmt("%.3g", firstHw) : "never blew up";
      const bool exact = !pos.empty() && *std::max_element(pos.begin(), pos.end()) < 1e-8;  // at the truth's error
      out += m + ": order " +
             (exact            ? "exact"
              : hs.size() >= 3 ? fmt("%.2f", logLogSlope(hs, pos))
                               : "-") +
             " (position), " + (hs.size() >= 3 ? fmt("%.2f", logLogSlope(hs, rot)) : "-") +
             (car ? " (heading); " : " (rotation); ") + blow + "\n";
    }
    if (p.steps.size() < 3) return out;  // fig3: one step, no curve
    out += "\n# cost at equal pose error (pos + rot): CPU ms per run, and relative to " + p.methods[0] + "\n";
    for (double target : {1e-1, 1e-2, 1e-3, 1e-4, 1e-5}) {
      const double ref = costAt(cells, p.methods[0], target);
      const auto ms = [](double v) { return std::isfinite(v) ? fmt("%.3g ms", v) : std::string("-"); };
      std::string line = "error " + fmt("%.0e", target) + ": " + p.methods[0] + " " + ms(ref);
      for (size_t i = 1; i < p.methods.size(); ++i) {
        const double c = costAt(cells, p.methods[i], target);
        line += "; " + p.methods[i] + " " + ms(c) + (std::isfinite(c / ref) ? " (" + fmt("%.2fx", c / ref) + ")" : "");
      }
      out += line + "\n";
    }
  }
  return out;
}

int studyCommand(const std::vector<std::string>& args) {
  const StudyOptions o = parseStudyArgs(args);
  const StudyProblem p = configuredProblem(o);
  if (!o.csvPath.empty()) {  // refuse an unwritable path before the work, not after
    std::ofstream probe(o.csvPath);
    if (!probe) throw BadInput("--csv " + shortText(o.csvPath) + ": cannot open for writing");
  }
  const std::vector<RunResult> results = runStudy(p, o);
  std::printf("%s", studySummary(p, results).c_str());
  if (o.csvPath.empty()) return 0;
  std::ofstream csv(o.csvPath, std::ios::binary);
  if (p.figure == "fig3") {
    for (const std::string& row : orbitRows(p, o.seed, 0, p.steps[0])) csv << row << '\n';
  } else {
    csv << studyCsv(results, o.timings);
  }
  if (!csv) throw BadInput("--csv " + shortText(o.csvPath) + ": write failed");
  return 0;
}

}  // namespace varsim::study

// study/study_runner.cpp — the `varsim study` command: argument parsing,
// parallel runs, CSV, summary table.
#include "study/study_runner.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "engine/sim/cli_args.h"
#include "engine/sim/errors.h"
#include "engine/sim/number_text.h"
#include "engine/sim/param.h"
#include "study/study_aggregate.h"
#include "study/study_merge.h"

namespace varsim::study {

const char* const kStudyUsage =
    "usage: varsim study fig3|fig4|fig5|fig5s [--runs N] [--seed S] [--csv FILE] [--timings] [--threads K]\n"
    "       [--duration T] [--methods M1,M2,...] [--hmax H] [--hmin H] [--h H (fig3)] [--shard I/N]\n"
    "       varsim study merge PART.csv... --csv ALL.csv";

namespace {

// A typed step, refused unless it is one of the figure's steps.
double figureStep(const std::string& flag, const std::string& value, const StudyProblem& p) {
  const NumberText n = parseNumber(value);
  for (double h : p.steps)
    if (n.ok && n.value == h) return h;
  std::string allowed;
  for (double h : p.steps) allowed += (allowed.empty() ? "" : ", ") + formatNumber(h);
  throw BadInput(flag + " " + shortText(value) + ": allowed one of the " + p.figure + " steps " + allowed + " s");
}

std::vector<std::string> methodList(const std::string& value, const StudyProblem& p) {
  std::vector<std::string> methods;
  std::string allowed;
  for (const std::string& m : p.methods) allowed += (allowed.empty() ? "" : ", ") + m;
  size_t at = 0;
  while (at <= value.size()) {
    const size_t comma = std::min(value.find(',', at), value.size());
    const std::string m = value.substr(at, comma - at);
    if (std::find(p.methods.begin(), p.methods.end(), m) == p.methods.end())
      throw BadInput("--methods " + shortText(value) + ": unknown method '" + shortText(m) + "'; allowed (" + p.figure +
                     ") " + allowed);
    if (std::find(methods.begin(), methods.end(), m) != methods.end())
      throw BadInput("--methods " + shortText(value) + ": method '" + shortText(m) + "' listed twice; allowed once each");
    methods.push_back(m);
    at = comma + 1;
  }
  return methods;
}

double countFlag(const std::string& flag, const std::string& value, double lo, double hi) {
  const NumberText n = parseCount(value, lo, hi);
  if (!n.ok)
    throw BadInput(flag + " " + shortText(value) + ": " + n.error + "; allowed a whole number in [" + formatNumber(lo) +
                   ", " + formatNumber(hi) + "]");
  return n.value;
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

StudyOptions parseStudyArgs(const std::vector<std::string>& args) {
  if (args.size() < 2) throw BadInput(kStudyUsage);
  StudyOptions o;
  o.figure = args[1];
  const StudyProblem figure = problemFor(o.figure);  // refuses an unknown figure
  FlagsSeen seen;
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& flag = args[i];
    seen.once(flag);  // every study flag is single-valued
    if (flag == "--timings") {
      o.timings = true;
      continue;
    }
    if (i + 1 >= args.size()) throw BadInput(flag + ": missing value; " + kStudyUsage);
    const std::string& v = args[++i];
    if (flag == "--runs")
      o.runs = int(countFlag(flag, v, 1, 1000));
    else if (flag == "--shard") {
      const auto slash = v.find('/');
      if (slash == std::string::npos) throw BadInput("--shard " + shortText(v) + ": expected I/N (shard I of N, 1 <= I <= N)");
      o.shards = int(countFlag("--shard N", v.substr(slash + 1), 1, 1000));
      o.shard = int(countFlag("--shard I", v.substr(0, slash), 1, o.shards));
    } else if (flag == "--seed")
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
    } else if (flag == "--methods") {
      o.methods = methodList(v, figure);
    } else if (flag == "--hmax" || flag == "--hmin") {
      if (o.figure == "fig3") throw BadInput(flag + ": fig3 runs one step; choose it with --h");
      (flag == "--hmax" ? o.hMax : o.hMin) = figureStep(flag, v, figure);
    } else {
      throw BadInput("unknown flag '" + shortText(flag) + "'; " + kStudyUsage);
    }
  }
  if (o.hMax > 0 && o.hMin > 0 && o.hMin > o.hMax)
    throw BadInput("--hmin " + formatNumber(o.hMin) + " is larger than --hmax " + formatNumber(o.hMax));
  return o;
}

StudyProblem configuredProblem(const StudyOptions& o) {
  StudyProblem p = problemFor(o.figure);
  if (o.runs > 0) p.runs = o.runs;
  if (o.duration > 0) p.duration = o.duration;
  if (o.h > 0) p.steps = {o.h};
  if (!o.methods.empty()) {  // in the figure's order
    std::vector<std::string> kept;
    for (const std::string& m : p.methods)
      if (std::find(o.methods.begin(), o.methods.end(), m) != o.methods.end()) kept.push_back(m);
    p.methods = kept;
  }
  std::vector<double> steps;
  for (double h : p.steps)
    if ((o.hMax <= 0 || h <= o.hMax) && (o.hMin <= 0 || h >= o.hMin)) steps.push_back(h);
  p.steps = steps;
  return p;
}

StudyOutcome runStudy(const StudyProblem& p, const StudyOptions& o, StudyControl& control, bool progressOnStderr) {
  std::vector<std::vector<RunResult>> perRun(size_t(p.runs));
  std::atomic<int> next{0};
  std::atomic<bool> interrupted{false};
  int done = 0;
  std::mutex lock;
  std::exception_ptr failure;
  const int threads =
      std::max(1, std::min(p.runs, o.threads > 0 ? o.threads : int(std::thread::hardware_concurrency())));
  auto worker = [&] {
    for (int run = next++; run < p.runs; run = next++) {
      if (control.cancel) {  // runs not started are skipped
        interrupted = true;
        break;
      }
      if (run % o.shards != o.shard - 1) continue;  // another shard's case
      try {
        runCase(p, o.seed, run, perRun[size_t(run)], &control);
      } catch (const StudyCancelled&) {
        interrupted = true;
        break;
      } catch (...) {
        const std::lock_guard<std::mutex> g(lock);
        if (!failure) failure = std::current_exception();
      }
      const std::lock_guard<std::mutex> g(lock);
      ++done;
      if (progressOnStderr) std::fprintf(stderr, "\rstudy %s: %d/%d cases", p.figure.c_str(), done, p.runs);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (progressOnStderr) std::fprintf(stderr, " (%d threads)\n", threads);
  if (failure) std::rethrow_exception(failure);
  // Order: method (problem order), h descending, run.
  StudyOutcome outcome;
  outcome.cancelled = interrupted;
  for (const std::string& m : p.methods)
    for (double h : p.steps)
      for (const auto& run : perRun)
        for (const RunResult& r : run)
          if (r.method == m && r.h == h) outcome.results.push_back(r);
  return outcome;
}

std::vector<RunResult> runStudy(const StudyProblem& p, const StudyOptions& o) {
  StudyControl control;
  return runStudy(p, o, control, true).results;
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
  const std::vector<StudyCell> cells = aggregateStudy(p, results);
  const bool car = p.system != "rigid_body";  // planar vehicles: heading, no momentum column
  std::string out = "# varsim study " + p.figure + ": " + p.system + ", " + std::to_string(p.runs) + " runs of " +
                    formatNumber(p.duration) +
                    " s; errors: geometric mean over runs of the mean over 1 s checkpoints "
                    "(truth: RK4, h = " +
                    formatNumber(p.truthStep) + " s); '-' = every run blew up\n";
  if (p.system == "snakeboard") out += "# dE/E: max |E - E_truth| / mean E_truth (the rider's gait does work on the board)\n";
  out += std::string("method      h         blowups  pos_err(m)  ") + (car ? "head_err(rad)" : "rot_err(rad) ") +
         "  dE/E(max)   " + (car ? "" : "dM/M(max)   ") + "newton/step  cpu ms/run\n";
  for (const StudyCell& c : cells) {
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
        // Asymptotic range: no blow-up and the rotation (heading) error below 0.1 rad, far from its saturation
        // (cells without results, as after a cancel, are skipped).
        if (it->blowups == 0 && it->ok > 0 && it->rot < 0.1 && hs.size() < 4)
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
      const double ref = costAtError(cells, p.methods[0], target);
      const auto ms = [](double v) { return std::isfinite(v) ? fmt("%.3g ms", v) : std::string("-"); };
      std::string line = "error " + fmt("%.0e", target) + ": " + p.methods[0] + " " + ms(ref);
      for (size_t i = 1; i < p.methods.size(); ++i) {
        const double c = costAtError(cells, p.methods[i], target);
        line += "; " + p.methods[i] + " " + ms(c) + (std::isfinite(c / ref) ? " (" + fmt("%.2fx", c / ref) + ")" : "");
      }
      out += line + "\n";
    }
  }
  return out;
}

std::string studyCsvFile(const StudyProblem& p, const StudyOptions& o, const std::vector<RunResult>& results) {
  if (p.figure != "fig3") return studyCsv(results, o.timings);
  std::string out;  // fig3: the orbit of its one case at its one step
  for (const std::string& row : orbitRows(p, o.seed, 0, p.steps[0])) out += row + '\n';
  return out;
}

int studyCommand(const std::vector<std::string>& args) {
  if (args.size() > 1 && args[1] == "merge") return studyMergeCommand(args);
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
  csv << studyCsvFile(p, o, results);
  if (!csv) throw BadInput("--csv " + shortText(o.csvPath) + ": write failed");
  return 0;
}

}  // namespace varsim::study

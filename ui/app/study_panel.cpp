// The integrator-study window: form, worker thread, progress, cancel and export (see the header). The result plots
// are in study_panel_plots.cpp.
#include "ui/app/study_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "engine/sim/errors.h"
#include "engine/sim/param.h"
#include "render/screenshot.h"

namespace varsim {

using namespace varsim::study;

// Shared by the UI thread and the worker: the control (progress, cancel) is
// atomic; the results are written by the worker before it sets `finished`
// (release) and read by the UI after (acquire).
struct StudyPanel::Job {
  bool orbits = false;
  StudyOptions options;
  StudyProblem problem;
  std::string command;
  int orbitRun = 0;
  double orbitH = 0.0;
  long totalSteps = 1;
  int totalRows = 0;
  StudyControl control;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::atomic<bool> finished{false};
  StudyOutcome outcome;
  std::vector<Orbit> orbitResults;
  bool orbitsCancelled = false;
  std::string error;
  double seconds = 0.0;

  void run() {
    try {
      if (orbits) {
        try {
          orbitResults = study::orbits(problem, options.seed, orbitRun, orbitH, &control);
        } catch (const StudyCancelled&) {
          orbitsCancelled = true;
        }
      } else {
        outcome = runStudy(problem, options, control, false);
      }
    } catch (const std::exception& e) {  // the truth diverging (SimulationDiverged), out of memory, ...
      error = e.what();
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    finished.store(true, std::memory_order_release);
  }
};

namespace {

// "--methods a,b" when only some of the figure's methods are ticked (none
// ticked: an empty list, which parseStudyArgs refuses with a message the panel
// shows).
void addMethodsFlag(const StudyForm& form, std::vector<std::string>& args) {
  if (std::count(form.chosen.begin(), form.chosen.end(), true) == long(form.methods.size())) return;
  std::string methods;
  for (size_t i = 0; i < form.methods.size(); ++i)
    if (form.chosen[i]) methods += (methods.empty() ? "" : ",") + form.methods[i];
  args.insert(args.end(), {"--methods", methods});
}

std::string joined(const std::vector<std::string>& args) {
  std::string s = "varsim";
  for (const std::string& a : args) s += " " + a;
  return s;
}

}  // namespace

StudyPanel::StudyPanel() { selectFigure("fig4"); }

StudyPanel::~StudyPanel() {
  if (!worker_.joinable()) return;
  job_->control.cancel = true;
  worker_.join();
}

void StudyPanel::toggle(const std::string& sceneName) {
  open = !open;
  if (open && !running() && !curves_)
    selectFigure(sceneName == "car" ? "fig5" : sceneName == "snakeboard" ? "fig5s" : "fig4");
}

void StudyPanel::selectFigure(const std::string& figure) {
  const StudyProblem p = problemFor(figure);
  form.figure = figure;
  form.methods = p.methods;
  form.chosen.assign(p.methods.size(), true);
  form.steps = p.steps;
  form.hMaxIndex = 0;
  form.hMinIndex = int(p.steps.size()) - 1;
  form.runs = p.runs;
  form.duration = int(p.duration);
  // One core left for the app, so the 3-D view keeps its frame rate while the
  // study runs.
  form.threads = std::max(1, int(std::thread::hardware_concurrency()) - 1);
  std::snprintf(form.csvPath, sizeof form.csvPath, "varsim_study_%s.csv", figure.c_str());
  std::snprintf(form.pngPath, sizeof form.pngPath, "varsim_study_%s.png", figure.c_str());
}

std::vector<std::string> StudyPanel::curveArgs() const {
  std::vector<std::string> args = {"study",      form.figure,
                                   "--runs",     std::to_string(form.runs),
                                   "--seed",     std::to_string(form.seed),
                                   "--duration", std::to_string(form.duration),
                                   "--threads",  std::to_string(form.threads)};
  addMethodsFlag(form, args);
  if (form.hMaxIndex > 0) args.insert(args.end(), {"--hmax", formatNumber(form.steps[size_t(form.hMaxIndex)])});
  if (form.hMinIndex + 1 < int(form.steps.size()))
    args.insert(args.end(), {"--hmin", formatNumber(form.steps[size_t(form.hMinIndex)])});
  return args;
}

std::vector<std::string> StudyPanel::orbitArgs() const {
  std::vector<std::string> args = {"study",      "fig3",
                                   "--h",        formatNumber(std::ldexp(1.0, -form.orbitExponent)),
                                   "--duration", std::to_string(form.orbitDuration),
                                   "--seed",     std::to_string(form.seed)};
  // The rigid-body methods chosen on the curves tab (fig4's list is fig3's).
  if (problemFor(form.figure).system == "rigid_body") addMethodsFlag(form, args);
  return args;
}

void StudyPanel::setStatus(const std::string& text, bool error) {
  status_ = text;
  statusError_ = error;
}

void StudyPanel::start(bool orbits) {
  if (running()) return;
  auto job = std::make_unique<Job>();
  job->orbits = orbits;
  try {  // the command's own validation: a bad form is a BadInput message, shown
         // in the panel
    const std::vector<std::string> args = orbits ? orbitArgs() : curveArgs();
    job->options = parseStudyArgs(args);
    job->problem = configuredProblem(job->options);
    job->command = joined(args);
    if (orbits) {
      job->orbitRun = form.orbitRun;
      job->orbitH = job->problem.steps.at(0);
      if (job->orbitRun != 0) job->command += "   (case " + std::to_string(job->orbitRun) + " of the seed)";
      job->totalSteps = std::lround(job->problem.duration / job->problem.truthStep) +
                        long(job->problem.methods.size()) * std::lround(job->problem.duration / job->orbitH);
    } else {
      job->totalSteps = long(job->problem.runs) * caseSteps(job->problem);
      job->totalRows = job->problem.runs * int(job->problem.methods.size() * job->problem.steps.size());
    }
  } catch (const std::exception& e) {
    setStatus(e.what(), true);
    return;
  }
  setStatus("", false);
  job_ = std::move(job);
  worker_ = std::thread([job = job_.get()] { job->run(); });
}

void StudyPanel::collectFinished() {
  if (!job_ || !job_->finished.load(std::memory_order_acquire)) return;
  worker_.join();
  std::unique_ptr<Job> job = std::move(job_);
  char line[200];
  if (!job->error.empty()) {
    setStatus("study failed: " + job->error, true);
  } else if (job->orbits) {
    orbits_ = std::make_unique<Orbits>();
    orbits_->orbits = std::move(job->orbitResults);
    orbits_->command = job->command;
    orbits_->cancelled = job->orbitsCancelled;
    std::snprintf(line, sizeof line, "orbits %s in %.2f s", job->orbitsCancelled ? "cancelled" : "done", job->seconds);
    setStatus(line, false);
  } else {
    curves_ = std::make_unique<Curves>();
    curves_->problem = job->problem;
    curves_->outcome = std::move(job->outcome);
    curves_->cells = aggregateStudy(curves_->problem, curves_->outcome.results);
    curves_->summary = studySummary(curves_->problem, curves_->outcome.results);
    curves_->command = job->command;
    curves_->seconds = job->seconds;
    std::snprintf(line, sizeof line, "%s: %zu of %d rows in %.2f s%s", job->problem.figure.c_str(),
                  curves_->outcome.results.size(), job->totalRows, job->seconds,
                  curves_->outcome.cancelled ? " - CANCELLED: partial results (finished rows only)" : "");
    setStatus(line, curves_->outcome.cancelled);
  }
}

void StudyPanel::drawForm() {
  static const char* kFigures[][2] = {{"fig4", "fig4: rigid body (LGVI, RK2, RK2i, RK4, Newmark)"},
                                      {"fig5", "fig5: car (variational, RK2, RK4)"},
                                      {"fig5s", "fig5s: snakeboard (variational, RK2, RK4)"}};
  ImGui::BeginDisabled(running());
  ImGui::SetNextItemWidth(330);
  if (ImGui::BeginCombo("figure", form.figure.c_str())) {
    for (const auto& f : kFigures)
      if (ImGui::Selectable(f[1], form.figure == f[0])) selectFigure(f[0]);
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(seed 000 Sec. 3.3)");
  ImGui::TextUnformatted("methods:");
  for (size_t i = 0; i < form.methods.size(); ++i) {
    ImGui::SameLine();
    bool on = form.chosen[i];
    if (ImGui::Checkbox(form.methods[i].c_str(), &on)) form.chosen[i] = on;
  }
  const int last = int(form.steps.size()) - 1;
  ImGui::SetNextItemWidth(160);
  char label[64];
  std::snprintf(label, sizeof label, "h = %g s", form.steps[size_t(form.hMaxIndex)]);
  ImGui::SliderInt("largest h", &form.hMaxIndex, 0, last, label, ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(160);
  std::snprintf(label, sizeof label, "h = %g s", form.steps[size_t(form.hMinIndex)]);
  ImGui::SliderInt("smallest h", &form.hMinIndex, 0, last, label, ImGuiSliderFlags_AlwaysClamp);
  form.hMinIndex = std::max(form.hMinIndex, form.hMaxIndex);
  ImGui::SameLine();
  ImGui::TextDisabled("%ld ... %ld steps per run", std::lround(form.duration / form.steps[size_t(form.hMaxIndex)]),
                      std::lround(form.duration / form.steps[size_t(form.hMinIndex)]));
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("runs", &form.runs);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("duration (s)", &form.duration);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  ImGui::InputInt("seed", &form.seed);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("threads", &form.threads);
  ImGui::EndDisabled();
}

void StudyPanel::drawRunControls() {
  if (!running()) {
    if (ImGui::Button(orbitsTab_ ? "Run orbits" : "Run study")) start(orbitsTab_);
  } else {
    if (ImGui::Button("Cancel")) job_->control.cancel = true;
    ImGui::SameLine();
    const Job& j = *job_;
    const double fraction = std::min(1.0, double(j.control.stepsDone) / double(std::max(1L, j.totalSteps)));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - j.started).count();
    char overlay[160];
    if (j.orbits)
      std::snprintf(overlay, sizeof overlay, "orbits: %.0f %%  %.1f s%s", 100 * fraction, seconds,
                    j.control.cancel ? "  cancelling..." : "");
    else
      std::snprintf(overlay, sizeof overlay, "%.0f %%  rows %d/%d  cases %d/%d  %.1f s%s", 100 * fraction,
                    j.control.rowsDone.load(), j.totalRows, j.control.casesDone.load(), j.problem.runs, seconds,
                    j.control.cancel ? "  cancelling..." : "");
    ImGui::ProgressBar(float(fraction), ImVec2(-1, 0), overlay);
  }
  if (!status_.empty()) {
    if (!running()) ImGui::SameLine();
    ImGui::TextColored(statusError_ ? ImVec4(1, 0.45f, 0.4f, 1) : ImVec4(0.7f, 0.9f, 0.7f, 1), "%s", status_.c_str());
  }
}

void StudyPanel::exportCsv() {
  std::string text;
  if (orbitsTab_) {
    if (!orbits_) return setStatus("no orbits to export yet: press Run orbits", true);
    for (const std::string& row : orbitCsvRows(orbits_->orbits)) text += row + "\n";
  } else {
    if (!curves_) return setStatus("no results to export yet: press Run study", true);
    text = studyCsv(curves_->outcome.results, form.timings);
  }
  std::ofstream out(form.csvPath, std::ios::binary);
  out << text;
  out.close();
  if (!out)
    return setStatus(std::string("cannot write ") + form.csvPath + " (directory missing or not writable?)", true);
  setStatus(std::string("CSV written: ") + form.csvPath, false);
}

void StudyPanel::drawExport() {
  ImGui::SetNextItemWidth(220);
  ImGui::InputText("##csv", form.csvPath, sizeof form.csvPath);
  ImGui::SameLine();
  if (ImGui::Button("Export CSV")) exportCsv();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the rows of `varsim study --csv` (orbits tab: fig3's "
        "orbit rows), from the shown results");
  ImGui::SameLine();
  ImGui::Checkbox("cpu/wall columns", &form.timings);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(220);
  ImGui::InputText("##png", form.pngPath, sizeof form.pngPath);
  ImGui::SameLine();
  // No tooltip here: the PNG holds this window's pixels of the frame the button
  // is clicked in.
  if (ImGui::Button("Export PNG")) pendingPng_ = form.pngPath;
}

void StudyPanel::draw() {
  collectFinished();
  if (!open) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.08f, 30.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x * 0.84f, io.DisplaySize.y - 40.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.97f);  // opaque enough that the panels behind do
                                       // not show through the plots
  if (!ImGui::Begin("Integrator study (F4)", &open, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  box_[0] = pos.x, box_[1] = pos.y, box_[2] = size.x, box_[3] = size.y;
  drawForm();
  drawRunControls();
  drawExport();
  ImGui::Separator();
  if (ImGui::BeginTabBar("study tabs")) {
    if (ImGui::BeginTabItem("Error curves (Figs. 4-5)")) {
      orbitsTab_ = false;
      drawCurves();
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Table, orders, cost at equal error")) {
      orbitsTab_ = false;
      drawTable();
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Orbits of one run (Fig. 3)")) {
      orbitsTab_ = true;
      drawOrbits();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

void StudyPanel::writePendingPng(int fbw, int fbh, float scaleX, float scaleY) {
  if (pendingPng_.empty()) return;
  const std::string path = std::move(pendingPng_);
  pendingPng_.clear();
  std::string error;
  const int x = int(box_[0] * scaleX), y = int(box_[1] * scaleY);
  const int w = int(box_[2] * scaleX), h = int(box_[3] * scaleY);
  if (saveFramebufferRegionPng(path, fbw, fbh, x, y, w, h, error))
    setStatus("PNG written: " + path, false);
  else
    setStatus("PNG not written: " + error, true);
}

}  // namespace varsim

// The app's "Integrator study" window (seed 000 Figs. 3-5, live; F4): the form becomes `varsim study` flags run by
// the command's own parser and runStudy on a worker thread with a StudyControl (progress bar, Cancel at any time,
// partial results kept and marked) while the view keeps drawing; log-log error curves with gaps where a method blew
// up, Fig. 3's orbits of one run, CSV export in the command's format and a PNG of the window.
#pragma once
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "study/study_aggregate.h"
#include "study/study_runner.h"

namespace varsim {

// What the widgets hold for the next run.
struct StudyForm {
  std::string figure;                // fig4 | fig5
  std::vector<std::string> methods;  // the figure's methods, in its order
  std::vector<bool> chosen;          // per method
  std::vector<double> steps;         // the figure's steps, h descending
  int hMaxIndex = 0, hMinIndex = 0;  // into steps
  int runs = 1, duration = 1, threads = 1;
  int seed = 1;
  // Fig. 3 orbits: case `orbitRun` of the seed at step 2^-orbitExponent for
  // orbitDuration s.
  int orbitRun = 0, orbitExponent = 2, orbitDuration = 60;
  bool timings = true;  // CSV export with the cpu_s, wall_s columns (--timings)
  char csvPath[256] = "varsim_study.csv";
  char pngPath[256] = "varsim_study.png";
};

class StudyPanel {
 public:
  StudyPanel();
  ~StudyPanel();  // cancels a running study and waits for its worker
  StudyPanel(const StudyPanel&) = delete;
  StudyPanel& operator=(const StudyPanel&) = delete;

  bool open = false;
  // Shows or hides the window; on opening picks the figure of the current scene
  // (car -> fig5).
  void toggle(const std::string& sceneName);
  void draw();
  // After ImGui has rendered, before the swap: writes a requested PNG of the
  // panel's pixels.
  void writePendingPng(int framebufferW, int framebufferH, float scaleX, float scaleY);

  bool running() const { return job_ != nullptr; }
  // The `varsim study` arguments the form stands for (curves: args[1] = figure;
  // orbits: fig3).
  std::vector<std::string> curveArgs() const;
  std::vector<std::string> orbitArgs() const;
  StudyForm form;

 private:
  struct Job;  // shared with the worker thread
  // Results on show (the last finished run).
  struct Curves {
    study::StudyProblem problem;
    study::StudyOutcome outcome;
    std::vector<study::StudyCell> cells;
    std::string summary, command;
    double seconds = 0.0;
  };
  struct Orbits {
    std::vector<study::Orbit> orbits;
    std::string command;
    bool cancelled = false;
  };

  void selectFigure(const std::string& figure);
  void drawForm();
  void drawRunControls();
  void drawCurves();
  void drawTable();
  void drawOrbits();
  void drawExport();
  void start(bool orbits);
  void collectFinished();
  void exportCsv();
  void setStatus(const std::string& text, bool error);

  std::unique_ptr<Job> job_;
  std::thread worker_;
  std::unique_ptr<Curves> curves_;
  std::unique_ptr<Orbits> orbits_;
  int errorKind_ = 0;                // curves: pose, position, rotation, energy, momentum
  int orbitComponent_[2] = {0, 10};  // orbit plots: omega_x and energy
  bool orbitLogY_[2] = {false, true};
  bool orbitsTab_ = false;
  std::string status_;
  bool statusError_ = false;
  std::string pendingPng_;       // path of a requested PNG, written after the frame rendered
  float box_[4] = {0, 0, 0, 0};  // the window's rectangle (logical pixels) this frame
};

}  // namespace varsim

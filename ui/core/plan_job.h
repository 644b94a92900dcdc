// ui/core/plan_job.h — one trajectory optimisation (issue 10, the app's Plan panel) on a worker thread, so the
// view keeps drawing while Ipopt iterates. The solve reports every iteration (objective, primal and dual
// infeasibility, the iterate's path) into a log the UI copies under a short lock, and stops at its next
// iteration once cancel() is called. No GL and no Ipopt here: the solve is a function handed in (the app builds
// it from the plan problem registry, tests from anything), so the threading is tested headlessly.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/sim/input_track.h"
#include "engine/sim/param.h"

namespace varsim {

struct IpoptResult;  // plan/ipopt_solver.h: what a re-plan warm-starts from

using PlanPath = std::vector<std::array<float, 3>>;  // world points, m (the ghost curve of an iterate)

struct PlanIterationRecord {
  int iteration = 0;
  double objective = 0.0, primalInfeasibility = 0.0, dualInfeasibility = 0.0;
};

// What a finished solve hands back. A plan is played by loading `sceneParams` (the scene at the plan's start
// state) and replaying `inputs` for `steps` steps: the path `varsim run SCENE --input plan_inputs.csv` takes.
struct PlanOutcome {
  bool solved = false;
  std::string status;  // Ipopt's status named ("Solve_Succeeded", "Infeasible_Problem_Detected", ...)
  int iterations = 0;
  double cost = 0.0;
  PlanPath path;         // the planned path (nodes 0..N)
  InputTrack inputs;     // per-step inputs and live-parameter events of the plan
  ParamSet sceneParams;  // the scene's parameters with its start state set to where the plan begins
  long steps = 0;        // N: the plan's length in steps of the scene's h
  std::shared_ptr<const IpoptResult> solver;  // x and multipliers of the last iterate (a re-plan's warm start)
};

class PlanJob {
 public:
  enum class State { Idle, Running, Solved, Failed, Cancelled };

  // The solve's side: report each iteration; false (or cancelled()) means stop at once.
  class Progress {
   public:
    explicit Progress(PlanJob& job) : job_(job) {}
    bool iteration(const PlanIterationRecord& record, PlanPath iteratePath);
    bool cancelled() const { return job_.cancel_; }
    const std::atomic<bool>* cancelFlag() const { return &job_.cancel_; }  // for a solver polling it itself

   private:
    PlanJob& job_;
  };
  using Solve = std::function<PlanOutcome(Progress&)>;

  // What the UI draws, copied under the lock (a few hundred records and points).
  struct Snapshot {
    State state = State::Idle;
    std::string status;  // the outcome's status, "cancelled" or the error (BadInput) message
    std::vector<PlanIterationRecord> log;
    PlanPath ghost;  // path of the latest iterate
    int ghostIteration = -1;
    double seconds = 0.0;  // wall time since start (to the end once finished)
  };

  PlanJob() = default;
  PlanJob(const PlanJob&) = delete;
  PlanJob& operator=(const PlanJob&) = delete;
  ~PlanJob();  // cancels and joins

  // Starts `solve` on the worker (a running solve is cancelled and joined first). Exceptions thrown by the
  // solve end it as Failed with their message; a solve that returns unsolved after cancel() is Cancelled.
  void start(Solve solve);
  void cancel();  // returns at once; the worker stops at the solve's next iteration
  // Niceness of the worker thread (Linux; 0 = the caller's priority). The app sets 10 so that the view keeps
  // drawing while the solve runs on the cycles left over; tests keep 0 (a starved worker only takes longer).
  void setWorkerNice(int nice) { workerNice_ = nice; }
  void wait();   // joins the worker (tests; the app polls)
  void reset();  // cancels, joins and forgets: Idle, empty log, no ghost, no outcome
  bool running() const { return running_; }
  Snapshot snapshot() const;
  // The outcome once, the first call after the solve finished (Solved, Failed or Cancelled); else false.
  bool takeFinished(PlanOutcome& out, State& state);

 private:
  void run(const Solve& solve);
  void finish(State state, PlanOutcome outcome, std::string status);

  mutable std::mutex mutex_;
  std::thread worker_;
  std::atomic<bool> cancel_{false}, running_{false};
  Snapshot snap_;
  PlanOutcome outcome_;
  bool finishedUntaken_ = false;
  double startClock_ = 0.0;
  int workerNice_ = 0;
};

const char* planStateName(PlanJob::State s);  // "idle", "running", "solved", "failed", "cancelled"

}  // namespace varsim

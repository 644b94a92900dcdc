// ui/core/plan_job.cpp — the worker thread of the Plan panel; see the header.
#include "ui/core/plan_job.h"

#include <chrono>
#include <exception>
#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace varsim {

namespace {
double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

const char* planStateName(PlanJob::State s) {
  switch (s) {
    case PlanJob::State::Idle:
      return "idle";
    case PlanJob::State::Running:
      return "running";
    case PlanJob::State::Solved:
      return "solved";
    case PlanJob::State::Failed:
      return "failed";
    case PlanJob::State::Cancelled:
      return "cancelled";
  }
  return "unknown";
}

bool PlanJob::Progress::iteration(const PlanIterationRecord& record, PlanPath iteratePath) {
  {
    std::lock_guard<std::mutex> lock(job_.mutex_);
    job_.snap_.log.push_back(record);
    if (!iteratePath.empty()) {
      job_.snap_.ghost = std::move(iteratePath);
      job_.snap_.ghostIteration = record.iteration;
    }
  }
  return !job_.cancel_;
}

PlanJob::~PlanJob() {
  cancel();
  wait();
}

void PlanJob::start(Solve solve) {
  cancel();
  wait();
  cancel_ = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    snap_ = Snapshot{};
    snap_.state = State::Running;
    snap_.status = "running";
    outcome_ = PlanOutcome{};
    finishedUntaken_ = false;
    startClock_ = nowSeconds();
  }
  running_ = true;
  worker_ = std::thread([this, solve = std::move(solve)] { run(solve); });
}

void PlanJob::cancel() { cancel_ = true; }

void PlanJob::wait() {
  if (worker_.joinable()) worker_.join();
}

void PlanJob::reset() {
  cancel();
  wait();
  std::lock_guard<std::mutex> lock(mutex_);
  snap_ = Snapshot{};
  outcome_ = PlanOutcome{};
  finishedUntaken_ = false;
}

void PlanJob::run(const Solve& solve) {
#ifdef __linux__
  // This thread only: below the UI thread, on a loaded machine the view keeps its frame rate.
  if (workerNice_ > 0) setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), workerNice_);
#endif
  Progress progress(*this);
  try {
    PlanOutcome outcome = solve(progress);
    const bool cancelled = !outcome.solved && cancel_;
    const State state = outcome.solved ? State::Solved : cancelled ? State::Cancelled : State::Failed;
    std::string status =
        !cancelled || outcome.status == "cancelled" ? outcome.status : "cancelled (" + outcome.status + ")";
    finish(state, std::move(outcome), std::move(status));
  } catch (const std::exception& e) {
    finish(State::Failed, PlanOutcome{}, e.what());
  }
}

void PlanJob::finish(State state, PlanOutcome outcome, std::string status) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    snap_.state = state;
    snap_.status = std::move(status);
    snap_.seconds = nowSeconds() - startClock_;
    // A solved plan's ghost is the plan itself (the last iterate the callback saw may precede the final one).
    if (state == State::Solved && !outcome.path.empty()) {
      snap_.ghost = outcome.path;
      snap_.ghostIteration = outcome.iterations;
    }
    outcome_ = std::move(outcome);
    finishedUntaken_ = true;
  }
  running_ = false;
}

PlanJob::Snapshot PlanJob::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Snapshot s = snap_;
  if (s.state == State::Running) s.seconds = nowSeconds() - startClock_;
  return s;
}

bool PlanJob::takeFinished(PlanOutcome& out, State& state) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!finishedUntaken_) return false;
  finishedUntaken_ = false;
  out = std::move(outcome_);
  outcome_ = PlanOutcome{};
  state = snap_.state;
  return true;
}

}  // namespace varsim

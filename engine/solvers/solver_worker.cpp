// Persistent helper thread (see solver_worker.h): posted jobs are numbered; the helper and the caller
// race to claim the current number (under the mutex), the loser does nothing or waits.
#include "engine/solvers/solver_worker.h"

namespace varsim {

SolverWorker::~SolverWorker() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void SolverWorker::run(Job job, void* context) {
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = job;
    context_ = context;
    error_ = nullptr;
    ++posted_;
  }
  cv_.notify_all();
}

void SolverWorker::join() {
  std::unique_lock<std::mutex> lock(mutex_);
  const long generation = posted_;
  if (claim(generation)) {  // the helper has not started it: run it here (an exception propagates as is)
    const Job job = job_;
    void* context = context_;
    lock.unlock();
    job(context);
    return;
  }
  cv_.wait(lock, [&] { return done_ >= generation; });
  if (error_) {
    std::exception_ptr error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

void SolverWorker::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return posted_ > seen_ || quit_; });
    if (quit_) return;
    const long generation = seen_ = posted_;
    if (!claim(generation)) continue;  // the caller took it
    const Job job = job_;
    void* context = context_;
    lock.unlock();
    std::exception_ptr error;
    try {
      job(context);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    error_ = error;
    done_ = generation;
    cv_.notify_all();
  }
}

}  // namespace varsim

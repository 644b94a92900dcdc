// Persistent helper thread (see solver_worker.h): a mutex, a condition variable and a busy flag.
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
    busy_ = true;
  }
  cv_.notify_all();
}

void SolverWorker::join() {
  std::unique_lock<std::mutex> lock(mutex_);
  cv_.wait(lock, [this] { return !busy_; });
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void SolverWorker::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return busy_ || quit_; });
    if (quit_) return;
    lock.unlock();
    std::exception_ptr error;
    try {
      job_(context_);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    error_ = error;
    busy_ = false;
    cv_.notify_all();
  }
}

}  // namespace varsim

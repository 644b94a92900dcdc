// One persistent helper thread for the two-lane solvers (issue 16 item 2): the block solver posts one
// lane of work per phase (run), does the other lane itself, then join()s. Whoever reaches the posted job
// first runs it: if the helper has not started it when the caller is done with its own lane (the helper
// not woken yet, or no core free on a loaded machine), the caller runs it inline instead of waiting for
// the helper to be scheduled. The thread is created on first use and lives as long as its owner. An
// exception thrown in the job is carried to join() and rethrown there.
#pragma once
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace varsim {

class SolverWorker {
 public:
  using Job = void (*)(void* context);
  SolverWorker() = default;
  ~SolverWorker();
  SolverWorker(const SolverWorker&) = delete;
  SolverWorker& operator=(const SolverWorker&) = delete;

  void run(Job job, void* context);  // posts job(context) for the helper thread
  void join();                       // runs it here if the helper has not claimed it, else waits; rethrows

 private:
  void loop();
  bool claim(long generation) {  // under mutex_: true for exactly one of the helper and the caller per job
    long expected = generation - 1;
    return claimed_.compare_exchange_strong(expected, generation, std::memory_order_acq_rel);
  }
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  Job job_ = nullptr;
  void* context_ = nullptr;
  long posted_ = 0, seen_ = 0, done_ = 0;  // generations, under mutex_
  std::atomic<long> claimed_{0};
  bool quit_ = false;
  std::exception_ptr error_;
};

}  // namespace varsim

// One persistent helper thread for the two-lane solvers (issue 16 item 2): the block solver hands it
// one lane of work per phase (run), does the other lane itself, then waits (join). The thread is
// created on first use and lives as long as its owner, so a step starts no thread. An exception
// thrown in the lane is carried to join() and rethrown there.
#pragma once
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

namespace varsim {

class SolverWorker {
 public:
  using Job = void (*)(void* context);
  SolverWorker() = default;
  ~SolverWorker();
  SolverWorker(const SolverWorker&) = delete;
  SolverWorker& operator=(const SolverWorker&) = delete;

  void run(Job job, void* context);  // starts job(context) on the helper thread
  void join();                       // waits for it; rethrows what it threw

 private:
  void loop();
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable cv_;
  Job job_ = nullptr;
  void* context_ = nullptr;
  bool busy_ = false, quit_ = false;
  std::exception_ptr error_;
};

}  // namespace varsim

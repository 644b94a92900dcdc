// One job at a time on a long-lived background thread (the app's physics worker): start() hands a
// job over, wait() blocks until it has finished and rethrows what it threw. The caller keeps the
// data the job touches to itself between start() and wait(); nothing here locks that data.
#pragma once
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace varsim {

class BackgroundJob {
 public:
  BackgroundJob() = default;
  ~BackgroundJob();  // waits for a running job, then stops the thread
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;

  // Starts `job` on the worker thread (created on first use). A job still running is waited for first.
  void start(std::function<void()> job);
  // Blocks until the started job has finished (returns at once if none); rethrows its exception.
  void wait();
  bool running() const;

 private:
  void loop();
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;
  bool pending_ = false;  // a job was started and has not finished
  bool stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace varsim

// study/study_loop.h — what every integrator-study step loop uses (integrator_study.cpp for the rigid body,
// vehicle_study.cpp for the car and the snakeboard): the thread's CPU clock, a wall clock, and the StepMeter that
// counts steps into a StudyControl and turns its cancel flag into StudyCancelled.
#pragma once

#include <chrono>
#include <ctime>

#include "study/integrator_study.h"

namespace varsim::study {

inline double cpuNow() {  // CPU time of the calling thread, s
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
inline double wallNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Counts a step loop's steps into a StudyControl in batches and throws
// StudyCancelled when the control's cancel flag is set (no-op without one).
class StepMeter {
 public:
  explicit StepMeter(StudyControl* control) : control_(control) {}
  ~StepMeter() {
    if (control_) control_->stepsDone += pending_;
  }
  StepMeter(const StepMeter&) = delete;
  StepMeter& operator=(const StepMeter&) = delete;
  void tick() {
    if (++pending_ < kStudyPollSteps || !control_) return;
    control_->stepsDone += pending_;
    pending_ = 0;
    if (control_->cancel.load(std::memory_order_relaxed)) throw StudyCancelled();
  }
  void skip(long steps) { pending_ += steps; }  // a blown-up loop's remaining steps

 private:
  StudyControl* control_;
  long pending_ = 0;
};

}  // namespace varsim::study

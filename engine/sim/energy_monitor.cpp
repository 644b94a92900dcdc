// Energy-gain monitor; the tolerance rule and its reasons are in the header.
#include "engine/sim/energy_monitor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/sim/errors.h"

namespace varsim {

void EnergyMonitor::start(double energy, double inputWork, double scale) {
  *this = EnergyMonitor{};
  started_ = true;
  energy0_ = energy;
  work0_ = inputWork;
  scaleMax_ = std::max(std::abs(energy), std::isfinite(scale) ? std::abs(scale) : 0.0);
  tolerance_ = kRelativeTolerance * scaleMax_ + kAbsoluteTolerance;
}

void EnergyMonitor::addEditWork(double energyJump) {
  if (started_ && std::isfinite(energyJump)) editWork_ += energyJump;
}

void EnergyMonitor::rebase(double energy, double inputWork) {
  if (!started_) return;
  energy0_ = energy;
  work0_ = inputWork;
  editWork_ = 0.0;
  lastWork_ = 0.0;
  gain_ = 0.0;
}

bool EnergyMonitor::update(long step, double time, double energy, double inputWork, double scale) {
  if (!started_) return false;
  const double work = inputWork - work0_ + editWork_;
  // Non-finite values are the divergence check's business; they never move the scale.
  if (std::isfinite(work)) {
    throughput_ += std::abs(work - lastWork_);
    lastWork_ = work;
  }
  for (double s : {energy, throughput_, scale})
    if (std::isfinite(s)) scaleMax_ = std::max(scaleMax_, std::abs(s));
  gain_ = energy - energy0_ - work;
  tolerance_ = kRelativeTolerance * scaleMax_ + kAbsoluteTolerance;
  if (std::isfinite(gain_)) peakGain_ = std::max(peakGain_, gain_);
  if (std::isfinite(gain_) && scaleMax_ > 0.0) worstRatio_ = std::max(worstRatio_, gain_ / scaleMax_);
  if (flagged() || !(gain_ > tolerance_)) return false;
  flag_ = {step, time, gain_, tolerance_};
  return true;
}

std::string EnergyMonitor::message() const {
  if (!flagged()) return "";
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "energy gained without input at step %ld (t=%.6g s): E - E0 - W_in = %+.4g J > tolerance %.4g J; "
                "the trajectory is not trustworthy from here",
                flag_.step, flag_.time, flag_.gain, flag_.tolerance);
  return buf;
}

std::vector<double> EnergyMonitor::saveState() const {
  return {started_ ? 1.0 : 0.0, energy0_,   work0_,     editWork_,       scaleMax_, gain_,     tolerance_, worstRatio_,
          double(flag_.step),   flag_.time, flag_.gain, flag_.tolerance, peakGain_, lastWork_, throughput_};
}

void EnergyMonitor::loadState(const std::vector<double>& s) {
  if (s.size() != 15) throw BadInput("energy monitor state: expected 15 numbers, got " + std::to_string(s.size()));
  started_ = s[0] != 0.0;
  energy0_ = s[1], work0_ = s[2], editWork_ = s[3], scaleMax_ = s[4];
  gain_ = s[5], tolerance_ = s[6], worstRatio_ = s[7];
  flag_ = {long(s[8]), s[9], s[10], s[11]};
  peakGain_ = s[12], lastWork_ = s[13], throughput_ = s[14];
}

int EnergyMonitor::energyColumn(const std::vector<std::string>& columns) {
  const auto it = std::find(columns.begin(), columns.end(), "energy");
  return it == columns.end() ? -1 : int(it - columns.begin());
}

}  // namespace varsim

#include "tests/support/recording_observer.h"

#include <algorithm>

namespace migsim::test {
namespace {

std::string Line(SimTime now, const char* what, const Pod& pod) {
  return FormatSeconds(now) + " " + what + " pod" + std::to_string(pod.id.value());
}

}  // namespace

std::string FormatSeconds(SimTime t) {
  std::string whole = std::to_string(t.micros() / 1'000'000);
  int64_t frac = t.micros() % 1'000'000;
  if (frac == 0) return whole + "s";
  std::string digits = std::to_string(frac);
  digits.insert(0, 6 - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return whole + "." + digits + "s";
}

void RecordingObserver::OnPodSubmitted(SimTime now, const Pod& pod) {
  log.push_back(Line(now, "submitted", pod));
  max_alive = std::max(max_alive, ++alive);
}

void RecordingObserver::OnPodBound(SimTime now, const Pod& pod) {
  log.push_back(Line(now, "bound", pod));
}

void RecordingObserver::OnPodStarted(SimTime now, const Pod& pod) {
  log.push_back(Line(now, "started", pod));
}

void RecordingObserver::OnPodEnded(SimTime now, const Pod& pod) {
  log.push_back(Line(now, "ended", pod) + " " + std::string(PhaseName(pod.phase)) + " " +
                std::string(EndReasonName(pod.reason)));
  --alive;
}

void RecordingObserver::OnPodPreempted(SimTime now, const Pod& pod) {
  log.push_back(Line(now, "preempted", pod));
}

void RecordingObserver::OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) {
  allocations.push_back({now, allocated, capacity});
}

}  // namespace migsim::test

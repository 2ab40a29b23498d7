#pragma once
// A fake EngineObserver that keeps every notification, for tests of the engine's order
// of events and of what it reports.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/observer.h"

namespace migsim::test {

class RecordingObserver final : public EngineObserver {
 public:
  // One line per pod notification, e.g. "5s submitted pod0", "7.5s started pod2",
  // "17s ended pod0 failed DeviceLost".
  std::vector<std::string> log;

  struct Allocation {
    SimTime at;
    int64_t allocated = 0;
    int64_t capacity = 0;
  };
  std::vector<Allocation> allocations;

  int alive = 0;      // pods submitted and not ended
  int max_alive = 0;  // the most pods alive at once

  void OnPodSubmitted(SimTime now, const Pod& pod) override;
  void OnPodBound(SimTime now, const Pod& pod) override;
  void OnPodStarted(SimTime now, const Pod& pod) override;
  void OnPodEnded(SimTime now, const Pod& pod) override;
  void OnPodPreempted(SimTime now, const Pod& pod) override;
  void OnGpuAllocation(SimTime now, int64_t allocated, int64_t capacity) override;
};

// "5s", "7.5s", "0.000001s": seconds without trailing zeros.
std::string FormatSeconds(SimTime t);

}  // namespace migsim::test

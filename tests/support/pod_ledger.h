#pragma once
// A fake EngineObserver that keeps its own books of a run's pods from the engine's
// notifications alone: each pod is pending once submitted, running once bound, and in
// its end state once ended. Its counts are a second account, kept apart from the pods'
// final state that the metrics count (CountPods), so a test can compare the two.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/observer.h"
#include "sim/engine/pod_accounting.h"
#include "sim/metrics/run_metrics.h"

namespace migsim::test {

class PodLedger final : public EngineObserver {
 public:
  void OnPodSubmitted(SimTime now, const Pod& pod) override;
  void OnPodBound(SimTime now, const Pod& pod) override;
  void OnPodEnded(SimTime now, const Pod& pod) override;

  // The pods submitted, and by state as their last notification left them (by_owner is
  // not kept).
  int64_t submitted() const { return static_cast<int64_t>(state_.size()); }
  PodCensus States() const;
  // Where the metrics' `counts` differ from the ledger, one "running: 3 in the metrics, 2
  // in the ledger" each, submitted first; empty when they agree.
  std::vector<std::string> Differences(const PodCounts& counts) const;
  // Notifications out of order, one line each: a pod submitted under an id that is not
  // the next, bound when not pending, ended twice or before it was submitted.
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::vector<PodPhase> state_;  // by PodId
  std::vector<std::string> errors_;
};

}  // namespace migsim::test

#pragma once
// Who waits and who holds the GPUs, over time, per Kueue ClusterQueue and per namespace
// (tenant), for the report's charts: kept by QueueTimelineRecorder, an observer, in runs
// with Kueue or with more than one namespace (README "The HTML report").
//
// Kueue's waiting workloads have no pods yet (their Jobs are suspended until admitted), so
// the scheduler's pending count never holds them: "waiting for admission" counts the pods of
// the workloads queued in a ClusterQueue and not admitted (an evicted workload waits again).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/observer.h"

namespace migsim {

// A count that holds between its changes: (time, value) at each instant it changed, in
// time order, the value after the instant's last change; starts with (0, 0) (which an
// instant at 0 replaces).
using StepPoints = std::vector<std::pair<SimTime, double>>;

struct QueueTimeline {
  std::string name;     // a ClusterQueue's or a namespace's
  StepPoints waiting;   // pods of Kueue workloads waiting for admission
  StepPoints admitted;  // Kueue workloads admitted (holding quota)
  StepPoints
      usage;  // GPUs: a queue's admitted nvidia.com/gpu quota; a namespace's bound pods' GPUs
  StepPoints pending;  // a namespace's pods pending in the scheduler (empty for a queue)
};

struct QueueTimelines {
  StepPoints waiting_for_admission;           // over every queue
  std::vector<QueueTimeline> cluster_queues;  // Kueue's, in order (none without Kueue)
  std::vector<QueueTimeline> namespaces;      // the scenario's, in order
};

class QueueTimelineRecorder final : public EngineObserver {
 public:
  // `namespace_of_template`: each template's PodTemplate::namespace_index, by TemplateId.
  QueueTimelineRecorder(std::vector<int32_t> namespace_of_template,
                        std::vector<std::string> cluster_queues,
                        std::vector<std::string> namespaces);

  void OnPodSubmitted(SimTime now, const Pod& pod) override;
  void OnPodBound(SimTime now, const Pod& pod) override;
  void OnPodEnded(SimTime now, const Pod& pod) override;
  void OnKueueWorkload(SimTime now, const KueueWorkloadNotice& notice) override;

  const QueueTimelines& timelines() const { return out_; }

 private:
  // Adds `delta` to the last value of `series` at `now`: O(1) per change.
  static void Add(StepPoints& series, SimTime now, double delta);
  std::vector<int32_t> namespace_of_template_;
  QueueTimelines out_;
};

}  // namespace migsim

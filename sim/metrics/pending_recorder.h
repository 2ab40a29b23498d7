#pragma once
// The peak of the pods pending during a run, overall, per workload (the pod's controller)
// and per namespace, kept as the run goes (the notices come in time order, so no series
// is stored and nothing is sorted afterwards). A pod is pending from its creation until it
// is bound, or until it ends unbound (deleted by its controller); a pending gang pod that
// holds a reservation is still pending. A preempted or evicted pod ends, and the pod its
// controller creates in its place is a new pod, pending from its own creation
// (Engine::EndPod): a replacement that waits again is counted again.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/engine/observer.h"

namespace migsim {

class PendingRecorder final : public EngineObserver {
 public:
  // `namespace_of_template`: each template's PodTemplate::namespace_index (< `namespaces`),
  // by TemplateId; `owners`: the controllers (pods' OwnerId < owners).
  PendingRecorder(std::vector<int32_t> namespace_of_template, size_t owners, size_t namespaces);

  void OnPodSubmitted(SimTime now, const Pod& pod) override;
  void OnPodBound(SimTime now, const Pod& pod) override;
  void OnPodEnded(SimTime now, const Pod& pod) override;

  // The most pods pending at once over a positive time, up to `end` (the end of the run):
  // a pod bound in the instant it was created never counts. REQUIRES: `end` is not before
  // the last notice.
  int64_t Peak(SimTime end) const { return overall_.Peak(end); }
  // Indexed by OwnerId and by namespace index. A single owner or namespace has the
  // overall peak, which is then not counted twice.
  std::vector<int64_t> PeaksByOwner(SimTime end) const { return Peaks(by_owner_, end); }
  std::vector<int64_t> PeaksByNamespace(SimTime end) const { return Peaks(by_namespace_, end); }

 private:
  // One group's pending count, and its peak over the instants before the last notice's.
  class Count {
   public:
    void Add(SimTime now, int64_t delta) {
      if (now > last_) {  // the count held over [last_, now)
        if (count_ > peak_) peak_ = count_;
        last_ = now;
      }
      count_ += delta;
    }
    int64_t Peak(SimTime end) const { return end > last_ && count_ > peak_ ? count_ : peak_; }

   private:
    int64_t count_ = 0, peak_ = 0;
    SimTime last_;
  };
  std::vector<int64_t> Peaks(const std::vector<Count>& counts, SimTime end) const;
  void Change(SimTime now, const Pod& pod, int64_t delta);

  std::vector<int32_t> namespace_of_template_;
  Count overall_;
  std::vector<Count> by_owner_, by_namespace_;  // empty for a single group
};

}  // namespace migsim

#include "sim/metrics/pending_recorder.h"

#include <utility>

namespace migsim {

PendingRecorder::PendingRecorder(std::vector<int32_t> namespace_of_template, size_t owners,
                                 size_t namespaces)
    : namespace_of_template_(std::move(namespace_of_template)),
      by_owner_(owners > 1 ? owners : 0),
      by_namespace_(namespaces > 1 ? namespaces : 0) {}

// Called twice per pod in runs of millions: the groups are sized up front.
void PendingRecorder::Change(SimTime now, const Pod& pod, int64_t delta) {
  overall_.Add(now, delta);
  if (!by_owner_.empty()) by_owner_[pod.owner.value()].Add(now, delta);
  if (!by_namespace_.empty()) {
    by_namespace_[static_cast<size_t>(namespace_of_template_[pod.tmpl.value()])].Add(now, delta);
  }
}

void PendingRecorder::OnPodSubmitted(SimTime now, const Pod& pod) { Change(now, pod, 1); }

void PendingRecorder::OnPodBound(SimTime now, const Pod& pod) { Change(now, pod, -1); }

void PendingRecorder::OnPodEnded(SimTime now, const Pod& pod) {
  // A pod that ends without a node never bound (a gang pod's reservation is released as it
  // leaves its gang): it stops pending now. Every other one stopped when it was bound.
  if (!pod.node.valid()) Change(now, pod, -1);
}

std::vector<int64_t> PendingRecorder::Peaks(const std::vector<Count>& counts, SimTime end) const {
  if (counts.empty()) return {overall_.Peak(end)};
  std::vector<int64_t> out;
  out.reserve(counts.size());
  for (const Count& c : counts) out.push_back(c.Peak(end));
  return out;
}

}  // namespace migsim

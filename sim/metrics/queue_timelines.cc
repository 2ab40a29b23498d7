#include "sim/metrics/queue_timelines.h"

#include <utility>

namespace migsim {
namespace {

QueueTimeline Empty(std::string name, bool pods) {
  const StepPoints zero{{SimTime::Zero(), 0.0}};
  return {std::move(name), zero, zero, zero, pods ? zero : StepPoints{}};
}

}  // namespace

QueueTimelineRecorder::QueueTimelineRecorder(std::vector<int32_t> namespace_of_template,
                                             std::vector<std::string> cluster_queues,
                                             std::vector<std::string> namespaces)
    : namespace_of_template_(std::move(namespace_of_template)) {
  out_.waiting_for_admission = {{SimTime::Zero(), 0.0}};
  for (std::string& q : cluster_queues) out_.cluster_queues.push_back(Empty(std::move(q), false));
  for (std::string& n : namespaces) out_.namespaces.push_back(Empty(std::move(n), true));
}

// Only changes are kept: a value set back within its instant to the one before goes.
void QueueTimelineRecorder::Add(StepPoints& series, SimTime now, double delta) {
  if (delta == 0) return;
  const double value = series.back().second + delta;
  if (series.back().first != now) {
    series.emplace_back(now, value);
  } else if (series.size() > 1 && series[series.size() - 2].second == value) {
    series.pop_back();
  } else {
    series.back().second = value;
  }
}

void QueueTimelineRecorder::OnPodSubmitted(SimTime now, const Pod& pod) {
  Add(out_.namespaces[static_cast<size_t>(namespace_of_template_[pod.tmpl.value()])].pending, now,
      1);
}

void QueueTimelineRecorder::OnPodBound(SimTime now, const Pod& pod) {
  QueueTimeline& ns =
      out_.namespaces[static_cast<size_t>(namespace_of_template_[pod.tmpl.value()])];
  Add(ns.pending, now, -1);
  Add(ns.usage, now, pod.gpus);
}

// As PendingRecorder: a pod that ends without a node stops pending now; a bound one gives
// its GPUs back.
void QueueTimelineRecorder::OnPodEnded(SimTime now, const Pod& pod) {
  QueueTimeline& ns =
      out_.namespaces[static_cast<size_t>(namespace_of_template_[pod.tmpl.value()])];
  if (pod.node.valid()) {
    Add(ns.usage, now, -pod.gpus);
  } else {
    Add(ns.pending, now, -1);
  }
}

void QueueTimelineRecorder::OnKueueWorkload(SimTime now, const KueueWorkloadNotice& notice) {
  double waiting = 0, admitted = 0;
  switch (notice.change) {
    case KueueWorkloadChange::kQueued:
      waiting = 1;
      break;
    case KueueWorkloadChange::kAdmitted:
      waiting = -1, admitted = 1;
      break;
    case KueueWorkloadChange::kEvicted:
      waiting = 1, admitted = -1;
      break;
    case KueueWorkloadChange::kFinished:
      admitted = -1;
      break;
    case KueueWorkloadChange::kWithdrawn:
      waiting = -1;
      break;
  }
  const double pods = static_cast<double>(notice.pods);
  const double gpus = static_cast<double>(notice.gpus);
  Add(out_.waiting_for_admission, now, waiting * pods);
  for (QueueTimeline* t : {&out_.cluster_queues[static_cast<size_t>(notice.cluster_queue)],
                           &out_.namespaces[static_cast<size_t>(notice.namespace_index)]}) {
    Add(t->waiting, now, waiting * pods);
    Add(t->admitted, now, admitted);
    // A namespace's usage is its bound pods'; a queue's is the quota its workloads hold.
    if (t->pending.empty()) Add(t->usage, now, admitted * gpus);
  }
}

}  // namespace migsim

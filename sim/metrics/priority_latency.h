#pragma once
// Queueing latency by PriorityClass: what a priority buys each class of pods.

#include <algorithm>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/pod.h"
#include "sim/engine/priority_class.h"
#include "sim/metrics/latency_summary.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

// One entry per class that has pods, highest priority first (ties by name). Empty when no
// pod has a class: the overall queueing latency says it all. `templates` is indexed by
// the pods' TemplateId; `classes` by PodTemplate::priority_class.
// The same, one pod at a time (RunMetricsSummary's contract: in PodId order, the same
// result; percentiles exact up to `exact_limit` bound pods of a class).
class PriorityLatencySummary {
 public:
  // `templates` and `classes` must outlive the summary.
  PriorityLatencySummary(std::span<const PodTemplate> templates,
                         std::span<const PriorityClass> classes, size_t exact_limit = kExactValues)
      : templates_(templates),
        classes_(classes),
        exact_limit_(exact_limit),
        any_template_has_class_(
            std::any_of(templates.begin(), templates.end(),
                        [](const PodTemplate& t) { return t.priority_class >= 0; })) {}
  void Add(const Pod& pod);
  std::vector<PriorityClassLatency> Finish();

 private:
  std::span<const PodTemplate> templates_;
  std::span<const PriorityClass> classes_;
  size_t exact_limit_;
  // By class index; -1 (no class) included only when some pod has a class.
  std::map<int32_t, LatencySummary> latencies_;
  std::map<int32_t, int64_t> counts_;
  bool any_class_ = false;
  // False: no pod can have a class, Finish gives nothing, and Add skips its work.
  bool any_template_has_class_;
};

std::vector<PriorityClassLatency> QueueingByPriorityClass(std::span<const Pod> pods,
                                                          std::span<const PodTemplate> templates,
                                                          std::span<const PriorityClass> classes);

}  // namespace migsim

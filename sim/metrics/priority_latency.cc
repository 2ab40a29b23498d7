#include "sim/metrics/priority_latency.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace migsim {

void PriorityLatencySummary::Add(const Pod& pod) {
  if (!any_template_has_class_) return;
  const int32_t klass = templates_[pod.tmpl.value()].priority_class;
  any_class_ = any_class_ || klass >= 0;
  ++counts_[klass];
  LatencySummary& l = latencies_.try_emplace(klass, exact_limit_).first->second;
  if (WasBound(pod)) l.Add((pod.bound - pod.created).seconds());
}

std::vector<PriorityClassLatency> PriorityLatencySummary::Finish() {
  std::vector<PriorityClassLatency> out;
  if (!any_class_) return out;
  for (auto& [klass, values] : latencies_) {
    PriorityClassLatency entry;
    entry.name = klass >= 0 ? classes_[static_cast<size_t>(klass)].name : "(none)";
    entry.priority = klass >= 0 ? classes_[static_cast<size_t>(klass)].value : 0;
    entry.pods = counts_[klass];
    entry.queueing = values.Finish();
    out.push_back(std::move(entry));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.name < b.name;
  });
  return out;
}

std::vector<PriorityClassLatency> QueueingByPriorityClass(std::span<const Pod> pods,
                                                          std::span<const PodTemplate> templates,
                                                          std::span<const PriorityClass> classes) {
  PriorityLatencySummary summary(templates, classes, SIZE_MAX);
  for (const Pod& pod : pods) summary.Add(pod);
  return summary.Finish();
}

}  // namespace migsim

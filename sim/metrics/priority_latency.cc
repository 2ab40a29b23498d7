#include "sim/metrics/priority_latency.h"

#include <algorithm>
#include <map>

namespace migsim {

std::vector<PriorityClassLatency> QueueingByPriorityClass(std::span<const Pod> pods,
                                                          std::span<const PodTemplate> templates,
                                                          std::span<const PriorityClass> classes) {
  // By class index; -1 (no class) included only when some pod has a class.
  std::map<int32_t, std::vector<double>> latencies;
  std::map<int32_t, int64_t> counts;
  bool any_class = false;
  for (const Pod& pod : pods) {
    const int32_t klass = templates[pod.tmpl.value()].priority_class;
    any_class = any_class || klass >= 0;
    ++counts[klass];
    std::vector<double>& l = latencies[klass];
    if (WasBound(pod)) l.push_back((pod.bound - pod.created).seconds());
  }
  std::vector<PriorityClassLatency> out;
  if (!any_class) return out;
  for (auto& [klass, values] : latencies) {
    PriorityClassLatency entry;
    entry.name = klass >= 0 ? classes[static_cast<size_t>(klass)].name : "(none)";
    entry.priority = klass >= 0 ? classes[static_cast<size_t>(klass)].value : 0;
    entry.pods = counts[klass];
    entry.queueing = ComputeLatency(std::move(values));
    out.push_back(std::move(entry));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.name < b.name;
  });
  return out;
}

}  // namespace migsim

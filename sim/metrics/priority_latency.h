#pragma once
// Queueing latency by PriorityClass: what a priority buys each class of pods.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/engine/pod.h"
#include "sim/engine/priority_class.h"
#include "sim/metrics/run_metrics.h"

namespace migsim {

// One entry per class that has pods, highest priority first (ties by name). Empty when no
// pod has a class: the overall queueing latency says it all. `templates` is indexed by
// the pods' TemplateId; `classes` by PodTemplate::priority_class.
std::vector<PriorityClassLatency> QueueingByPriorityClass(std::span<const Pod> pods,
                                                          std::span<const PodTemplate> templates,
                                                          std::span<const PriorityClass> classes);

}  // namespace migsim

#pragma once
// A plugin library's queue order (migsim_policy_queue_less, ABI version 2) as a QueueOrder:
// what a scenario gets with "scheduler": {"queue_order": "policy"} and a library policy.

#include <memory>

#include "policies/plugin/migsim_policy_plugin.h"
#include "sim/policy/queue_order.h"

namespace migsim {

using PluginQueueLess = int (*)(void*, const migsim_queued_pod*, const migsim_queued_pod*);

// The order `less` gives on `instance` (the plugin's policy, which must outlive it).
// REQUIRES: `less` and `instance` are not null; names.resources is set and names every
// resource a pending pod requests.
std::unique_ptr<QueueOrder> MakePluginQueueOrder(PluginQueueLess less, void* instance,
                                                 const QueueNames& names);

}  // namespace migsim

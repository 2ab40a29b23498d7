#pragma once
// How full a node would be with a pod on it: the mean, over the resources the pod
// requests (cpu, memory and each extended resource), of (requested + pod) / allocatable.
// kube-scheduler's NodeResourcesFit scores MostAllocated and LeastAllocated this way.

#include "sim/policy/cluster_view.h"

namespace migsim {

// In [0, 1]. REQUIRES: the pod fits the node.
double AllocatedFractionWith(const PodView& pod, const NodeInfo& node);

}  // namespace migsim

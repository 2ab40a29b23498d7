#pragma once
// How full a node would be with a pod on it: the mean, over the pod's extended resources
// (or CPU and memory when it requests none), of (requested + pod) / allocatable, at most 1.
// kube-scheduler's NodeResourcesFit scores MostAllocated and LeastAllocated this way; CPU
// and memory count with its non-zero defaults (NonZeroCpuMilli, NonZeroCpuMilliRequested).

#include "sim/policy/cluster_view.h"

namespace migsim {

// In [0, 1]. REQUIRES: the pod fits the node.
double AllocatedFractionWith(const PodView& pod, const NodeInfo& node);

}  // namespace migsim

#include "policies/allocation_score.h"

#include <algorithm>

namespace migsim {
namespace {

// At most 1: with the non-zero defaults a node can look fuller than it is allocatable
// (leastRequestedScore scores it 0, mostRequestedScore caps the request at the capacity).
double Fraction(int64_t requested, int64_t extra, int64_t allocatable) {
  if (allocatable <= 0) return 1.0;
  return std::min(1.0, static_cast<double>(requested + extra) / static_cast<double>(allocatable));
}

}  // namespace

double AllocatedFractionWith(const PodView& pod, const NodeInfo& node) {
  const PodRequests& req = *pod.requests;
  double sum = 0;
  int terms = 0;
  // GPU resources dominate when requested: a GPU pod is placed by its GPUs, as
  // kube-scheduler does when the extended resource is weighted in the scoring config.
  for (const ResourceRequest& r : req.extended) {
    sum += Fraction(node.Requested(r.resource), r.count, node.Allocatable(r.resource));
    ++terms;
  }
  if (terms == 0) {
    // CPU and memory as NodeResourcesFit scores them: with the non-zero defaults for the
    // pod and for the pods on the node (calculateResourceAllocatableRequest).
    sum +=
        Fraction(node.NonZeroCpuMilliRequested(), NonZeroCpuMilli(req), node.cpu_milli_allocatable);
    sum += Fraction(node.NonZeroMemoryMibRequested(), NonZeroMemoryMib(req),
                    node.memory_mib_allocatable);
    terms = 2;
  }
  return sum / terms;
}

}  // namespace migsim

#include "policies/allocation_score.h"

namespace migsim {
namespace {

double Fraction(int64_t requested, int64_t extra, int64_t allocatable) {
  if (allocatable <= 0) return 1.0;
  return static_cast<double>(requested + extra) / static_cast<double>(allocatable);
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
    sum += Fraction(node.cpu_milli_requested, req.cpu_milli, node.cpu_milli_allocatable);
    sum += Fraction(node.memory_mib_requested, req.memory_mib, node.memory_mib_allocatable);
    terms = 2;
  }
  return sum / terms;
}

}  // namespace migsim

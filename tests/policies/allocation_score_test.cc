#include "policies/allocation_score.h"

#include <catch2/catch.hpp>

#include "policies/best_fit.h"
#include "policies/spread.h"
#include "tests/support/policy_world.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

TEST_CASE("a GPU pod's allocated fraction counts only its extended resources",
          "[policies][allocation_score]") {
  ResourceTable resources;
  const ResourceId gpu = resources.Intern("nvidia.com/gpu");
  const ResourceId mig = resources.Intern("nvidia.com/mig-1g.5gb");
  NodeInfo node = test::SchedulerNode(0, 8000, 32768);
  node.cpu_milli_requested = 8000;  // ignored for a GPU pod
  test::SetExtended(node, gpu, 4, 1);
  test::SetExtended(node, mig, 8, 3);
  Labels none;
  PodRequests one_gpu;
  one_gpu.extended = {{gpu, 1}};
  CHECK(AllocatedFractionWith({PodId(0), &one_gpu, &none}, node) == 0.5);
  PodRequests both;
  both.extended = {{gpu, 1}, {mig, 1}};
  CHECK(AllocatedFractionWith({PodId(0), &both, &none}, node) == 0.5 * (2.0 / 4 + 4.0 / 8));
}

TEST_CASE("a CPU pod's allocated fraction is the mean of cpu and memory",
          "[policies][allocation_score]") {
  NodeInfo node = test::SchedulerNode(0, 8000, 32768);
  node.cpu_milli_requested = 2000;
  Labels none;
  PodRequests req;
  req.cpu_milli = 2000;
  req.memory_mib = 8192;
  CHECK(AllocatedFractionWith({PodId(0), &req, &none}, node) ==
        0.5 * (4000.0 / 8000 + 8192.0 / 32768));
}

TEST_CASE("pods without CPU or memory requests count as 100 millicores and 200 MiB when scored",
          "[policies][allocation_score]") {
  // Two nodes of 8000 millicores and 32768 MiB: node 0 holds ten pods that request
  // nothing, node 1 one pod of 500 millicores and 1000 MiB. kube-scheduler's
  // NodeResourcesFit scores with NodeInfo.NonZeroRequested and the pod's non-zero requests:
  // the ten weigh 1000 millicores and 2000 MiB, an incoming request-less pod 100 and 200.
  test::PolicyWorld w;
  NodeInfo& idle = w.AddNode(0, 0);
  for (int i = 0; i < 10; ++i) idle.BookCpuMemory(PodRequests{}, +1);
  w.AddNode(0, 0).BookCpuMemory(PodRequests{.cpu_milli = 500, .memory_mib = 1000, .extended = {}},
                                +1);
  CHECK(w.nodes[0].cpu_milli_requested == 0);
  CHECK(w.nodes[0].NonZeroCpuMilliRequested() == 1000);
  CHECK(w.nodes[0].NonZeroMemoryMibRequested() == 2000);
  const PodRequests nothing{};
  const Labels none;
  const PodView pod{PodId(0), &nothing, &none};
  CHECK(AllocatedFractionWith(pod, w.nodes[0]) == 0.5 * (1100.0 / 8000 + 2200.0 / 32768));
  CHECK(AllocatedFractionWith(pod, w.nodes[1]) == 0.5 * (600.0 / 8000 + 1200.0 / 32768));
  // So spread (LeastAllocated) no longer takes the node full of request-less pods for an
  // empty one, and best-fit (MostAllocated) packs onto it.
  SpreadPolicy spread;
  BestFitPolicy best_fit;
  CHECK(w.PlaceCpu(spread, 0, 0) == 1u);
  CHECK(w.PlaceCpu(best_fit, 0, 0) == 0u);
  // A pod that requests CPU but no memory counts 200 MiB of memory only.
  const PodRequests cpu_only{.cpu_milli = 1000, .memory_mib = 0, .extended = {}};
  CHECK(AllocatedFractionWith({PodId(0), &cpu_only, &none}, w.nodes[1]) ==
        0.5 * (1500.0 / 8000 + 1200.0 / 32768));
}

TEST_CASE("the non-zero defaults never make a node more than full, nor fail the filter",
          "[policies][allocation_score]") {
  // Twelve request-less pods on a node of 1000 millicores: 1300 with the incoming one.
  // leastRequestedScore gives 0 when the requests exceed the capacity, mostRequestedScore
  // caps them at it: the fraction is 1. The filter counts the real requests (none), so a
  // pod of all 1000 millicores still fits.
  NodeInfo node = test::SchedulerNode(0, 1000, 100000);
  const PodRequests nothing{};
  for (int i = 0; i < 12; ++i) node.BookCpuMemory(nothing, +1);
  Labels none;
  const PodView pod{PodId(0), &nothing, &none};
  CHECK(AllocatedFractionWith(pod, node) == 0.5 * (1.0 + 2600.0 / 100000));
  CHECK(node.HasRoomFor(PodRequests{.cpu_milli = 1000, .memory_mib = 0, .extended = {}}));
  CHECK_FALSE(node.HasRoomFor(PodRequests{.cpu_milli = 1001, .memory_mib = 0, .extended = {}}));
  node.BookCpuMemory(nothing, -1);
  CHECK(node.pods_without_cpu == 11);
  CHECK(node.pods_without_memory == 11);
}

}  // namespace
}  // namespace migsim

#include "policies/allocation_score.h"

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace migsim

// Karpenter as the provisioner (issue 15): NodeClaims sized for the pending batch and
// launched as the cheapest instance type that holds them, consolidation of empty and
// under-used nodes (deletion and replacement), consolidateAfter and disruption budgets.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "tests/support/scenario_text.h"
#include "tests/support/tiny_world.h"
#include "tests/support/node_groups_of.h"

namespace migsim {
namespace {

using test::NodeGroupsOf;

// Pools "big" (p3.8xlarge: 4 V100, $12.24/h) and "small" (p3.2xlarge: 1 V100, $3.06/h),
// both autoscaled (`big` and `small` their `autoscaling`, "" leaves the pool out), under
// Karpenter with `karpenter` its settings.
std::string Doc(const std::string& workloads, const std::string& karpenter = "{}",
                const std::string& big = R"({"max": 3, "provisioning_s": 60})",
                const std::string& small = R"({"max": 3, "provisioning_s": 60})",
                const std::string& extra = "") {
  std::string pools = R"("big": {"type": "p3.8xlarge", "autoscaling": )" + big + "}";
  if (!small.empty()) {
    pools += R"(, "small": {"type": "p3.2xlarge", "autoscaling": )" + small + "}";
  }
  return R"({"name": "t", "description": "d", )" + extra + R"(
    "cluster": {"karpenter": )" + karpenter + R"(, "nodes": {)" + pools + R"(}},
    "job_classes": {"run": {"run_s": 100}, "long": {"run_s": 100000}},
    "workloads": )" + workloads + "}";
}

// A Job of `count` pods of one GPU each, of job class `job_class`, created at `at_s`.
std::string GpuJob(const std::string& name, int count, const std::string& job_class,
                   double at_s = 0) {
  return "\"" + name + R"(": {"kind": "Job", "completions": )" + std::to_string(count) +
         R"(, "parallelism": )" + std::to_string(count) + R"(, "at_s": )" +
         std::to_string(at_s) + R"(, "template": {"job_class": ")" + job_class +
         R"(", "resources": {"nvidia.com/gpu": 1}}})";
}

using Run = test::TextRun;

Run RunText(const std::string& text) { return test::RunFirstVariant(text); }

const NodeGroups::Counters& Big(const Run& run) { return NodeGroupsOf(*run.engine).counters()[0]; }
const NodeGroups::Counters& Small(const Run& run) { return NodeGroupsOf(*run.engine).counters()[1]; }

}  // namespace

TEST_CASE(
    "Karpenter launches a pending pod's NodeClaim as the cheapest instance type that holds "
    "it, once the batch has been idle for a second",
    "[engine][karpenter]") {
  const Run run = RunText(Doc("{" + GpuJob("j", 1, "run") + "}"));
  // Seen pending at the 1 s look, the batch closes at 2 s: launched then, Ready at 62 s.
  CHECK(run.engine->pods()[0].bound.seconds() == 62);
  CHECK(Small(run).nodes_launched == 1);
  CHECK(Big(run).nodes_launched == 0);
}

TEST_CASE(
    "Karpenter packs a batch onto as few claims as the instance types allow and takes the "
    "cheapest type for each claim",
    "[engine][karpenter]") {
  // Five one-GPU pods: four fill a claim only a p3.8xlarge can hold; the fifth opens a
  // second claim, launched as the cheaper p3.2xlarge.
  const Run run = RunText(Doc("{" + GpuJob("j", 5, "run") + "}"));
  CHECK(Big(run).nodes_launched == 1);
  CHECK(Small(run).nodes_launched == 1);
  for (const Pod& pod : run.engine->pods()) CHECK(pod.bound.seconds() == 62);
}

TEST_CASE(
    "an empty node is deleted 15 s after the first disruption poll past consolidateAfter, "
    "and is billed from its launch to then",
    "[engine][karpenter]") {
  // Launched at 2 s, the pod runs 62 s to 162 s; polls every 10 s from 1 s: decided at
  // 171 s, carried out at 186 s.
  const Run now = RunText(Doc("{" + GpuJob("j", 1, "run") + "}"));
  CHECK(Small(now).nodes_terminated == 1);
  CHECK(NodeGroupsOf(*now.engine).BilledNodeHours(NodeId(3)) == Approx((186.0 - 2) / 3600));
  const Run later =
      RunText(Doc("{" + GpuJob("j", 1, "run") + "}", R"({"consolidate_after_s": 60})"));
  CHECK(NodeGroupsOf(*later.engine).BilledNodeHours(NodeId(3)) == Approx((246.0 - 2) / 3600));
}

TEST_CASE(
    "WhenEmptyOrUnderutilized deletes a node whose pods fit elsewhere and its Job pod moves, "
    "while WhenEmpty keeps it",
    "[engine][karpenter]") {
  // Two p3.8xlarge nodes (the second batch comes while the first node boots), each left
  // with one long pod once the short ones end: one node's pod fits on the other.
  const std::string jobs = "{" + GpuJob("a", 1, "long") + ", " + GpuJob("s", 3, "run") + ", " +
                           GpuJob("b", 1, "long", 5) + ", " + GpuJob("t", 3, "run", 5) + "}";
  const std::string only_big = R"({"max": 2, "provisioning_s": 60})";
  const Run under = RunText(Doc(jobs, "{}", only_big, "", R"("horizon_s": 3000,)"));
  CHECK(Big(under).nodes_launched == 2);
  CHECK(Big(under).nodes_terminated == 1);
  int running = 0;
  for (const Pod& pod : under.engine->pods()) running += pod.phase == PodPhase::kRunning;
  CHECK(running == 2);  // both long pods, on the node left
  const Run empty = RunText(Doc(jobs, R"({"consolidation_policy": "WhenEmpty"})", only_big, "",
                                R"("horizon_s": 3000,)"));
  CHECK(Big(empty).nodes_terminated == 0);
}

TEST_CASE(
    "a node whose pods fit one cheaper instance type is replaced: cordoned, drained once the "
    "replacement is Ready",
    "[engine][karpenter]") {
  // A p3.8xlarge left with one long pod (its 3 short ones end at 162 s) costs $12.24/h; a
  // p3.2xlarge holds that pod for $3.06/h. Decided at the 171 s poll, the replacement is
  // launched at 186 s and Ready at 246 s; the pod is evicted and its Job's new pod binds
  // there.
  const std::string jobs = "{" + GpuJob("a", 1, "long") + ", " + GpuJob("s", 3, "run") + "}";
  const Run run = RunText(Doc(jobs, "{}", R"({"max": 2, "provisioning_s": 60})",
                              R"({"max": 2, "provisioning_s": 60})", R"("horizon_s": 3000,)"));
  CHECK(Big(run).nodes_terminated == 1);
  CHECK(Small(run).nodes_launched == 1);
  const Pod* moved = nullptr;
  for (const Pod& pod : run.engine->pods()) {
    if (pod.phase == PodPhase::kRunning) moved = &pod;
  }
  REQUIRE(moved != nullptr);
  CHECK(moved->node.value() == 2);  // small-0 (big-0, big-1, small-0, small-1)
  CHECK(moved->bound.seconds() >= 246);
}

TEST_CASE(
    "multi-node consolidation deletes at once the longest run of candidates whose pods fit the "
    "nodes left, and does not replace nodes with one of their own instance type",
    "[engine][karpenter]") {
  // Three p3.8xlarge up from the start, one long one-GPU pod on each (spread). Deleting two
  // is valid (their pods fit the third); replacing all three with one p3.8xlarge is
  // cheaper than three but of their own type, so left out: the two are deleted together.
  const std::string job = "{" + GpuJob("j", 3, "long") + "}";
  const std::string big = R"({"max": 3, "initial": 3, "provisioning_s": 60})";
  const std::string extra = R"("policy": {"name": "spread"}, "horizon_s": 3000,)";
  const Run multi = RunText(Doc(job, R"({"budgets": [{"nodes": "100%"}]})", big, "", extra));
  CHECK(Big(multi).nodes_terminated == 2);
  CHECK(Big(multi).nodes_launched == 0);  // no replacement (the initial three are not launches)
  const Engine& e = *multi.engine;
  std::vector<double> hours;
  for (uint32_t n = 0; n < 3; ++n) hours.push_back(NodeGroupsOf(e).BilledNodeHours(NodeId(n)));
  std::sort(hours.begin(), hours.end());
  CHECK(hours[0] == hours[1]);  // deleted by one decision
  CHECK(hours[0] < hours[2]);
  // Under the default budget (10 % of three nodes, rounded up: one), one node at a time.
  const Run single = RunText(Doc(job, "{}", big, "", extra));
  CHECK(Big(single).nodes_terminated == 2);
  std::vector<double> one_by_one;
  for (uint32_t n = 0; n < 3; ++n) one_by_one.push_back(NodeGroupsOf(*single.engine).BilledNodeHours(NodeId(n)));
  std::sort(one_by_one.begin(), one_by_one.end());
  CHECK(one_by_one[0] < one_by_one[1]);
}

TEST_CASE("multi-node consolidation replaces several nodes with one cheaper node",
          "[engine][karpenter]") {
  // Two p3.8xlarge ($12.24/h each) up from the start, one long one-GPU pod on each, and no
  // room elsewhere: one p3.2xlarge cannot hold both pods, but a p3.8xlarge of the other
  // pool "small" at $10/h can: cheaper than the two together and than the dearest.
  const std::string job = "{" + GpuJob("j", 2, "long") + "}";
  const std::string big = R"({"max": 2, "initial": 2, "provisioning_s": 60})";
  const std::string other = R"({"max": 1, "provisioning_s": 60, "price_per_hour": 10})";
  std::string text = Doc(job, R"({"budgets": [{"nodes": "100%"}]})", big, other,
                         R"("policy": {"name": "spread"}, "horizon_s": 3000,)");
  // The second pool as a p3.8xlarge.
  const std::string small_pool = R"("small": {"type": "p3.2xlarge")";
  REQUIRE(text.find(small_pool) != std::string::npos);
  text.replace(text.find(small_pool), small_pool.size(), R"("small": {"type": "p3.8xlarge")");
  const Run run = RunText(text);
  CHECK(Big(run).nodes_terminated == 2);
  CHECK(Small(run).nodes_launched == 1);
  for (const Pod& pod : run.engine->pods()) {
    if (pod.phase == PodPhase::kRunning) CHECK(pod.node.value() == 2);  // small-0
  }
}

TEST_CASE("disruption budgets cap consolidation, by reason when they name one",
          "[engine][karpenter]") {
  const std::string job = "{" + GpuJob("j", 1, "run") + "}";
  const Run none = RunText(Doc(job, R"({"budgets": [{"nodes": 0}]})", R"({"max": 1})", "",
                               R"("horizon_s": 3000,)"));
  CHECK(NodeGroupsOf(*none.engine).counters()[0].nodes_terminated == 0);
  const Run other = RunText(Doc(job, R"({"budgets": [{"nodes": "0%", "reasons": ["Underutilized"]}]})",
                                R"({"max": 1})", "", R"("horizon_s": 3000,)"));
  CHECK(NodeGroupsOf(*other.engine).counters()[0].nodes_terminated == 1);  // Empty is not capped
}

TEST_CASE("a scheduled budget applies from each firing of its schedule for its duration",
          "[engine][karpenter]") {
  // No disruption from 00:00 to 01:00 each day: the node empty from 162 s is deleted only
  // after the window closes, at the 3601 s poll, carried out 15 s later; without a horizon
  // the run does not end while the window holds the node.
  const std::string job = "{" + GpuJob("j", 1, "run") + "}";
  const Run run = RunText(Doc(
      job, R"({"budgets": [{"nodes": 0, "schedule": "0 0 * * *", "duration_s": 3600}]})",
      R"({"max": 1})", ""));
  REQUIRE(NodeGroupsOf(*run.engine).counters().size() == 1);  // p3.8xlarge only
  CHECK(Big(run).nodes_terminated == 1);
  CHECK(NodeGroupsOf(*run.engine).BilledNodeHours(NodeId(0)) == Approx((3616.0 - 2) / 3600));
}

TEST_CASE("a spot node is deleted but not replaced by consolidation", "[engine][karpenter]") {
  const std::string jobs = "{" + GpuJob("a", 1, "long") + ", " + GpuJob("s", 3, "run") + "}";
  const Run run = RunText(
      Doc(jobs, "{}", R"({"max": 2, "provisioning_s": 60, "capacity_type": "spot", "price_per_hour": 5})",
          R"({"max": 2, "provisioning_s": 60})", R"("horizon_s": 3000,)"));
  CHECK(Big(run).nodes_launched == 1);
  CHECK(Big(run).nodes_terminated == 0);
  CHECK(Small(run).nodes_launched == 0);
}

TEST_CASE(
    "a spot interruption drains a node group's node at its notice and reclaims it two minutes "
    "later, Karpenter launches a node for the evicted pod, and the slot can launch again",
    "[engine][karpenter][faults]") {
  // One long Job pod on small-0 (Ready at 62 s). The notice at 1000 s evicts it (grace
  // 30 s); the instance goes at 1120 s. The recreated pod finds no node: a new NodeClaim
  // (small-1, the reclaimed slot still counting until 1120 s) holds it.
  const std::string text =
      Doc("{" + GpuJob("a", 1, "long") + "}", "{}", R"({"max": 1, "provisioning_s": 60})",
          R"({"max": 2, "provisioning_s": 60, "capacity_type": "spot", "price_per_hour": 1})",
          R"("horizon_s": 3000, "faults": [{"at_s": 1000, "kind": "spot-interruption",
              "nodes": ["small-0"]}],)");
  const Run run = RunText(text);
  CHECK(Small(run).spot_reclaims == 1);
  CHECK(Small(run).nodes_terminated == 1);
  CHECK(Small(run).nodes_launched == 2);
  CHECK(NodeGroupsOf(*run.engine).BilledNodeHours(NodeId(1)) == Approx((1120.0 - 2) / 3600));
  int running = 0;
  for (const Pod& pod : run.engine->pods()) {
    if (pod.phase == PodPhase::kRunning) {
      ++running;
      CHECK(pod.node.value() == 2);  // small-1
    }
  }
  CHECK(running == 1);
}

TEST_CASE(
    "a spot-interruption process interrupts each spot instance after its own draw from Ready, "
    "and the node group launches another for the evicted pod",
    "[engine][karpenter][faults]") {
  // One long pod on spot p3.2xlarge nodes whose instances are interrupted after 1 h on
  // average: over 20,000 s several are reclaimed, each replaced by a new launch; draws for
  // instances already gone do nothing, so no more are reclaimed than were launched.
  const std::string text =
      Doc("{" + GpuJob("a", 1, "long") + "}", "{}", R"({"max": 1, "provisioning_s": 60})",
          R"({"max": 2, "provisioning_s": 60, "capacity_type": "spot", "price_per_hour": 1})",
          R"("horizon_s": 20000, "fault_processes": [{"kind": "spot-interruption",
              "pool": "small", "mtbf_h": 1}],)");
  const Run run = RunText(text);
  const uint32_t reclaims = Small(run).spot_reclaims;
  CHECK(reclaims >= 2);
  CHECK(Small(run).nodes_launched == reclaims + 1);
  CHECK(Big(run).nodes_launched == 0);  // the spot offering stays the cheaper
  CHECK(NodeGroupsOf(*RunText(text).engine).counters()[1].spot_reclaims == reclaims);  // seeded
  int running = 0;
  for (const Pod& pod : run.engine->pods()) running += pod.phase == PodPhase::kRunning ? 1 : 0;
  CHECK(running == 1);
}

}  // namespace migsim

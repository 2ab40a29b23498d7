// Node autoscaling in the engine (issue 15): the Cluster Autoscaler's scale-up, its
// provisioning delay, scale-down after the unneeded time, the delays and limits around
// them, the expanders, and what each node is billed.
#include <catch2/catch.hpp>
#include <string>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/scenario_text.h"
#include "tests/support/tiny_world.h"
#include "tests/support/node_groups_of.h"

namespace migsim {
namespace {

using test::NodeGroupsOf;

// A scenario of one autoscaled pool "g" of p3.2xlarge nodes (one V100 each, $3.06/h),
// `autoscaling` its group's fields, `extra` more top-level members, and `workloads`.
std::string Doc(const std::string& autoscaling, const std::string& workloads,
                const std::string& extra = "", const std::string& autoscaler = "{}") {
  return R"({"name": "t", "description": "d", )" + extra + R"(
    "cluster": {"autoscaler": )" + autoscaler + R"(,
                "nodes": {"g": {"type": "p3.2xlarge", "autoscaling": )" + autoscaling + R"(}}},
    "job_classes": {"run": {"run_s": 100}, "long": {"run_s": 100000}},
    "workloads": )" + workloads + "}";
}

// `count` bare pods of one whole GPU each, running 100 s, created at `at_s`.
std::string GpuPods(int count, double at_s = 0) {
  return R"({"p": {"kind": "Pod", "count": )" + std::to_string(count) + R"(, "at_s": )" +
         std::to_string(at_s) +
         R"(, "template": {"job_class": "run", "resources": {"nvidia.com/gpu": 1}}}})";
}

using Run = test::TextRun;

Run RunText(const std::string& text) { return test::RunFirstVariant(text); }

double Hours(const Run& run, uint32_t node) { return NodeGroupsOf(*run.engine).BilledNodeHours(NodeId(node)); }

}  // namespace

TEST_CASE(
    "a pending pod makes the autoscaler launch a node at its next scan, and the pod binds "
    "once the node is Ready after its provisioning delay",
    "[engine][autoscaling]") {
  const Run run = RunText(Doc(R"({"max": 3, "provisioning_s": 60})", GpuPods(2)));
  const Engine& e = *run.engine;
  REQUIRE(e.pods().size() == 2);
  // Scan at 10 s: two pods of one GPU need two nodes; Ready at 70 s.
  for (const Pod& pod : e.pods()) {
    CHECK(pod.bound.seconds() == 70);
    CHECK(pod.phase == PodPhase::kSucceeded);
  }
  CHECK(e.nodes()[0].name == "g-0");
  CHECK(NodeGroupsOf(e).counters()[0].scale_ups == 1);
  CHECK(NodeGroupsOf(e).counters()[0].nodes_launched == 2);
  CHECK(Hours(run, 2) == 0);  // never launched
}

TEST_CASE(
    "an empty node is terminated once unneeded for scale-down-unneeded-time after the "
    "delay after a scale-up, and is billed from its launch to then",
    "[engine][autoscaling]") {
  const Run run = RunText(Doc(R"({"max": 1, "provisioning_s": 60})", GpuPods(1)));
  const Engine& e = *run.engine;
  // Launched at 10 s, Ready at 70 s, the pod ends at 170 s. The node is unneeded from the
  // scan at 170 s; 600 s later (770 s, also past the delay after add, 610 s) it goes.
  CHECK(e.pods()[0].ended.seconds() == 170);
  CHECK(NodeGroupsOf(e).counters()[0].nodes_terminated == 1);
  CHECK(Hours(run, 0) == Approx((770.0 - 10) / 3600));
  CHECK_FALSE(e.nodes()[0].schedulable);
}

TEST_CASE("a node group never shrinks below its min nor grows beyond its max",
          "[engine][autoscaling]") {
  const Run run = RunText(Doc(R"({"min": 1, "max": 2, "provisioning_s": 60})", GpuPods(3)));
  const Engine& e = *run.engine;
  // One node from the start (min): one pod binds at 0 s, two more nodes would be needed but
  // only one may launch.
  CHECK(e.pods()[0].bound.seconds() == 0);
  CHECK(e.pods()[1].bound.seconds() == 70);
  CHECK(e.pods()[2].bound.seconds() == 100);  // after the first pod's end, on g-0
  CHECK(NodeGroupsOf(e).counters()[0].nodes_launched == 1);
  CHECK(NodeGroupsOf(e).counters()[0].nodes_terminated == 1);  // back to min
  CHECK(e.nodes()[0].schedulable);
}

TEST_CASE(
    "a node that would not be Ready within max-node-provision-time is given up and its "
    "group backed off",
    "[engine][autoscaling]") {
  const Run run =
      RunText(Doc(R"({"max": 1, "provisioning_s": 1200})", GpuPods(1), R"("horizon_s": 2000,)"));
  const Engine& e = *run.engine;
  // Launched at 10 s, given up at 910 s, backed off 300 s, launched again at 1210 s (to be
  // given up at 2110 s, after the horizon).
  CHECK(NodeGroupsOf(e).counters()[0].provision_failures == 1);
  CHECK(NodeGroupsOf(e).counters()[0].nodes_launched == 2);
  CHECK(e.pods()[0].phase == PodPhase::kPending);
  CHECK(Hours(run, 0) == Approx((900.0 + 790) / 3600));
}

TEST_CASE("the price expander grows the cheaper group and the priority expander the preferred",
          "[engine][autoscaling]") {
  const auto text = [](const std::string& expander) {
    return R"({"name": "t", "description": "d",
      "cluster": {"autoscaler": {"expander": ")" + expander + R"("},
        "nodes": {
          "big": {"type": "p3.8xlarge", "autoscaling": {"max": 2, "priority": 10}},
          "small": {"type": "p3.2xlarge", "autoscaling": {"max": 2}}}},
      "job_classes": {"run": {"run_s": 100}},
      "workloads": {"p": {"kind": "Pod", "template": {"job_class": "run",
                    "resources": {"nvidia.com/gpu": 1}}}}})";
  };
  // One pod of one GPU: a p3.2xlarge ($3.06/h) or a p3.8xlarge ($12.24/h).
  const Run price = RunText(text("price"));
  CHECK(NodeGroupsOf(*price.engine).counters()[0].nodes_launched == 0);
  CHECK(NodeGroupsOf(*price.engine).counters()[1].nodes_launched == 1);
  const Run priority = RunText(text("priority"));
  CHECK(NodeGroupsOf(*priority.engine).counters()[0].nodes_launched == 1);
  CHECK(NodeGroupsOf(*priority.engine).counters()[1].nodes_launched == 0);
}

TEST_CASE("a node running a bare pod is not scaled down, one running a Job's pod is",
          "[engine][autoscaling]") {
  const std::string forever_pod =
      R"({"p": {"kind": "Pod", "template": {"job_class": "long", "resources": {"cpu": "1"}}},
          "j": {"kind": "Job", "completions": 1, "template": {"job_class": "run",
                "resources": {"nvidia.com/gpu": 1}}}})";
  // The bare pod (CPU only) lands on the node the Job's pod brought; both fit one node.
  // Without the bare pod, the node would go 600 s after the Job's pod ends.
  const Run run = RunText(Doc(R"({"max": 2, "provisioning_s": 60})", forever_pod,
                              R"("horizon_s": 5000,)"));
  CHECK(NodeGroupsOf(*run.engine).counters()[0].nodes_terminated == 0);
  CHECK(Hours(run, 0) == Approx((5000.0 - 10) / 3600));
}

namespace {

// A fixed p3.8xlarge "f" (4 GPUs) and a group "g" of p3.8xlarge (0 to 2, Ready 60 s after
// launch); a Job's pod holds one of f's GPUs for 300 s; a Deployment of 4 one-GPU replicas
// (labelled app: web) takes f's other three and one on a launched node.
std::string Spill(const std::string& extra = "") {
  return R"({"name": "t", "description": "d", "horizon_s": 3000, )" + extra + R"(
    "cluster": {"nodes": {
      "f": {"type": "p3.8xlarge"},
      "g": {"type": "p3.8xlarge", "autoscaling": {"max": 2, "provisioning_s": 60}}}},
    "job_classes": {"run": {"run_s": 300}},
    "workloads": {
      "j": {"kind": "Job", "template": {"job_class": "run", "resources": {"nvidia.com/gpu": 1}}},
      "d": {"kind": "Deployment", "replicas": 4,
            "template": {"labels": {"app": "web"}, "resources": {"nvidia.com/gpu": 1}}}}})";
}

}  // namespace

TEST_CASE(
    "an underused node whose pods fit elsewhere is drained: its pod is evicted, recreated "
    "on the fixed node, and the node terminated once empty",
    "[engine][autoscaling]") {
  const Run run = RunText(Spill());
  const Engine& e = *run.engine;
  // g-0 (node 1) launched at 10 s, Ready at 70 s. The Job's pod ends at 300 s: g-0 (1 of 4
  // GPUs, under 0.5) is unneeded from the scan at 300 s, due at 900 s; its replica is
  // evicted (30 s grace) and ends at 930 s, when its replacement binds on f and the drain's
  // tick (every 5 s from 900 s) finds g-0 empty and terminates it.
  CHECK(NodeGroupsOf(e).counters()[0].nodes_terminated == 1);
  CHECK(e.counters().killed[static_cast<size_t>(EndReason::kEvicted)] == 1);
  int on_f = 0;
  for (const Pod& pod : e.pods()) {
    if (pod.phase == PodPhase::kRunning && e.nodes()[pod.node.value()].name == "f-0") ++on_f;
  }
  CHECK(on_f == 4);
  CHECK(Hours(run, 1) == Approx((930.0 - 10) / 3600));
}

TEST_CASE("a PodDisruptionBudget that allows no eviction keeps its pod's node up",
          "[engine][autoscaling]") {
  const Run run = RunText(Spill(R"("pod_disruption_budgets": {
      "web": {"selector": {"matchLabels": {"app": "web"}}, "maxUnavailable": 0}},)"));
  CHECK(NodeGroupsOf(*run.engine).counters()[0].nodes_terminated == 0);
  CHECK(Hours(run, 1) == Approx((3000.0 - 10) / 3600));
}

TEST_CASE(
    "a pod annotated safe-to-evict false keeps its node from scale-down, and Karpenter's "
    "do-not-disrupt keeps it from consolidation",
    "[engine][autoscaling]") {
  const auto annotated = [](const std::string& annotations, bool karpenter) {
    std::string text = Spill();
    const std::string labels = R"("labels": {"app": "web"})";
    text.replace(text.find(labels), labels.size(),
                 labels + R"(, "annotations": )" + annotations);
    const std::string cluster = R"("cluster": {)";
    if (karpenter) text.replace(text.find(cluster), cluster.size(), cluster + R"("karpenter": {}, )");
    return text;
  };
  const std::string safe = R"({"cluster-autoscaler.kubernetes.io/safe-to-evict": "false"})";
  const std::string keep = R"({"karpenter.sh/do-not-disrupt": "true"})";
  const Run ca = RunText(annotated(safe, false));
  CHECK(NodeGroupsOf(*ca.engine).counters()[0].nodes_terminated == 0);
  CHECK(Hours(ca, 1) == Approx((3000.0 - 10) / 3600));
  // The other provisioner's annotation does nothing.
  CHECK(NodeGroupsOf(*RunText(annotated(keep, false)).engine).counters()[0].nodes_terminated == 1);
  const Run karpenter = RunText(annotated(keep, true));
  CHECK(NodeGroupsOf(*karpenter.engine).counters()[0].nodes_terminated == 0);
  CHECK(NodeGroupsOf(*RunText(annotated(safe, true)).engine).counters()[0].nodes_terminated == 1);
}

TEST_CASE("nodes of a pool without autoscaling are billed for the whole run",
          "[engine][autoscaling]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("n0", "p3.2xlarge"));
  s.horizon = test::Sec(7200);
  FirstFitPolicy policy;
  auto engine = test::RunEngine(s, policy);
  CHECK(NodeGroupsOf(*engine).BilledNodeHours(NodeId(0)) == Approx(2.0));
}

}  // namespace migsim

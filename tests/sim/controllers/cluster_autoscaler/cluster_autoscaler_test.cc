// The Cluster Autoscaler alone, against a fake ClusterApi: when its scan runs, which group
// a scale-up grows, when it may still act, and which nodes scale-down removes, and when.
#include "sim/controllers/cluster_autoscaler/cluster_autoscaler.h"

#include <catch2/catch.hpp>
#include <span>
#include <string>
#include <vector>

#include "tests/support/fake_cluster_api.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::FakeClusterApi;
using test::GpuPodKind;
using test::Sec;
using Calls = std::vector<std::string>;

// Group 0: nodes 0-1, p3.8xlarge (4 V100), $12.24/h; group 1: nodes 2-3, p4d.24xlarge
// (8 A100, MIG off), $32.77/h. Both from 0 to 2 nodes, none at the start, Ready 300 s after
// a launch; the expander picks by price.
ClusterSpec TwoGroups() {
  ClusterSpec cluster;
  cluster.node_groups.push_back({.pool = test::AddPool(cluster, "v100", "p3.8xlarge", 2),
                                 .max = 2,
                                 .price_per_hour = 12.24});
  cluster.node_groups.push_back({.pool = test::AddPool(cluster, "a100", "p4d.24xlarge", 2),
                                 .max = 2,
                                 .price_per_hour = 32.77});
  cluster.autoscaler.expander = Expander::kPrice;
  return cluster;
}

}  // namespace

TEST_CASE("the Cluster Autoscaler scans every scan interval, after that instant's scheduling cycle") {
  const ClusterSpec cluster = TwoGroups();
  FakeClusterApi api(cluster);
  const GpuPodKind pods(api, 1);
  ClusterAutoscaler autoscaler(cluster.autoscaler);
  autoscaler.Start(api);
  REQUIRE(api.timers().size() == 1);
  CHECK(api.timers()[0].at == Sec(10));
  CHECK(api.timers()[0].kind == TimerKind::kIdle);  // it does not keep a run going itself
  api.calls.clear();
  api.unschedulable = {pods.Pending(8)};
  autoscaler.AfterCycle(api);  // no scan due
  CHECK(api.calls.empty());
  CHECK(api.RunTimers(autoscaler) == 1);
  CHECK(api.calls.empty());  // the timer only marks the scan due
  autoscaler.AfterCycle(api);
  // Two p3.8xlarge ($3.06 per pod) rather than one p4d.24xlarge ($4.10 per pod).
  CHECK(api.calls == Calls{"ReportNodeScaled node 0 group 0 launched",
                           "ReportNodeScaled node 1 group 0 launched"});
  CHECK(autoscaler.counters()[0].scale_ups == 1);
  CHECK(autoscaler.counters()[0].nodes_launched == 2);
  REQUIRE(api.timers().size() == 3);
  CHECK(api.timers()[0].at == Sec(310));  // Ready
  CHECK(api.timers()[2].at == Sec(20));   // the next scan
  CHECK(api.timers()[2].kind == TimerKind::kIdle);
  // The nodes launching will hold the pods: the next scan asks for nothing more.
  api.calls.clear();
  CHECK(api.RunInstants(autoscaler, Sec(20)) == 1);
  CHECK(api.calls.empty());
  CHECK(autoscaler.counters()[1].nodes_launched == 0);
}

TEST_CASE("a scale-up grows the node group the priority expander prefers") {
  ClusterSpec cluster = TwoGroups();
  cluster.autoscaler.expander = Expander::kPriority;
  cluster.node_groups[1].priority = 10;
  FakeClusterApi api(cluster);
  const GpuPodKind pods(api, 1);
  ClusterAutoscaler autoscaler(cluster.autoscaler);
  autoscaler.Start(api);
  api.calls.clear();
  api.unschedulable = {pods.Pending(8)};
  CHECK(api.RunInstants(autoscaler, Sec(10)) == 1);
  CHECK(api.calls == Calls{"ReportNodeScaled node 2 group 1 launched"});
  CHECK(autoscaler.counters()[1].scale_ups == 1);
  CHECK(autoscaler.counters()[0].scale_ups == 0);
}

TEST_CASE("the Cluster Autoscaler may act only with pods a group could hold, a launch or drain under way, or an unneeded node") {
  ClusterSpec cluster = TwoGroups();
  cluster.node_groups[0].min = 1;  // its one node is needed
  cluster.node_groups[0].initial = 1;
  cluster.node_groups[1].provisioning = Sec(1000);  // beyond --max-node-provision-time
  FakeClusterApi api(cluster);
  const GpuPodKind one_gpu(api, 1);
  const GpuPodKind eight_gpus(api, 8);   // only a p4d.24xlarge holds one
  const GpuPodKind sixteen_gpus(api, 16);  // no node holds one
  ClusterAutoscaler autoscaler(cluster.autoscaler);
  autoscaler.Start(api);
  CHECK_FALSE(autoscaler.MayAct(api));
  SECTION("pods a group could hold") {
    api.unschedulable = {one_gpu.Pending(1)};
    CHECK(autoscaler.MayAct(api));
    // ... until the scan launched a node for them, which then keeps it acting.
    api.RunInstants(autoscaler, Sec(10));
    CHECK(autoscaler.counters()[0].nodes_launched == 1);
    CHECK(autoscaler.MayAct(api));
  }
  SECTION("pods no node could hold") {
    api.unschedulable = {sixteen_gpus.Pending(1)};
    CHECK_FALSE(autoscaler.MayAct(api));
  }
  SECTION("pods only a group whose nodes never register in time could hold") {
    api.unschedulable = {eight_gpus.Pending(1)};
    CHECK_FALSE(autoscaler.MayAct(api));  // without a horizon the run would never end
    api.run_horizon = Sec(3600);
    CHECK(autoscaler.MayAct(api));
  }
}

TEST_CASE("a node under the utilization threshold whose pods can move goes after the unneeded time, at once if empty, else drained") {
  ClusterSpec cluster = TwoGroups();
  cluster.node_groups[0].initial = 2;
  FakeClusterApi api(cluster);
  api.templates.emplace_back();
  api.BindPod(NodeId(1), TemplateId(0));
  ClusterAutoscaler autoscaler(cluster.autoscaler);
  autoscaler.Start(api);
  CHECK(autoscaler.MayAct(api));
  api.calls.clear();
  // Unneeded from the first scan, at 10 s: due 600 s later.
  CHECK(api.RunInstants(autoscaler, Sec(600)) == 60);
  CHECK(api.calls.empty());
  CHECK(api.RunInstants(autoscaler, Sec(610)) == 1);
  CHECK(api.calls == Calls{"TerminateInstance node 0 group 0",
                           "AnnounceNodeChange node 0 terminated", "Cordon node 1",
                           "ReportNodeScaled node 1 group 0 drain-started",
                           "EvictPods node 1 grace 600 s"});
  CHECK(autoscaler.counters()[0].nodes_terminated == 1);
}

TEST_CASE("a pod not safe to evict, a bare pod or a pod with nowhere to go keeps its node") {
  ClusterSpec cluster = TwoGroups();
  cluster.node_groups[0].initial = 1;
  FakeClusterApi api(cluster);
  const GpuPodKind pods(api, 1);
  api.templates.emplace_back();
  api.BindPod(NodeId(0), TemplateId(0), OwnerId(3));
  bool kept = true;
  SECTION("a pod that may move: the node is drained") { kept = false; }
  SECTION("cluster-autoscaler.kubernetes.io/safe-to-evict: false") {
    api.templates[0].safe_to_evict = false;
  }
  SECTION("a bare pod, which nothing recreates") { api.bare_pod_owners = {OwnerId(3)}; }
  SECTION("a pod no other node holds") {
    api.cannot_move = [&](std::span<const uint32_t> leaving, std::span<const uint8_t> held) {
      CHECK(std::vector<uint32_t>(leaving.begin(), leaving.end()) == std::vector<uint32_t>{0});
      CHECK(held.empty());
      return std::vector<PendingPods>{pods.Pending(1)};
    };
  }
  SECTION("no node under a utilization threshold of 0") {
    cluster.autoscaler.utilization_threshold = 0;
  }
  ClusterAutoscaler autoscaler(cluster.autoscaler);
  autoscaler.Start(api);
  api.calls.clear();
  CHECK(autoscaler.MayAct(api) == !kept);
  api.RunInstants(autoscaler, Sec(610));  // unneeded from 10 s: due at 610 s
  if (kept) {
    CHECK(api.calls.empty());
  } else {
    CHECK(api.calls == Calls{"Cordon node 0", "ReportNodeScaled node 0 group 0 drain-started",
                             "EvictPods node 0 grace 600 s"});
  }
}

TEST_CASE("the delay after a scale-up holds scale-down until it passes") {
  ClusterSpec cluster = TwoGroups();
  cluster.node_groups[0].initial = 1;  // empty: unneeded from 10 s, due at 610 s
  cluster.autoscaler.delay_after_add = Sec(1200);
  FakeClusterApi api(cluster);
  const GpuPodKind eight_gpus(api, 8);  // only group 1 holds one
  ClusterAutoscaler autoscaler(cluster.autoscaler);
  autoscaler.Start(api);
  api.calls.clear();
  api.unschedulable = {eight_gpus.Pending(1)};
  api.RunInstants(autoscaler, Sec(10));
  CHECK(api.calls == Calls{"ReportNodeScaled node 2 group 1 launched"});
  api.unschedulable.clear();
  api.calls.clear();
  api.RunInstants(autoscaler, Sec(1200));
  CHECK(api.calls == Calls{"RegisterNode node 2 group 1", "AnnounceNodeChange node 2 ready"});
  api.calls.clear();
  // At 10 s + 1200 s both empty nodes go (the new one unneeded since it was Ready at 310 s).
  api.RunInstants(autoscaler, Sec(1210));
  CHECK(api.calls == Calls{"TerminateInstance node 0 group 0",
                           "AnnounceNodeChange node 0 terminated",
                           "TerminateInstance node 2 group 1",
                           "AnnounceNodeChange node 2 terminated"});
}

}  // namespace migsim

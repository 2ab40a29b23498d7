// Karpenter alone, against a fake ClusterApi: when the provisioning batch closes and which
// NodeClaims it launches, and which nodes disruption deletes or replaces, and when.
#include "sim/controllers/karpenter/karpenter.h"

#include <algorithm>
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

// Karpenter's offerings: group 0, nodes 0-2, p3.8xlarge (4 V100) at $12.24/h, with `big`
// nodes at the start; group 1, nodes 3-5, p3.2xlarge (1 V100) at $3.06/h, none at the
// start. Ready 60 s after a launch.
ClusterSpec BigAndSmall(uint32_t big) {
  ClusterSpec cluster;
  cluster.provisioner = Provisioner::kKarpenter;
  cluster.node_groups.push_back({.pool = test::AddPool(cluster, "big", "p3.8xlarge", 3),
                                 .max = 3,
                                 .initial = big,
                                 .price_per_hour = 12.24,
                                 .provisioning = Sec(60)});
  cluster.node_groups.push_back({.pool = test::AddPool(cluster, "small", "p3.2xlarge", 3),
                                 .max = 3,
                                 .price_per_hour = 3.06,
                                 .provisioning = Sec(60)});
  return cluster;
}

}  // namespace

TEST_CASE("Karpenter's batch closes a batch_idle after its last change, or a batch_max after it opened, and launches each NodeClaim") {
  const ClusterSpec cluster = BigAndSmall(0);
  FakeClusterApi api(cluster);
  const GpuPodKind pods(api, 1);
  Karpenter karpenter(cluster.karpenter);
  karpenter.Start(api);
  REQUIRE(api.timers().size() == 1);
  CHECK(api.timers()[0].at == Sec(1));
  CHECK(api.timers()[0].kind == TimerKind::kIdle);
  api.calls.clear();
  SECTION("a batch that changes once") {
    api.unschedulable = {pods.Pending(4)};
    CHECK(api.RunInstants(karpenter, Sec(1)) == 1);  // the batch opens
    api.unschedulable = {pods.Pending(5)};
    CHECK(api.RunInstants(karpenter, Sec(2)) == 1);  // and changes: the wait starts again
    CHECK(api.calls.empty());
    CHECK(api.RunInstants(karpenter, Sec(3)) == 1);
    // Four pods fill a claim only a p3.8xlarge holds; the fifth's is the cheaper p3.2xlarge.
    // Each claim is a scale-up of its own.
    CHECK(api.calls == Calls{"ReportNodeScaled node 0 group 0 launched",
                             "ReportNodeScaled node 3 group 1 launched"});
    CHECK(karpenter.counters()[0].scale_ups == 1);
    CHECK(karpenter.counters()[1].scale_ups == 1);
    // The claims launching will hold the pods: no new batch.
    api.calls.clear();
    CHECK(api.RunInstants(karpenter, Sec(10)) == 7);
    CHECK(api.calls.empty());
  }
  SECTION("a batch that changes every second") {
    for (int second = 1; second <= 20 && api.calls.empty(); ++second) {
      api.unschedulable = {pods.Pending(second % 2 == 0 ? 2 : 1)};
      api.RunInstants(karpenter, Sec(second));
    }
    CHECK(api.now() == Sec(11));  // opened at 1 s
    CHECK(api.calls == Calls{"ReportNodeScaled node 3 group 1 launched"});
  }
}

TEST_CASE("Karpenter deletes an empty node 15 s after the poll that chose it unless a pod came meanwhile") {
  ClusterSpec cluster = BigAndSmall(1);
  cluster.karpenter.consolidation_policy = ConsolidationPolicy::kWhenEmpty;
  FakeClusterApi api(cluster);
  api.templates.emplace_back();
  Karpenter karpenter(cluster.karpenter);
  karpenter.Start(api);
  api.calls.clear();
  CHECK(api.RunInstants(karpenter, Sec(10)) == 10);  // chosen at the poll at 1 s
  SECTION("still empty") {
    CHECK(api.RunInstants(karpenter, Sec(15)) == 5);
    CHECK(api.calls.empty());
    CHECK(api.RunInstants(karpenter, Sec(16)) == 1);
    CHECK(api.calls ==
          Calls{"TerminateInstance node 0 group 0", "AnnounceNodeChange node 0 terminated"});
    CHECK(karpenter.counters()[0].nodes_terminated == 1);
  }
  SECTION("a pod bound at 10 s") {
    api.BindPod(NodeId(0), TemplateId(0));
    api.changed_at[0] = Sec(10);
    api.RunInstants(karpenter, Sec(300));
    CHECK(api.calls.empty());
  }
}

TEST_CASE("Karpenter's disruption budgets cap the empty nodes deleted at once") {
  ClusterSpec cluster = BigAndSmall(3);
  cluster.karpenter.consolidation_policy = ConsolidationPolicy::kWhenEmpty;
  std::vector<uint32_t> first, second;  // the nodes deleted at 16 s and at 36 s
  SECTION("the default, 10 % of the nodes rounded up") {
    first = {0};
    second = {1};  // chosen at the poll at 21 s
  }
  SECTION("two nodes") {
    cluster.karpenter.budgets = {{.nodes = 2, .percent = false}};
    first = {0, 1};
    second = {2};
  }
  SECTION("none for underutilized nodes, which leaves empty ones free") {
    cluster.karpenter.budgets = {
        {.nodes = 0, .percent = false,
         .reasons_mask = static_cast<uint8_t>(DisruptionReason::kUnderutilized)}};
    first = {0, 1, 2};
  }
  FakeClusterApi api(cluster);
  Karpenter karpenter(cluster.karpenter);
  karpenter.Start(api);
  const auto terminations = [&](const std::vector<uint32_t>& nodes) {
    Calls calls;
    for (uint32_t n : nodes) {
      calls.push_back("TerminateInstance node " + std::to_string(n) + " group 0");
      calls.push_back("AnnounceNodeChange node " + std::to_string(n) + " terminated");
    }
    return calls;
  };
  api.calls.clear();
  api.RunInstants(karpenter, Sec(16));
  CHECK(api.calls == terminations(first));
  api.calls.clear();
  api.RunInstants(karpenter, Sec(36));
  CHECK(api.calls == terminations(second));
}

TEST_CASE("karpenter.sh/do-not-disrupt keeps a node from consolidation") {
  ClusterSpec cluster = BigAndSmall(2);
  FakeClusterApi api(cluster);
  api.templates.resize(2);
  api.templates[1].do_not_disrupt = true;
  uint32_t drained = 0;
  SECTION("no pod annotated: the first of the equal candidates goes") {
    api.BindPod(NodeId(0), TemplateId(0));
    api.BindPod(NodeId(1), TemplateId(0));
  }
  SECTION("node 0's pod annotated") {
    api.BindPod(NodeId(0), TemplateId(1));
    api.BindPod(NodeId(1), TemplateId(0));
    drained = 1;
  }
  Karpenter karpenter(cluster.karpenter);
  karpenter.Start(api);
  api.calls.clear();
  // Every pod fits elsewhere (the fake's default): deleted, through a drain.
  api.RunInstants(karpenter, Sec(15));
  CHECK(api.calls.empty());
  api.RunInstants(karpenter, Sec(16));
  const std::string node = "node " + std::to_string(drained);
  CHECK(api.calls == Calls{"Cordon " + node, "ReportNodeScaled " + node + " group 0 drain-started",
                           "EvictPods " + node + " grace 600 s"});
}

TEST_CASE("a replaced node stays cordoned until its replacement is Ready, then drains, and is back in service if the replacement never registers") {
  ClusterSpec cluster = BigAndSmall(1);
  bool registers = true;
  SECTION("the replacement registers") {}
  SECTION("the replacement never registers") {
    cluster.node_groups[1].provisioning = Sec(1000);  // beyond the 900 s registration TTL
    registers = false;
  }
  FakeClusterApi api(cluster);
  const GpuPodKind pods(api, 1);
  api.templates.emplace_back();
  api.BindPod(NodeId(0), TemplateId(0));
  // Node 0's pod fits no other node: only a new one holds it, and a p3.2xlarge is cheaper.
  api.cannot_move = [&](std::span<const uint32_t> leaving, std::span<const uint8_t> /*held*/) {
    return std::find(leaving.begin(), leaving.end(), 0u) != leaving.end()
               ? std::vector<PendingPods>{pods.Pending(1)}
               : std::vector<PendingPods>{};
  };
  Karpenter karpenter(cluster.karpenter);
  karpenter.Start(api);
  api.calls.clear();
  api.RunInstants(karpenter, Sec(16));
  CHECK(api.calls == Calls{"ReportNodeScaled node 3 group 1 launched", "Cordon node 0"});
  CHECK(karpenter.counters()[1].scale_ups == 1);
  CHECK_FALSE(api.nodes()[0].schedulable);
  api.calls.clear();
  if (registers) {
    api.RunInstants(karpenter, Sec(76));
    CHECK(api.calls == Calls{"RegisterNode node 3 group 1", "AnnounceNodeChange node 3 ready",
                             "Uncordon node 0", "Cordon node 0",
                             "ReportNodeScaled node 0 group 0 drain-started",
                             "EvictPods node 0 grace 600 s"});
    api.node_info(NodeId(0)).pods.clear();  // the evicted pod ended
    api.calls.clear();
    api.RunInstants(karpenter, Sec(81));
    CHECK(api.calls == Calls{"EvictPods node 0 grace 600 s", "TerminateInstance node 0 group 0",
                             "AnnounceNodeChange node 0 terminated", "Uncordon node 0"});
  } else {
    api.RunInstants(karpenter, Sec(916));
    CHECK(api.calls == Calls{"ReportNodeScaled node 3 group 1 terminated", "Uncordon node 0"});
    CHECK(api.nodes()[0].schedulable);
    CHECK(karpenter.counters()[1].provision_failures == 1);
  }
}

}  // namespace migsim

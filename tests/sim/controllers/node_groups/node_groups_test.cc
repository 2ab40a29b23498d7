// The node groups' controller alone, against a fake ClusterApi: which nodes run at the
// start, billing, launches that register or are given up, spot reclaims, drains, and what
// it asks of the engine's node mechanism. A provisioner is stood in for by a test subclass
// that calls the protected verbs and records the hooks it hears.
#include "sim/controllers/node_groups/node_groups.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/fake_cluster_api.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::FakeClusterApi;
using test::Sec;
using Calls = std::vector<std::string>;

// A provisioner that decides nothing: the test launches, drains and terminates, and each
// hook is recorded in the fake's call log where it came ("hook ready node 2").
class TestProvisioner final : public NodeGroups {
 public:
  TestProvisioner(FakeClusterApi& api, SimTime limit = Sec(900), SimTime backoff = Sec(300))
      : NodeGroups(limit, backoff), log_(&api.calls) {}
  using NodeGroups::draining;
  using NodeGroups::Launch;
  using NodeGroups::Offerings;
  using NodeGroups::StartDrain;
  using NodeGroups::State;
  using NodeGroups::state;

 private:
  void NodeBecameReady(ClusterApi& /*api*/, uint32_t node) override { Hear("ready", node); }
  void LaunchFailed(ClusterApi& /*api*/, uint32_t node) override { Hear("launch-failed", node); }
  void BeforeReclaim(ClusterApi& /*api*/, uint32_t node) override { Hear("before-reclaim", node); }
  void NodeTerminated(ClusterApi& /*api*/, uint32_t node) override { Hear("terminated", node); }
  void DrainAborted(ClusterApi& /*api*/, uint32_t node) override { Hear("drain-aborted", node); }
  void Hear(const std::string& what, uint32_t node) {
    log_->push_back("hook " + what + " node " + std::to_string(node));
  }
  std::vector<std::string>* log_;
};

// Node 0 is a fixed p3.8xlarge; nodes 1-3 are group 0 (p3.8xlarge, max 3, one initial node,
// Ready `provisioning` after a launch).
ClusterSpec FixedAndGroup(SimTime provisioning = Sec(300)) {
  ClusterSpec cluster;
  test::AddPool(cluster, "fixed", "p3.8xlarge", 1);
  cluster.node_groups.push_back({.pool = test::AddPool(cluster, "v100", "p3.8xlarge", 3),
                                 .max = 3,
                                 .initial = 1,
                                 .price_per_hour = 12.24,
                                 .provisioning = provisioning});
  return cluster;
}

// FixedAndGroup(provisioning) and a provisioner started on it (the call log cleared), with
// a pod template for the test to bind pods of.
struct World {
  ClusterSpec cluster;
  FakeClusterApi api{cluster};
  TestProvisioner groups;
  explicit World(SimTime provisioning = Sec(300), SimTime limit = Sec(900))
      : cluster(FixedAndGroup(provisioning)), groups(api, limit) {
    api.templates.emplace_back();
    groups.Start(api);
    api.calls.clear();
  }
};

}  // namespace

TEST_CASE("at the start the node groups announce a group's initial nodes and set the rest absent") {
  const ClusterSpec cluster = FixedAndGroup();
  FakeClusterApi api(cluster);
  NodeGroups groups;
  groups.Start(api);
  CHECK(api.calls == Calls{"AnnounceNodeChange node 1 started", "SetNodeAbsent node 2",
                           "SetNodeAbsent node 3"});
  CHECK(api.timers().empty());
  CHECK_FALSE(api.nodes()[2].schedulable);
  for (uint32_t node = 0; node < 4; ++node) CHECK(groups.Instance(NodeId(node)) == 0);
  // Absent nodes are not billed; the fixed node and the initial one are, from t = 0.
  api.set_now(Sec(3600));
  groups.Finish(api);
  CHECK(groups.BilledNodeHours(NodeId(0)) == 1);
  CHECK(groups.BilledNodeHours(NodeId(1)) == 1);
  CHECK(groups.BilledNodeHours(NodeId(2)) == 0);
  CHECK(groups.BilledNodeHours(NodeId(3)) == 0);
}

TEST_CASE("without node groups the controller only bills, a removed node until its removal") {
  ClusterSpec cluster;
  test::AddPool(cluster, "fixed", "p3.8xlarge", 2);
  FakeClusterApi api(cluster);
  NodeGroups groups;
  groups.Start(api);
  CHECK(api.calls.empty());
  CHECK(api.timers().empty());
  api.set_now(Sec(1800));
  // A fixed node is not the groups' to delete: the engine removes it for good.
  CHECK_FALSE(groups.DeleteInstance(api, NodeId(1)));
  CHECK(api.calls.empty());
  api.conditions(NodeId(1)).removed = true;
  api.ChangeNode(groups, NodeId(1), NodeChange::kRemoved);
  api.set_now(Sec(7200));
  groups.Finish(api);
  CHECK(groups.BilledNodeHours(NodeId(0)) == 2);
  CHECK(groups.BilledNodeHours(NodeId(1)) == 0.5);
  CHECK(groups.counters().empty());
}

TEST_CASE("a launch is billed from its start and registers Ready after its group's provisioning delay") {
  World world;
  FakeClusterApi& api = world.api;
  TestProvisioner& groups = world.groups;
  api.set_now(Sec(100));
  CHECK(groups.Launch(api, 0) == 2);  // the group's first absent node
  CHECK(api.calls == Calls{"ReportNodeScaled node 2 group 0 launched"});
  CHECK(groups.Instance(NodeId(2)) == 1);
  CHECK(groups.state(2) == TestProvisioner::State::kProvisioning);
  REQUIRE(api.timers().size() == 1);
  CHECK(api.timers()[0].at == Sec(400));
  CHECK(api.timers()[0].kind == TimerKind::kActive);
  api.calls.clear();
  CHECK(api.RunTimers(groups) == 1);
  // Registered first, then every controller told, then the provisioner.
  CHECK(api.calls ==
        Calls{"RegisterNode node 2 group 0", "AnnounceNodeChange node 2 ready", "hook ready node 2"});
  CHECK(api.nodes()[2].schedulable);
  CHECK(groups.state(2) == TestProvisioner::State::kReady);
  CHECK(groups.counters()[0].nodes_launched == 1);
  CHECK(groups.counters()[0].scale_ups == 0);  // the provisioner counts its scale-ups
  api.set_now(Sec(1000));
  groups.Finish(api);
  CHECK(groups.BilledNodeHours(NodeId(2)) == 0.25);  // 100 s .. 1000 s
}

TEST_CASE("a launch slower than the provisioning limit is given up there and backs its group off") {
  World world(Sec(1200), Sec(900));  // slower than the limit; backed off for 300 s
  FakeClusterApi& api = world.api;
  TestProvisioner& groups = world.groups;
  CHECK(groups.Launch(api, 0) == 2);
  REQUIRE(api.timers().size() == 1);
  CHECK(api.timers()[0].at == Sec(900));
  api.calls.clear();
  CHECK(api.RunTimers(groups) == 1);
  CHECK(api.calls ==
        Calls{"ReportNodeScaled node 2 group 0 terminated", "hook launch-failed node 2"});
  CHECK(groups.state(2) == TestProvisioner::State::kAbsent);
  CHECK(api.node_conditions(NodeId(2)).absent);  // it never registered
  CHECK(groups.counters()[0].provision_failures == 1);
  CHECK(groups.counters()[0].nodes_terminated == 0);
  // Backed off for 300 s: left out of the offerings, and the caller told why.
  for (const double t : {900.0, 1199.0}) {
    api.set_now(Sec(t));
    bool backed_off = false;
    CHECK(groups.Offerings(api, false, &backed_off).empty());
    CHECK(backed_off);
  }
  api.set_now(Sec(1200));
  bool backed_off = false;
  const std::vector<Offering> offerings = groups.Offerings(api, false, &backed_off);
  CHECK_FALSE(backed_off);
  REQUIRE(offerings.size() == 1);
  CHECK(offerings[0].group == 0);
  CHECK(offerings[0].room == 2);  // the initial node runs
  CHECK(offerings[0].price_per_hour == 12.24);
  // Asked only for groups whose nodes register in time, it is left out for good.
  CHECK(groups.Offerings(api, true, &backed_off).empty());
  CHECK_FALSE(backed_off);
  groups.Finish(api);
  CHECK(groups.BilledNodeHours(NodeId(2)) == 0.25);  // from the launch to the give-up
}

TEST_CASE("a deleted group node is reclaimed and billed no more, and its slot counts its launches") {
  World world;
  FakeClusterApi& api = world.api;
  TestProvisioner& groups = world.groups;
  api.set_now(Sec(600));
  CHECK(groups.DeleteInstance(api, NodeId(1)));
  CHECK(api.calls == Calls{"hook before-reclaim node 1", "TerminateInstance node 1 group 0",
                           "AnnounceNodeChange node 1 terminated", "hook terminated node 1"});
  CHECK(groups.state(1) == TestProvisioner::State::kAbsent);
  // The slot launches again: another instance each time.
  api.set_now(Sec(700));
  CHECK(groups.Launch(api, 0) == 1);
  CHECK(groups.Instance(NodeId(1)) == 1);
  api.RunTimers(groups);
  api.set_now(Sec(1100));
  CHECK(groups.DeleteInstance(api, NodeId(1)));
  api.set_now(Sec(1200));
  CHECK(groups.Launch(api, 0) == 1);
  CHECK(groups.Instance(NodeId(1)) == 2);
  CHECK_FALSE(groups.DeleteInstance(api, NodeId(0)));  // the fixed node
  api.set_now(Sec(1500));
  groups.Finish(api);
  const NodeGroups::Counters& c = groups.counters()[0];
  CHECK(c.spot_reclaims == 2);
  CHECK(c.nodes_terminated == 2);
  CHECK(c.nodes_launched == 2);
  // 0..600, 700..1100 and 1200..1500 s.
  CHECK(groups.BilledNodeHours(NodeId(1)) == Approx(1300.0 / 3600));
}

TEST_CASE("a drain evicts every 5 s with grace capped at 600 s and terminates its node once empty") {
  World world;
  FakeClusterApi& api = world.api;
  TestProvisioner& groups = world.groups;
  api.BindPod(NodeId(1), TemplateId(0));
  api.set_now(Sec(100));
  groups.StartDrain(api, 1);
  CHECK(api.calls == Calls{"Cordon node 1", "ReportNodeScaled node 1 group 0 drain-started",
                           "EvictPods node 1 grace 600 s"});
  CHECK_FALSE(api.nodes()[1].schedulable);
  CHECK(groups.draining() == 1);
  api.calls.clear();
  CHECK(api.RunTimers(groups, Sec(105)) == 1);
  CHECK(api.calls == Calls{"EvictPods node 1 grace 600 s"});
  api.node_info(NodeId(1)).pods.clear();  // the evicted pod ended
  api.calls.clear();
  CHECK(api.RunTimers(groups) == 1);
  CHECK(api.now() == Sec(110));
  // The drain's cordon goes with the instance.
  CHECK(api.calls == Calls{"EvictPods node 1 grace 600 s", "TerminateInstance node 1 group 0",
                           "AnnounceNodeChange node 1 terminated", "Uncordon node 1",
                           "hook terminated node 1"});
  CHECK(groups.draining() == 0);
  CHECK(groups.counters()[0].nodes_terminated == 1);
  CHECK(groups.counters()[0].spot_reclaims == 0);
  groups.Finish(api);
  CHECK(groups.BilledNodeHours(NodeId(1)) == Approx(110.0 / 3600));
}

TEST_CASE("a drain whose evictions are still refused after 120 s is given up and its node uncordoned") {
  World world;
  FakeClusterApi& api = world.api;
  TestProvisioner& groups = world.groups;
  api.BindPod(NodeId(1), TemplateId(0));
  api.set_now(Sec(1000));
  const auto evictions = [&] {
    return std::count(api.calls.begin(), api.calls.end(), "EvictPods node 1 grace 600 s");
  };
  SECTION("refused by a budget") {
    api.evictions_refused = true;
    groups.StartDrain(api, 1);
    api.calls.clear();
    CHECK(api.RunTimers(groups, Sec(2000)) == 24);  // 1005 .. 1120 s
    CHECK(api.now() == Sec(1120));
    CHECK(evictions() == 24);
    CHECK(Calls(api.calls.end() - 4, api.calls.end()) ==
          Calls{"EvictPods node 1 grace 600 s", "Uncordon node 1",
                "ReportNodeScaled node 1 group 0 drain-aborted", "hook drain-aborted node 1"});
    CHECK(api.timers().empty());
    CHECK(api.nodes()[1].schedulable);
    CHECK(groups.state(1) == TestProvisioner::State::kReady);
    CHECK(groups.draining() == 0);
    CHECK(groups.counters()[0].drains_aborted == 1);
  }
  SECTION("accepted, with the pods still in their grace period") {
    groups.StartDrain(api, 1);
    api.calls.clear();
    CHECK(api.RunTimers(groups, Sec(1200)) == 40);
    CHECK(evictions() == 40);
    REQUIRE(api.timers().size() == 1);
    CHECK(api.timers()[0].at == Sec(1205));
    CHECK(groups.state(1) == TestProvisioner::State::kDraining);
    CHECK(groups.counters()[0].drains_aborted == 0);
  }
}

TEST_CASE("a timer left by an earlier launch of a node's slot is ignored") {
  World world(SimTime::Zero());  // Ready as launched
  FakeClusterApi& api = world.api;
  TestProvisioner& groups = world.groups;
  api.BindPod(NodeId(1), TemplateId(0));
  api.set_now(Sec(100));
  groups.StartDrain(api, 1);  // its next eviction at 105 s
  api.set_now(Sec(101));
  CHECK(groups.DeleteInstance(api, NodeId(1)));  // reclaimed while draining
  api.set_now(Sec(102));
  CHECK(groups.Launch(api, 0) == 1);
  CHECK(api.RunTimers(groups, Sec(102)) == 1);  // Ready
  api.BindPod(NodeId(1), TemplateId(0));
  api.set_now(Sec(103));
  groups.StartDrain(api, 1);  // the new instance's next eviction at 108 s
  api.calls.clear();
  CHECK(api.RunTimers(groups, Sec(107)) == 1);  // the old instance's tick, at 105 s
  CHECK(api.calls.empty());
  CHECK(api.RunTimers(groups, Sec(108)) == 1);
  CHECK(api.calls == Calls{"EvictPods node 1 grace 600 s"});
}

}  // namespace migsim

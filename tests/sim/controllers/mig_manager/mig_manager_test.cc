// The MIG manager alone, against a fake ClusterApi: when scripted relabels and policies'
// layouts begin and end, and what it asks of the engine's MIG mechanism.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/controllers/mig_manager/mig_manager.h"
#include "tests/support/fake_cluster_api.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::FakeClusterApi;
using test::Sec;

Scenario TwoP4d() {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("a", "all-disabled"));
  s.cluster.nodes.push_back(test::P4d("b", "all-balanced"));
  return s;
}

TEST_CASE("the MIG manager sets one timer per scripted relabel, at its time") {
  Scenario s = TwoP4d();
  test::AddRelabel(s, 0, Sec(100), "all-1g.5gb", Sec(600));
  test::AddRelabel(s, 1, Sec(50), "all-1g.5gb", Sec(600));
  FakeClusterApi api(s.cluster);
  MigManager manager;
  manager.Start(api);
  REQUIRE(api.timers().size() == 2);
  CHECK(api.timers()[0].at == Sec(100));
  CHECK(api.timers()[1].at == Sec(50));
  CHECK(api.timers()[0].kind == TimerKind::kActive);
  CHECK(api.calls.empty());
}

TEST_CASE("a relabel withdraws the node's devices for its window, then applies the config") {
  Scenario s = TwoP4d();
  test::AddRelabel(s, 0, Sec(100), "all-1g.5gb", Sec(600));
  FakeClusterApi api(s.cluster);
  MigManager manager;
  manager.Start(api);
  CHECK(api.RunTimers(manager, Sec(100)) == 1);
  CHECK(api.calls == std::vector<std::string>{"BeginMigChange node 0 all-1g.5gb 600 s"});
  CHECK(api.node_runtime(NodeId(0)).reconfiguring());
  CHECK(api.RunTimers(manager) == 1);
  CHECK(api.now() == Sec(700));
  CHECK(api.calls.back() == "FinishMigChange node 0 all-1g.5gb");
  CHECK_FALSE(api.node_runtime(NodeId(0)).reconfiguring());
  CHECK(api.node_runtime(NodeId(0)).gpus()[0] == test::Resolve("p4d.24xlarge", "all-1g.5gb"));
}

TEST_CASE("a relabel to the config in place succeeds at once, without a window") {
  Scenario s = TwoP4d();
  test::AddRelabel(s, 1, Sec(100), "all-balanced", Sec(600));
  FakeClusterApi api(s.cluster);
  MigManager manager;
  manager.Start(api);
  CHECK(api.RunTimers(manager) == 2);
  CHECK(api.now() == Sec(100));
  CHECK(api.calls == std::vector<std::string>{"FinishMigChange node 1 all-balanced"});
}

TEST_CASE("a policy's layout is applied as the custom config after the node's MIG window") {
  Scenario s = TwoP4d();
  s.cluster.nodes[1].mig_reconfiguration = Sec(45);
  FakeClusterApi api(s.cluster);
  MigManager manager;
  manager.Start(api);
  api.set_now(Sec(10));
  std::vector<GpuMigSetting> target = api.node_runtime(NodeId(1)).gpus();
  target[0] = test::Resolve("p4d.24xlarge", "all-1g.5gb");
  manager.RequestLayout(api, NodeId(1), target);
  CHECK(api.calls == std::vector<std::string>{"BeginMigRepartition node 1 custom until 55 s"});
  CHECK(api.RunTimers(manager) == 1);
  CHECK(api.now() == Sec(55));
  CHECK(api.calls.back() == "FinishMigChange node 1 custom");
  CHECK(api.node_runtime(NodeId(1)).gpus() == target);
}

TEST_CASE("a relabel of a node under a policy's change waits for that change to end") {
  Scenario s = TwoP4d();
  s.cluster.nodes[1].mig_reconfiguration = Sec(300);
  test::AddRelabel(s, 1, Sec(100), "all-1g.5gb", Sec(600));
  FakeClusterApi api(s.cluster);
  MigManager manager;
  manager.Start(api);
  manager.RequestLayout(api, NodeId(1), api.node_runtime(NodeId(1)).gpus());
  CHECK(api.RunTimers(manager, Sec(100)) == 1);  // the relabel finds the node busy
  CHECK(api.calls.size() == 1);
  CHECK(api.RunTimers(manager, Sec(300)) == 2);  // the policy's change ends, then the relabel
  CHECK(api.calls == std::vector<std::string>{"BeginMigRepartition node 1 custom until 300 s",
                                              "FinishMigChange node 1 custom",
                                              "BeginMigChange node 1 all-1g.5gb 600 s"});
  CHECK(api.RunTimers(manager) == 1);
  CHECK(api.now() == Sec(900));
}

}  // namespace
}  // namespace migsim

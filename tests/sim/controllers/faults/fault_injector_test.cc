// The faults controller alone, against a fake ClusterApi: when scripted faults, failure
// processes, drains, spot notices and failed MIG applies act, with which random streams,
// and what they ask of the engine's node mechanism.
#include "sim/controllers/faults/fault_injector.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/controllers/make_controllers.h"
#include "tests/support/fake_cluster_api.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::FakeClusterApi;
using test::Sec;
using Calls = std::vector<std::string>;

Scenario TwoP3() {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("a", "p3.8xlarge"));  // 4 GPUs each
  s.cluster.nodes.push_back(test::GpuNode("b", "p3.8xlarge"));
  return s;
}

Fault Scripted(FaultKind kind, SimTime at, uint32_t node) {
  Fault f;
  f.kind = kind;
  f.at = at;
  f.target.nodes = {node};
  return f;
}

// Two 4-GPU nodes and `fault`.
Scenario TwoP3With(const Fault& fault) {
  Scenario s = TwoP3();
  s.cluster.faults.push_back(fault);
  return s;
}

TEST_CASE("a scripted node-lost fault makes its node NotReady at its time, Ready at its repair") {
  Fault lost = Scripted(FaultKind::kNodeLost, Sec(100), 0);
  lost.repair = Sec(900);
  const Scenario s = TwoP3With(lost);
  FakeClusterApi api(s.cluster);
  FaultInjector faults;
  faults.Start(api);
  REQUIRE(api.timers().size() == 1);
  CHECK(api.timers()[0].at == Sec(100));
  CHECK(api.calls == Calls{"RecordPoolAvailability pool 0 8/8"});
  REQUIRE(faults.pools().size() == 1);
  CHECK(faults.pools()[0].name == "cluster");
  api.calls.clear();
  CHECK(api.RunTimers(faults, Sec(100)) == 1);
  CHECK(api.calls == Calls{"RecordFault node-lost hit node 0",
                           "SetNodeNotReady node 0 toleration 300 s",
                           "RecordPoolAvailability pool 0 4/8"});
  api.calls.clear();
  CHECK(api.RunTimers(faults) == 1);
  CHECK(api.now() == Sec(1000));
  CHECK(api.calls == Calls{"SetNodeReady node 0", "RecordFault node-lost repaired node 0",
                           "RecordPoolAvailability pool 0 8/8"});
}

TEST_CASE(
    "a failure process draws each GPU's failures from its own stream, again after each repair") {
  Scenario s = TwoP3();
  FaultProcess process;
  process.name = "xid";
  process.kind = FaultKind::kGpuUnhealthy;
  process.nodes = {1};
  process.scale = Sec(1000);
  process.repair = Sec(60);
  s.cluster.fault_processes.push_back(process);
  FakeClusterApi api(s.cluster, 7);
  FaultInjector faults;
  faults.Start(api);
  // The stream is the process's own (seed 7, name "xid"): one draw per GPU, in GPU order.
  Rng stream = FaultProcessRng(7, "xid");
  std::vector<SimTime> first;
  for (int g = 0; g < 4; ++g) first.push_back(DrawTimeToFailure(process, stream));
  REQUIRE(api.timers().size() == 4);
  for (size_t g = 0; g < 4; ++g) {
    CHECK(api.timers()[g].at == first[g]);
    // Failures no work is left to suffer do not keep an endless run going.
    CHECK(api.timers()[g].kind == TimerKind::kIdleWithoutHorizon);
  }
  const auto earliest =
      static_cast<int>(std::min_element(first.begin(), first.end()) - first.begin());
  api.calls.clear();
  CHECK(api.RunTimers(faults, first[earliest]) == 1);
  const std::string gpu = "gpu " + std::to_string(earliest);
  CHECK(api.calls == Calls{"RecordFault gpu-unhealthy hit node 1 " + gpu,
                           "SetGpuHealth node 1 " + gpu + " unhealthy",
                           "RecordPoolAvailability pool 0 7/8"});
  CHECK(api.timers().back().at == first[earliest] + Sec(60));
  CHECK(api.timers().back().kind == TimerKind::kActive);
  api.calls.clear();
  CHECK(api.RunTimers(faults, first[earliest] + Sec(60)) == 1);
  CHECK(api.calls == Calls{"SetGpuHealth node 1 " + gpu + " healthy",
                           "RecordFault gpu-unhealthy repaired node 1 " + gpu,
                           "RecordPoolAvailability pool 0 8/8"});
  // The next failure of that GPU is the stream's next draw, from the repair on.
  CHECK(api.timers().back().at == first[earliest] + Sec(60) + DrawTimeToFailure(process, stream));
  CHECK(api.timers().back().kind == TimerKind::kIdleWithoutHorizon);
}

TEST_CASE("a drain evicts every 5 s until its node is empty, then uncordons after maintenance") {
  Fault drain = Scripted(FaultKind::kDrain, Sec(10), 0);
  drain.maintenance = Sec(300);
  const Scenario s = TwoP3With(drain);
  FakeClusterApi api(s.cluster);
  api.node_info(NodeId(0)).pods.push_back(BoundPod{.id = PodId(0)});
  api.evictions_refused = true;
  FaultInjector faults;
  faults.Start(api);
  api.calls.clear();
  CHECK(api.RunTimers(faults, Sec(15)) == 2);  // the hit, then the retry at 15 s
  CHECK(api.calls == Calls{"RecordFault drain hit node 0", "Cordon node 0",
                           "EvictPods node 0 grace as the pods'",
                           "RecordPoolAvailability pool 0 4/8",
                           "EvictPods node 0 grace as the pods'"});
  CHECK_FALSE(api.nodes()[0].schedulable);
  api.node_info(NodeId(0)).pods.clear();  // the evicted pod ended
  api.calls.clear();
  CHECK(api.RunTimers(faults, Sec(20)) == 1);
  CHECK(api.calls == Calls{"EvictPods node 0 grace as the pods'"});
  REQUIRE(api.timers().size() == 1);
  CHECK(api.timers()[0].at == Sec(320));
  api.calls.clear();
  CHECK(api.RunTimers(faults) == 1);
  CHECK(api.calls == Calls{"Uncordon node 0", "RecordPoolAvailability pool 0 8/8"});
  CHECK(api.nodes()[0].schedulable);
}

Scenario SpotPair() {
  Scenario s = TwoP3();
  FaultProcess spot;
  spot.name = "spot";
  spot.kind = FaultKind::kSpotInterruption;
  spot.nodes = {0};
  spot.scale = Sec(1000);
  s.cluster.fault_processes.push_back(spot);
  return s;
}

TEST_CASE("a spot notice drawn for an instance that was replaced since does nothing") {
  Scenario s = SpotPair();
  FakeClusterApi api(s.cluster);
  FaultInjector faults;
  faults.Start(api);
  CHECK(api.timers().empty());  // drawn when an instance runs
  api.ChangeNode(faults, NodeId(0), NodeChange::kStarted);
  REQUIRE(api.timers().size() == 1);
  api.instances[0] = 1;  // terminated and launched again before the notice
  api.calls.clear();
  CHECK(api.RunTimers(faults) == 1);
  CHECK(api.calls.empty());
}

TEST_CASE("a spot notice drains its instance and deletes it at the notice's end") {
  Scenario s = SpotPair();
  FakeClusterApi api(s.cluster);
  FaultInjector faults;
  faults.Start(api);
  api.ChangeNode(faults, NodeId(0), NodeChange::kStarted);
  const SimTime notice = api.timers()[0].at;
  api.calls.clear();
  CHECK(api.RunTimers(faults, notice) == 1);
  CHECK(api.calls == Calls{"RecordFault spot-interruption hit node 0", "Cordon node 0",
                           "EvictPods node 0 grace as the pods'",
                           "RecordPoolAvailability pool 0 4/8"});
  api.calls.clear();
  CHECK(api.RunTimers(faults, notice + kSpotNotice) == 25);  // 24 drain ticks, the removal
  CHECK(api.calls.back() == "DeleteNode node 0");
  CHECK(api.node_conditions(NodeId(0)).removed);
  CHECK(api.timers().empty());  // the tick due at the same time found the node gone
}

TEST_CASE("a terminated instance takes its spot notices' cordons with it") {
  Scenario s = SpotPair();
  FakeClusterApi api(s.cluster);
  FaultInjector faults;
  faults.Start(api);
  api.ChangeNode(faults, NodeId(0), NodeChange::kStarted);
  api.RunTimers(faults, api.timers()[0].at);
  CHECK(api.node_conditions(NodeId(0)).cordons == 1);
  api.conditions(NodeId(0)).absent = true;  // the autoscaler terminated it
  api.calls.clear();
  api.ChangeNode(faults, NodeId(0), NodeChange::kTerminated);
  // The terminated slot is out of the pool's provisioned GPUs, not unavailable in it.
  CHECK(api.calls == Calls{"Uncordon node 0", "RecordPoolAvailability pool 0 4/4"});
  api.calls.clear();
  api.RunTimers(faults);  // its drain ticks and removal find no instance to act on
  CHECK(api.calls.empty());
}

TEST_CASE("a failed MIG apply empties the MIG GPUs after its window and its repair restores them") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("a", "all-balanced"));
  s.cluster.nodes[0].mig_reconfiguration = Sec(45);
  Fault failed = Scripted(FaultKind::kMigReconfigureFailed, Sec(100), 0);
  failed.repair = Sec(500);
  s.cluster.faults.push_back(failed);
  FakeClusterApi api(s.cluster);
  const std::vector<GpuMigSetting> before = api.node_runtime(NodeId(0)).gpus();
  FaultInjector faults;
  faults.Start(api);
  api.calls.clear();
  CHECK(api.RunTimers(faults, Sec(145)) == 2);
  CHECK(api.calls == Calls{"RecordFault mig-reconfigure-failed hit node 0",
                           "BeginMigChange node 0 all-balanced 45 s",
                           "RecordPoolAvailability pool 0 8/8",
                           "FinishMigChange node 0 all-balanced", "SetMigConfigState node 0 failed",
                           "RecordPoolAvailability pool 0 0/8"});
  for (const GpuMigSetting& gpu : api.node_runtime(NodeId(0)).gpus()) CHECK(gpu.layout.empty());
  api.calls.clear();
  CHECK(api.RunTimers(faults) == 2);
  CHECK(api.now() == Sec(645));
  CHECK(api.calls == Calls{"BeginMigChange node 0 all-balanced 45 s",
                           "RecordFault mig-reconfigure-failed repaired node 0",
                           // The state is `pending` again while the old config is re-applied.
                           "RecordPoolAvailability pool 0 8/8",
                           "FinishMigChange node 0 all-balanced",
                           "RecordPoolAvailability pool 0 8/8"});
  CHECK(api.node_runtime(NodeId(0)).gpus() == before);
}

TEST_CASE("a failed MIG apply waits for the node's MIG change under way") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("a", "all-balanced"));
  s.cluster.faults.push_back(Scripted(FaultKind::kMigReconfigureFailed, Sec(100), 0));
  FakeClusterApi api(s.cluster);
  api.set_now(Sec(90));
  api.BeginMigChange(NodeId(0), api.node_runtime(NodeId(0)).gpus(), "all-balanced", Sec(30),
                     LossBook::kUnbooked);
  FaultInjector faults;
  faults.Start(api);
  api.calls.clear();
  CHECK(api.RunTimers(faults, Sec(100)) == 1);
  CHECK(api.calls.empty());
  REQUIRE(api.timers().size() == 1);
  CHECK(api.timers()[0].at == Sec(120));
}

TEST_CASE(
    "the faults controller is made only for a cluster with faults, between the MIG manager "
    "and the node groups") {
  Scenario s = TwoP3();
  const ClusterControllers without = MakeClusterControllers(s.cluster, std::nullopt);
  CHECK(FindController<FaultInjector>(without) == nullptr);
  FaultProcess process;
  process.name = "xid";
  process.nodes = {0};
  process.scale = Sec(60);
  s.cluster.fault_processes.push_back(process);
  const ClusterControllers with = MakeClusterControllers(s.cluster, std::nullopt);
  REQUIRE(with.size() == without.size() + 1);
  CHECK(with.front()->name() == "mig-manager");
  CHECK(FindController<FaultInjector>(with) == with[with.size() - 2].get());
  CHECK(with.back()->name() == "node-groups");
}

}  // namespace
}  // namespace migsim

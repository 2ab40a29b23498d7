#include "sim/engine/time_share.h"

#include <catch2/catch.hpp>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::RunEngine;
using test::Sec;

TEST_CASE("max-min fair shares give small demands what they ask and split the rest",
          "[engine][time_share]") {
  CHECK(MaxMinShares(std::vector<double>{1, 1}) == std::vector<double>{0.5, 0.5});
  CHECK(MaxMinShares(std::vector<double>{0.2, 1, 1}) == std::vector<double>{0.2, 0.4, 0.4});
  CHECK(MaxMinShares(std::vector<double>{0.3, 0.3}) == std::vector<double>{0.3, 0.3});
  std::vector<double> seven = MaxMinShares(std::vector<double>(7, 0.8));
  for (double s : seven) CHECK(s == Approx(1.0 / 7));
  CHECK(MaxMinShares(std::vector<double>{}).empty());
}

TEST_CASE("a time-sliced process runs at its share over its demand, less the switch overhead",
          "[engine][time_share]") {
  CHECK(TimeSlicedSpeed(0.5, 1.0, 2, 0.0) == 0.5);
  CHECK(TimeSlicedSpeed(0.3, 0.3, 2, 0.0) == 1.0);          // gets all it needs
  CHECK(TimeSlicedSpeed(0.5, 1.0, 2, 0.1) == Approx(0.45));  // overhead when sharing
  CHECK(TimeSlicedSpeed(1.0, 1.0, 1, 0.1) == 1.0);           // no overhead alone
}

// One V100 with nvidia.com/gpu time-sliced 4 ways, and time-sliced pods of `run` seconds.
struct SlicedGpu {
  Scenario s;
  TemplateId Pod(double run_s, double duty_cycle = 1.0) {
    JobClassId jc = AddJobClass(s, "j" + std::to_string(s.job_classes.size()), Sec(0),
                                Sec(run_s));
    s.job_classes[jc.value()].duty_cycle = duty_cycle;
    return AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc});
  }
  SlicedGpu() { s.cluster.nodes.push_back(test::TimeSliced(test::GpuNode("p3", "p3.2xlarge"), 4)); }
};

TEST_CASE("when a time-sliced neighbour stops, the others speed up and end sooner",
          "[engine][time_share]") {
  SlicedGpu g;
  AddPods(g.s, "short", Sec(0), g.Pod(10));
  AddPods(g.s, "long", Sec(0), g.Pod(20));
  FirstFitPolicy policy;
  auto engine = RunEngine(g.s, policy);
  // Both at half speed: the 10 s pod ends at 20 s, when the other is half done and
  // then runs alone for its last 10 s.
  CHECK(engine->pods()[0].ended == Sec(20));
  CHECK(engine->pods()[1].ended == Sec(30));
}

TEST_CASE("a neighbour arriving later slows a running time-sliced pod",
          "[engine][time_share]") {
  SlicedGpu g;
  AddPods(g.s, "first", Sec(0), g.Pod(10));
  AddPods(g.s, "second", Sec(4), g.Pod(10));
  FirstFitPolicy policy;
  auto engine = RunEngine(g.s, policy);
  // first: 4 s alone (0.4 done), then half speed: 0.6 left takes 12 s -> 16 s.
  CHECK(engine->pods()[0].ended == Sec(16));
  // second: 12 s at half speed (0.6 done), then 4 s alone -> 20 s.
  CHECK(engine->pods()[1].ended == Sec(20));
}

TEST_CASE("time-sliced processes that leave the GPU idle alone lose nothing together",
          "[engine][time_share]") {
  SlicedGpu g;
  AddPods(g.s, "light", Sec(0), g.Pod(10, 0.25), 4);
  FirstFitPolicy policy;
  auto engine = RunEngine(g.s, policy);
  for (const Pod& pod : engine->pods()) CHECK(pod.ended == Sec(10));
}

TEST_CASE("the switch overhead slows only processes that share", "[engine][time_share]") {
  SlicedGpu g;
  g.s.cluster.nodes[0].plugin.switch_overhead = 0.2;
  AddPods(g.s, "pair", Sec(0), g.Pod(10, 0.5), 2);
  FirstFitPolicy policy;
  auto engine = RunEngine(g.s, policy);
  // Each gets the 0.5 it needs, at 0.8 speed: 12.5 s.
  for (const Pod& pod : engine->pods()) CHECK(pod.ended == Sec(12.5));
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

// One V100 (16 GiB) time-sliced 4 ways; pods holding `gib` of GPU memory for 100 s.
TemplateId MemoryPod(Scenario& s, double gib, bool forever = false) {
  JobClassId jc = AddJobClass(s, "m" + std::to_string(s.job_classes.size()), Sec(0), Sec(100));
  s.job_classes[jc.value()].gpu_memory_mib = static_cast<int64_t>(gib * 1024);
  s.job_classes[jc.value()].duty_cycle = 0.25;
  return AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = jc,
                         .runs_forever = forever});
}

Scenario SlicedV100() {
  Scenario s;
  s.cluster.nodes.push_back(test::TimeSliced(test::GpuNode("p3", "p3.2xlarge"), 4));
  return s;
}

TEST_CASE("a time-sliced process that does not fit next to its neighbours dies out of memory",
          "[engine][memory]") {
  Scenario s = SlicedV100();
  AddPods(s, "fits", Sec(0), MemoryPod(s, 6), 2);  // 12 GiB of 16
  AddPods(s, "late", Sec(5), MemoryPod(s, 6));     // 18 > 16
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].phase == PodPhase::kSucceeded);
  CHECK(engine->pods()[1].phase == PodPhase::kSucceeded);
  const Pod& late = engine->pods()[2];
  CHECK(late.phase == PodPhase::kFailed);
  CHECK(late.reason == EndReason::kOomKilled);
  CHECK(late.ended == Sec(5));
}

TEST_CASE("a process bigger than its exclusive device dies out of memory", "[engine][memory]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  JobClassId big = AddJobClass(s, "big", Sec(0), Sec(10));
  s.job_classes[big.value()].gpu_memory_mib = 8 * 1024;  // a 1g.5gb slice has 4.75 GiB
  AddPods(s, "b", Sec(0), AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}},
                                          .job_class = big}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].reason == EndReason::kOomKilled);
}

TEST_CASE("a Deployment's container that runs out of memory restarts in place with back-off",
          "[engine][memory]") {
  Scenario s = SlicedV100();
  s.horizon = Sec(75);
  AddPods(s, "big", Sec(0), MemoryPod(s, 10, true));
  AddPods(s, "crash", Sec(0), MemoryPod(s, 10, true));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  const Pod& crash = engine->pods()[1];
  // Starts at 0, 10, 30, 70 (back-off 10 s, 20 s, 40 s): four OOMs, three restarts done,
  // the fourth waiting; it keeps its replica and stays bound.
  CHECK(crash.restarts == 4);
  CHECK(crash.phase == PodPhase::kStarting);
  CHECK(crash.node.valid());
  CHECK(engine->pods()[0].phase == PodPhase::kRunning);
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

// One V100 shared by MPS among `replicas` clients.
Scenario MpsV100(int replicas) {
  Scenario s;
  NodeSpec node = test::GpuNode("p3", "p3.2xlarge");
  node.plugin.sharing = SharingMode::kMps;
  node.plugin.shared = {{.name = "nvidia.com/gpu", .replicas = replicas}};
  s.cluster.nodes.push_back(node);
  return s;
}

TEST_CASE("an MPS client is capped at its thread share even when the GPU has room",
          "[engine][mps]") {
  CHECK(MpsShares(std::vector<double>{1, 0.1}, 4) == std::vector<double>{0.25, 0.1});
  CHECK(MpsShares(std::vector<double>{1}, 3) == std::vector<double>{0.33});  // floor(100/3) %
  Scenario s = MpsV100(4);
  AddPods(s, "a", Sec(0), MemoryPod(s, 0), 1);  // duty 0.25: within its cap
  JobClassId full = AddJobClass(s, "full", Sec(0), Sec(10));
  AddPods(s, "b", Sec(0), AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = full}));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].ended == Sec(100));  // unslowed
  CHECK(engine->pods()[1].ended == Sec(40));   // a quarter of the SMs: 4 x slower
}

TEST_CASE("an MPS client holding more than memory / replicas dies out of memory alone",
          "[engine][mps]") {
  Scenario s = MpsV100(4);              // 16 GiB / 4 = 4 GiB per client
  AddPods(s, "big", Sec(0), MemoryPod(s, 5));
  AddPods(s, "small", Sec(0), MemoryPod(s, 3.5));
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].reason == EndReason::kOomKilled);
  CHECK(engine->pods()[1].reason == EndReason::kCompleted);
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

// Regressions from the review of issue 3.
TEST_CASE("a time-sliced pod's obsolete end does not move the clock", "[engine][time_share]") {
  SlicedGpu g;
  const TemplateId fails = g.Pod(100);
  g.s.job_classes.back().failure_probability = 1;
  AddPods(g.s, "a", Sec(0), fails);
  AddPods(g.s, "b", Sec(0), g.Pod(10));
  FirstFitPolicy policy;
  auto engine = RunEngine(g.s, policy);
  // b ends at 20 s; a then runs alone and fails at 110 s. Nothing is left at 200 s,
  // where a's end stood while it shared the GPU.
  CHECK(engine->pods()[0].ended == Sec(110));
  CHECK(engine->end_time() == Sec(110));
}

TEST_CASE("a run time too long to represent means never, not a crash", "[engine][time_share]") {
  SlicedGpu g;
  AddPods(g.s, "forever", Sec(0), g.Pod(1e15));
  FirstFitPolicy policy;
  auto engine = RunEngine(g.s, policy);
  CHECK(engine->pods()[0].phase == PodPhase::kRunning);
}

TEST_CASE("a pod holding an exclusive and a time-sliced device shares the latter",
          "[engine][time_share]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("a100", "p4d.24xlarge", "all-balanced"));
  NodeSpec& node = s.cluster.nodes.back();
  node.plugin.sharing = SharingMode::kTimeSlicing;
  node.plugin.shared = {{.name = "nvidia.com/mig-1g.5gb", .replicas = 2}};
  JobClassId ten = AddJobClass(s, "t", Sec(0), Sec(10));
  AddPods(s, "both", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/mig-3g.20gb", 1}, {"nvidia.com/mig-1g.5gb", 1}},
                          .job_class = ten}));
  // 16 1g.5gb devices x 2 replicas: with 31 more pods every device has two tenants.
  AddPods(s, "slice", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}}, .job_class = ten}), 31);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  // The two-device pod is a process on its 1g.5gb like the others: all at half speed.
  for (const Pod& pod : engine->pods()) CHECK(pod.ended == Sec(20));
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("a fractional share caps a pod's compute and memory at its share",
          "[engine][fractional]") {
  Scenario s;
  NodeSpec node = test::GpuNode("p3", "p3.2xlarge");  // one V100, 16 GiB
  node.plugin.sharing = SharingMode::kFractional;
  node.plugin.shared = {{.name = "alibabacloud.com/gpu-milli", .replicas = 1000}};
  s.cluster.nodes.push_back(node);
  auto pod = [&](const char* name, int milli, double gib) {
    JobClassId jc = AddJobClass(s, name, Sec(0), Sec(10));  // duty 1
    s.job_classes[jc.value()].gpu_memory_mib = static_cast<int64_t>(gib * 1024);
    AddPods(s, name, Sec(0),
            AddTemplate(s, {.extended = {{"alibabacloud.com/gpu-milli", milli}}, .job_class = jc}));
  };
  pod("half", 500, 6);     // half the SMs: twice as long; 8 GiB pin holds 6
  pod("quarter", 250, 6);  // a 4 GiB pin cannot hold 6 GiB
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(engine->pods()[0].ended == Sec(20));
  CHECK(engine->pods()[1].reason == EndReason::kOomKilled);
}

}  // namespace
}  // namespace migsim

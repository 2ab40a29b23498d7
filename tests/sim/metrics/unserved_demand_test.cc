#include "sim/metrics/unserved_demand.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/study/run.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::Sec;

// A p3.8xlarge: four V100s.
Scenario FourGpus() {
  Scenario s;
  s.cluster.nodes.push_back(test::P3_8x("p3"));
  return s;
}

TemplateId OneGpuForever(Scenario& s, int32_t priority = 0) {
  return AddTemplate(
      s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true, .priority = priority});
}

TEST_CASE("replicas deleted while pending count as deleted unbound, with how long they waited",
          "[metrics][unserved]") {
  // Six replicas on four GPUs from 0 s; scaled to 3 at 100 s: the ReplicaSet deletes the two
  // pending ones first, then one running. The run ends at 200 s.
  Scenario s = FourGpus();
  s.horizon = Sec(200);
  s.workloads.push_back(DeploymentSpec{.name = "chat",
                                       .at = Sec(0),
                                       .replicas = 6,
                                       .scale = {{Sec(100), 3}},
                                       .tmpl = OneGpuForever(s)});
  FirstFitPolicy policy;
  const VariantResult r = RunVariant("v", s, policy, {.collect_pods = true});
  const UnservedDemand& d = r.metrics.unserved;
  CHECK(d.deleted_unbound == 2);
  CHECK(d.never_bound == 2);
  CHECK(d.deleted_unbound_wait.count == 2);
  CHECK(d.deleted_unbound_wait.max_s == 100);
  CHECK(d.longest_wait_s == 100);
  CHECK(d.pending.peak == 2);
  CHECK(d.pending.mean == Approx(2.0 * 100 / 200));
  // Queueing latency sees only the four that bound, at once.
  CHECK(r.metrics.queueing.count == 4);
  CHECK(r.metrics.queueing.max_s == 0);
  REQUIRE(d.workloads.size() == 1);
  CHECK(d.workloads[0].name == "Deployment/chat");
  CHECK(d.workloads[0].pods == 6);
  CHECK(d.workloads[0].deleted_unbound == 2);
  CHECK(d.workloads[0].pending.peak == 2);
  REQUIRE(d.namespaces.size() == 1);
  CHECK(d.namespaces[0].name == "default");
  CHECK(d.namespaces[0].longest_wait_s == 100);
  CHECK(DescribeUnboundDeletions(d) ==
        "2 pods were deleted without ever binding (Deployment/chat 2), the longest after 1.7 min");
  // The pods CSV's wait: 0 for the bound replicas, 100 s for the deleted ones.
  REQUIRE(r.pods.size() == 6);
  CHECK(r.pods[0].wait == SimTime::Zero());
  CHECK(r.pods[5].wait == Sec(100));
}

TEST_CASE("a pod still pending at the end waited until the end, and one that bound until it bound",
          "[metrics][unserved]") {
  Scenario s = FourGpus();
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(50));
  // Five one-GPU pods at 0 s: the fifth binds at 50 s. One asking for 8 GPUs never binds;
  // the run ends with the last completion, at 100 s.
  AddPods(s, "batch", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = run}), 5);
  AddPods(s, "huge", Sec(10),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 8}}, .job_class = run}));
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("v", s, policy).metrics;
  REQUIRE(m.end_s == 100);
  const UnservedDemand& d = m.unserved;
  CHECK(d.deleted_unbound == 0);
  CHECK(d.never_bound == 1);
  CHECK(d.longest_wait_s == 90);  // huge: 10 s -> the end
  CHECK(m.queueing.max_s == 50);  // the fifth batch pod
  // Pending: 1 over [0, 10), 2 over [10, 50), 1 over [50, 100).
  CHECK(d.pending.peak == 2);
  CHECK(d.pending.mean == Approx((10 + 2 * 40 + 50) / 100.0));
  REQUIRE(d.workloads.size() == 2);
  CHECK(d.workloads[0].longest_wait_s == 50);
  CHECK(d.workloads[1].longest_wait_s == 90);
  CHECK(DescribeUnboundDeletions(d).empty());
}

TEST_CASE("a pod bound in the instant it was created never counts as pending",
          "[metrics][unserved]") {
  Scenario s = FourGpus();
  AddPods(s, "now", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                          .job_class = AddJobClass(s, "r", Sec(0), Sec(10))}),
          4);
  FirstFitPolicy policy;
  const UnservedDemand d = RunVariant("v", s, policy).metrics.unserved;
  CHECK(d.pending.peak == 0);
  CHECK(d.pending.mean == 0);
  CHECK(d.longest_wait_s == 0);
}

TEST_CASE("a preempted replica's replacement is pending again and counted again",
          "[metrics][unserved]") {
  // Four low-priority replicas fill the GPUs. At 100 s a high-priority pod (run 50 s)
  // preempts one, which keeps its GPU for its 30 s grace period: the high pod waits
  // 100 -> 130 s. The replacement replica is created at 130 s and waits until the high pod
  // ends at 180 s. The run ends at 300 s.
  Scenario s = FourGpus();
  s.horizon = Sec(300);
  s.workloads.push_back(
      DeploymentSpec{.name = "chat", .at = Sec(0), .replicas = 4, .tmpl = OneGpuForever(s)});
  AddPods(s, "high", Sec(100),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                          .job_class = AddJobClass(s, "r", Sec(0), Sec(50)),
                          .priority = 100}));
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("v", s, policy).metrics;
  REQUIRE(m.preemptions == 1);
  const UnservedDemand& d = m.unserved;
  CHECK(d.pending.peak == 1);
  CHECK(d.pending.mean == Approx((30 + 50) / 300.0));
  CHECK(d.longest_wait_s == 50);
  CHECK(d.never_bound == 0);
  REQUIRE(d.workloads.size() == 2);
  CHECK(d.workloads[0].pods == 5);  // four replicas and the replacement
  CHECK(d.workloads[0].pending.mean == Approx(50 / 300.0));
  CHECK(d.workloads[1].pending.mean == Approx(30 / 300.0));
}

TEST_CASE("durations read in seconds, minutes or hours", "[metrics][unserved]") {
  CHECK(HumanDuration(35) == "35.0 s");
  CHECK(HumanDuration(252) == "4.2 min");
  CHECK(HumanDuration(36360) == "10.1 h");
}

}  // namespace
}  // namespace migsim

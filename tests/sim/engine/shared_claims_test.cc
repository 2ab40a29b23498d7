// Shared ResourceClaims in the engine (engine_shared_claims.cc): allocated once, by the
// first pod bound; later pods pinned to the claim's node and devices; released, DynamicMIG
// instances destroyed, with the last pod; the pods share the devices as time-slicing or
// MPS pods do.

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/time_share.h"
#include "tests/support/scenario_text.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

const std::string kWholeGpu =
    R"([{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}])";
const std::string kMig1g =
    R"([{"name": "mig", "exactly": {"deviceClassName": "mig.nvidia.com", "selectors": [)"
    R"("device.attributes[\"gpu.nvidia.com\"].profile == \"1g.5gb\""]}}])";

// A Pod workload of `count` pods of class `job_class` using the claim "shared", at `at_s`;
// `extra` goes into its template.
std::string SharingPods(const std::string& name, int at_s, const std::string& job_class,
                        const std::string& extra = "", int count = 1) {
  return "\"" + name + R"(": {"kind": "Pod", "at_s": )" + std::to_string(at_s) + R"(, "count": )" +
         std::to_string(count) + R"(, "template": {"job_class": ")" + job_class + "\", " + extra +
         R"("resource_claims": [{"name": "gpu", "resource_claim_name": "shared"}]}})";
}

// `nodes` p4d.24xlarge under DRA (`dra`), the claim "shared" with `requests` and
// `sharing`, classes "short" (100 s) and "long" (300 s) at duty cycle 1, and `workloads`.
std::string Doc(const std::string& requests, const std::string& sharing,
                const std::string& workloads, int nodes = 2, const std::string& dra = "{}") {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge", "count": )" +
         std::to_string(nodes) + R"(, "dra": )" + dra + R"(}}},
    "resource_claims": {"shared": {"requests": )" +
         requests + (sharing.empty() ? "" : ", \"sharing\": " + sharing) + R"(}},
    "job_classes": {"short": {"run_s": 100, "duty_cycle": 1},
                    "long": {"run_s": 300, "duty_cycle": 1}},
    "workloads": {)" +
         workloads + "}}";
}

const Pod& Named(const Engine& engine, const std::string& name) {
  for (const Pod& pod : engine.pods()) {
    if (engine.PodName(pod) == name) return pod;
  }
  FAIL("no pod " << name);
  return engine.pods().front();
}

// A run's engine with the scenario and policy it points to, kept alive as long as it is
// (members are destroyed in reverse order: the engine first).
struct Ran {
  std::unique_ptr<Scenario> scenario;
  std::unique_ptr<FirstFitPolicy> policy;
  std::unique_ptr<Engine> engine;
  Engine* operator->() const { return engine.get(); }
  Engine& operator*() const { return *engine; }
};

Ran Run(const std::string& doc) {
  Ran ran{std::make_unique<Scenario>(test::LoadFirstVariant(doc)),
          std::make_unique<FirstFitPolicy>(), nullptr};
  ran.engine = test::RunEngine(*ran.scenario, *ran.policy);
  return ran;
}

}  // namespace

TEST_CASE("two pods sharing a claim run on its node and device, time-sliced at half speed",
          "[engine][dra]") {
  // The first pod is sent to p4d-1; first-fit would put the second on p4d-0, but the
  // claim pins it to p4d-1.
  const std::string on_p4d1 = R"("node_selector": {"kubernetes.io/hostname": "p4d-1"}, )";
  auto engine = Run(Doc(
      kWholeGpu, "", SharingPods("a", 0, "short", on_p4d1) + ", " + SharingPods("b", 0, "short")));
  const Pod& a = Named(*engine, "a");
  const Pod& b = Named(*engine, "b");
  CHECK(engine->nodes()[a.node.value()].name == "p4d-1");
  CHECK(b.node == a.node);
  CHECK(engine->DeviceName(a) == "gpu0/shared");
  CHECK(engine->DeviceName(b) == engine->DeviceName(a));
  // No sharing config: time-slicing, max-min fair; each runs at share / demand.
  const std::vector<double> shares = MaxMinShares(std::vector<double>{1.0, 1.0});
  const double speed = TimeSlicedSpeed(shares[0], 1.0, 2, 0.0);
  CHECK(speed == Approx(0.5));
  CHECK((a.ended - a.started).seconds() == Approx(100 / speed));
  CHECK((b.ended - b.started).seconds() == Approx(100 / speed));
  CHECK(a.phase == PodPhase::kSucceeded);
  CHECK(b.phase == PodPhase::kSucceeded);
}

TEST_CASE("MPS caps each pod sharing a claim at its active thread percentage", "[engine][dra]") {
  const std::string mps =
      R"({"strategy": "MPS", "mpsConfig": {"defaultActiveThreadPercentage": 30}})";
  auto engine =
      Run(Doc(kWholeGpu, mps, SharingPods("a", 0, "short") + ", " + SharingPods("b", 0, "short")));
  const std::vector<double> shares = CappedFairShares(std::vector<double>{1.0, 1.0}, 0.3);
  // MPS clients run concurrently: no time-slice switching overhead.
  const double speed = TimeSlicedSpeed(shares[0], 1.0, 2, 0.0);
  CHECK(speed == Approx(0.3));
  for (const Pod& pod : engine->pods()) {
    CHECK((pod.ended - pod.started).seconds() == Approx(100 / speed));
  }
}

TEST_CASE("MPS caps that add up to more than the device share it fairly", "[engine][dra]") {
  // 70 % each for two clients that would each keep the whole device busy: together they
  // cannot have more than the device, so each runs at half speed, not at 0.7.
  const std::string mps =
      R"({"strategy": "MPS", "mpsConfig": {"defaultActiveThreadPercentage": 70}})";
  auto engine =
      Run(Doc(kWholeGpu, mps, SharingPods("a", 0, "short") + ", " + SharingPods("b", 0, "short")));
  CHECK(CappedFairShares(std::vector<double>{1.0, 1.0}, 0.7) == std::vector<double>{0.5, 0.5});
  CHECK(CappedFairShares(std::vector<double>{0.2, 1.0}, 0.7) == std::vector<double>{0.2, 0.7});
  for (const Pod& pod : engine->pods()) {
    CHECK((pod.ended - pod.started).seconds() == Approx(100 / 0.5));
  }
}

TEST_CASE("a shared claim's GPU time is booked once, to the namespace of its pods",
          "[engine][dra]") {
  // Two pods time-slice one whole GPU for 200 s (100 s each alone, at half speed), then a
  // third uses the claim again from 1000 s for 100 s: 300 s of one GPU, not 2 x 200 + 100.
  auto engine = Run(Doc(kWholeGpu, "",
                        SharingPods("a", 0, "short") + ", " + SharingPods("b", 0, "short") +
                            ", " + SharingPods("c", 1000, "short")));
  const std::vector<double> hours = engine->SharedClaimGpuHours(1);
  REQUIRE(hours.size() == 1);
  CHECK(hours[0] == Approx(300.0 / 3600));
  // The pods hold the claim's GPU with no tenant of their own: nothing booked twice.
  for (const Pod& pod : engine->pods()) CHECK(pod.gpus == 0);
}

TEST_CASE("a shared claim's devices are released only when its last pod ends", "[engine][dra]") {
  // "all" takes every GPU of the node (allocationMode All): it binds once the claim is gone.
  const std::string all =
      R"("all": {"kind": "Pod", "at_s": 10, "template": {"job_class": "short",
         "resource_claims": [{"name": "c", "requests": [{"name": "r", "exactly":
         {"deviceClassName": "gpu.nvidia.com", "allocationMode": "All"}}]}]}})";
  auto engine =
      Run(Doc(kWholeGpu, "",
              SharingPods("a", 0, "short") + ", " + SharingPods("b", 0, "long") + ", " + all, 1));
  const Pod& a = Named(*engine, "a");
  const Pod& b = Named(*engine, "b");
  // Half speed together until a is done (100 s of work at 0.5), then b alone.
  CHECK(a.ended.seconds() == Approx(200));
  CHECK(b.ended.seconds() == Approx(200 + 200));
  CHECK(Named(*engine, "all").bound == b.ended);
}

TEST_CASE("a pod sharing a claim waits for room on the claim's node", "[engine][dra]") {
  // Each pod takes 60 of the node's 96 vCPUs: b fits p4d-0 only once a is gone, and never
  // goes to p4d-1 while the claim is on p4d-0.
  const std::string cpu = R"("resources": {"cpu": "60"}, )";
  auto engine = Run(Doc(
      kWholeGpu, "", SharingPods("a", 0, "short", cpu) + ", " + SharingPods("b", 0, "short", cpu)));
  const Pod& a = Named(*engine, "a");
  const Pod& b = Named(*engine, "b");
  CHECK(engine->nodes()[a.node.value()].name == "p4d-0");
  CHECK(b.bound == a.ended);
  CHECK(a.ended.seconds() == Approx(100));  // alone on the device: full speed
  CHECK(engine->nodes()[b.node.value()].name == "p4d-0");
}

TEST_CASE("a DynamicMIG shared claim creates its instance once and destroys it after the last pod",
          "[engine][dra]") {
  auto engine =
      Run(Doc(kMig1g, R"({"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Long"}})",
              SharingPods("a", 0, "short") + ", " + SharingPods("b", 50, "short"), 1,
              R"({"dynamic_mig": true, "mig_create_s": 5})"));
  const Pod& a = Named(*engine, "a");
  const Pod& b = Named(*engine, "b");
  CHECK(engine->counters().mig_instances_created == 1);
  CHECK(engine->counters().mig_instances_destroyed == 1);
  CHECK(engine->counters().mig_creation_seconds == 5);
  CHECK((a.started - a.bound) == SimTime::Seconds(5));  // waits for the instance
  CHECK(b.started == b.bound);                          // the instance exists already
  CHECK(engine->DeviceName(a) == "gpu0/1g.5gb@0/shared");
  CHECK(engine->DeviceName(b) == engine->DeviceName(a));
}

TEST_CASE("a pod bound in the same instant as the claim's first pod waits for its instance",
          "[engine][dra]") {
  auto engine = Run(Doc(kMig1g, "", SharingPods("a", 0, "short", "", 2), 1,
                        R"({"dynamic_mig": true, "mig_create_s": 5})"));
  CHECK(engine->counters().mig_instances_created == 1);
  for (const Pod& pod : engine->pods()) CHECK(pod.started == SimTime::Seconds(5));
}

TEST_CASE("a GPU fault kills every pod sharing the claim and releases it", "[engine][dra]") {
  const std::string doc = Doc(kWholeGpu, "", SharingPods("a", 0, "long", "", 2), 1);
  std::string with_fault = doc;
  with_fault.insert(with_fault.rfind('}'),
                    R"(, "faults": [{"at_s": 50, "kind": "gpu-unhealthy", "node": "p4d-0",
                        "gpus": [0], "repair_s": 1000}])");
  auto engine = Run(with_fault);
  // Both fail on the GPU; the engine's accounting check at the end found the claim's
  // device released with them.
  for (const Pod& pod : engine->pods()) {
    CHECK(pod.reason == EndReason::kGpuFailed);
    CHECK(pod.ended >= SimTime::Seconds(50));
    CHECK(pod.ended < SimTime::Seconds(300));
  }
  CHECK(engine->node_runtime(NodeId(0)).devices()[0].used == 0);
}

}  // namespace migsim

// Energy: the GPU power model, the recorder's exact integration of piecewise-constant power,
// and whole runs whose energy is computed by hand (README "Energy").
#include "sim/metrics/energy_metrics.h"

#include <catch2/catch.hpp>
#include <string>

#include "sim/study/run.h"
#include "tests/support/scenario_text.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

constexpr double kJoulesPerKwh = 3.6e6;
constexpr int64_t kWhole = kGpuWeight;

// Energy that leaves the node overhead out, so the GPU figures stand alone.
EnergySpec GpusOnly() {
  EnergySpec spec;
  spec.node_watts_per_vcpu = 0;
  spec.node_watts_per_gb = 0;
  return spec;
}

// One node of `type` (pools empty: one pool, every node up the whole run).
ClusterSpec OneNode(const std::string& type) {
  ClusterSpec cluster;
  cluster.nodes = {test::GpuNode("a", type)};
  return cluster;
}

// A scenario document: one pool `g` (`pool` is its JSON), one Pod workload of `pods` pods
// whose job class is `job`, and `extra` top-level fields.
std::string Doc(const std::string& pool, const std::string& job, int pods,
                const std::string& request, const std::string& extra = "") {
  return R"({"name": "t", "description": "d", "horizon_s": 3600, )" + extra +
         R"("cluster": {"nodes": {"g": )" + pool + R"(}},
    "job_classes": {"run": )" + job + R"(},
    "workloads": {"p": {"kind": "Pod", "count": )" + std::to_string(pods) + R"(,
      "template": {"job_class": "run", "resources": {)" + request + R"(}}}}})";
}

}  // namespace

TEST_CASE("a GPU draws idle power, busy capacity its share of the range, and active capacity "
          "not computing the allocated-idle step up to its limit",
          "[metrics][energy]") {
  const GpuModel& t4 = *FindGpuModel("T4");
  // Two GPUs, one GPU running a process busy half the time: half a GPU allocated-idle.
  const GpuPower p = NodeGpuPower(t4, 2, kWhole, kWhole / 2.0, 20);
  CHECK(p.idle == Approx(2 * t4.idle_watts));
  CHECK(p.busy == Approx((t4.max_watts - t4.idle_watts) / 2));
  CHECK(p.allocated_idle == Approx(20.0 / 2));
  // The step never takes a GPU past its power limit.
  CHECK(NodeGpuPower(t4, 1, kWhole, 0, 1000).total() == Approx(t4.max_watts));
  // A GPU busy all the time holds no step.
  CHECK(NodeGpuPower(t4, 1, kWhole, kWhole, 20).allocated_idle == 0);
}

TEST_CASE("one GPU busy half the run at duty 1 draws idle the whole run and its range half",
          "[metrics][energy]") {
  const ClusterSpec cluster = OneNode("g4dn.xlarge");
  const EnergySpec spec = GpusOnly();
  EnergyRecorder recorder(cluster, spec);
  const double t = 3600;
  recorder.OnNodeGpuUse(SimTime::Zero(), NodeId(0), kWhole, kWhole);
  recorder.OnNodeGpuUse(SimTime::Seconds(t / 2), NodeId(0), 0, 0);
  const EnergyMetrics e = recorder.Finish(SimTime::Seconds(t));
  const GpuModel& t4 = *FindGpuModel("T4");
  const double expected = (t4.idle_watts * t + (t4.max_watts - t4.idle_watts) * t / 2) / kJoulesPerKwh;
  CHECK(e.gpu_kwh == Approx(expected).epsilon(1e-12));
  CHECK(e.allocated_idle_kwh == 0);
  CHECK(e.node_kwh == 0);
  CHECK(e.kwh == Approx(expected).epsilon(1e-12));
  CHECK(e.mean_watts == Approx(expected * kJoulesPerKwh / t));
  CHECK(e.cost == Approx(expected * spec.price_per_kwh));
  CHECK(e.co2_kg == Approx(expected * spec.grid_gco2_per_kwh / 1000));
  REQUIRE(e.models.size() == 1);
  CHECK(e.models[0].model == "T4");
  CHECK(e.models[0].kwh == Approx(expected));
  // Not constant: the same hour with nothing busy uses less.
  EnergyRecorder idle(cluster, spec);
  CHECK(idle.Finish(SimTime::Seconds(t)).gpu_kwh == Approx(t4.idle_watts * t / kJoulesPerKwh));
  CHECK(idle.Finish(SimTime::Seconds(t)).gpu_kwh < e.gpu_kwh);
}

TEST_CASE("node overhead follows the node type's vCPUs and memory, times PUE at the facility",
          "[metrics][energy]") {
  const ClusterSpec cluster = OneNode("g4dn.xlarge");
  EnergySpec spec;
  spec.pue = 1.5;
  const EnergyMetrics e = EnergyRecorder(cluster, spec).Finish(SimTime::Seconds(7200));
  const NodeType& type = *FindNodeType("g4dn.xlarge");
  const double watts =
      type.vcpu * spec.node_watts_per_vcpu + type.memory_gib * 1.073741824 * spec.node_watts_per_gb;
  CHECK(e.node_kwh == Approx(watts * 7200 / kJoulesPerKwh));
  CHECK(e.kwh == Approx((e.gpu_kwh + e.node_kwh) * 1.5));
  CHECK(e.pue == 1.5);
}

TEST_CASE("absent autoscaled nodes draw nothing until launched and after termination",
          "[metrics][energy]") {
  ClusterSpec cluster;
  const uint32_t pool = test::AddPool(cluster, "g", "g4dn.xlarge", 2);
  cluster.node_groups = {NodeGroupSpec{.pool = pool, .min = 0, .max = 2, .initial = 0}};
  EnergySpec spec;
  EnergyRecorder recorder(cluster, spec);
  CHECK(EnergyRecorder(cluster, spec).Finish(SimTime::Seconds(3600)).kwh == 0);
  recorder.OnNodeScaled(SimTime::Seconds(1000), NodeId(1), 0, NodeScaleChange::kLaunched);
  recorder.OnNodeScaled(SimTime::Seconds(1300), NodeId(1), 0, NodeScaleChange::kReady);
  recorder.OnNodeScaled(SimTime::Seconds(3000), NodeId(1), 0, NodeScaleChange::kTerminated);
  const EnergyMetrics e = recorder.Finish(SimTime::Seconds(3600));
  const NodeType& type = *FindNodeType("g4dn.xlarge");
  const double overhead =
      type.vcpu * spec.node_watts_per_vcpu + type.memory_gib * 1.073741824 * spec.node_watts_per_gb;
  CHECK(e.gpu_kwh == Approx(FindGpuModel("T4")->idle_watts * 2000 / kJoulesPerKwh));
  CHECK(e.node_kwh == Approx(overhead * 2000 / kJoulesPerKwh));
}

TEST_CASE("a run's pod on a whole GPU adds the dynamic range for its run time",
          "[metrics][energy]") {
  const Scenario s = test::LoadFirstVariant(
      Doc(R"({"type": "g4dn.xlarge", "count": 1})", R"({"startup_s": 60, "run_s": 1800})", 1,
          R"("nvidia.com/gpu": 1)", R"("energy": {"node_watts_per_vcpu": 0, "node_watts_per_gb": 0}, )"));
  const VariantResult r = RunVariant("v", s, {.collect_pods = true});
  REQUIRE(r.pods.size() == 1);
  const double run = (*r.pods[0].ended - *r.pods[0].started).seconds();
  const double held = (*r.pods[0].ended - *r.pods[0].bound).seconds();
  CHECK(run == 1800);
  const double end = r.metrics.end_s;
  const GpuModel& t4 = *FindGpuModel("T4");
  // Bound before its container started (startup), the GPU had no context yet: idle then.
  const double expected = (t4.idle_watts * end + (t4.max_watts - t4.idle_watts) * run) / kJoulesPerKwh;
  CHECK(held == 1860);
  CHECK(r.energy.gpu_kwh == Approx(expected).epsilon(1e-9));
  CHECK(r.energy.node_kwh == 0);
}

TEST_CASE("a MIG instance busies g / G of its GPU's range", "[metrics][energy]") {
  const Scenario s = test::LoadFirstVariant(
      Doc(R"({"type": "p4d.24xlarge", "count": 1, "mig": {"config": "all-1g.5gb"}})",
          R"({"run_s": 1800})", 1, R"("nvidia.com/mig-1g.5gb": 1)",
          R"("energy": {"node_watts_per_vcpu": 0, "node_watts_per_gb": 0, "allocated_idle_watts": 0}, )"));
  const VariantResult r = RunVariant("v", s, {.collect_pods = true});
  REQUIRE(r.pods.size() == 1);
  const double run = (*r.pods[0].ended - *r.pods[0].started).seconds();
  const GpuModel& a100 = *FindGpuModel("A100-SXM4-40GB");
  const double expected = (8 * a100.idle_watts * r.metrics.end_s +
                           (a100.max_watts - a100.idle_watts) * run / 7) / kJoulesPerKwh;
  CHECK(r.energy.gpu_kwh == Approx(expected).epsilon(1e-9));
}

TEST_CASE("a time-sliced GPU held by a pod at duty 0.5 is busy half and allocated-idle half",
          "[metrics][energy]") {
  const Scenario s = test::LoadFirstVariant(
      Doc(R"({"type": "g4dn.xlarge", "count": 1,
              "device_plugin": {"time_slicing": {"replicas": 4}}})",
          R"({"run_s": 1800, "duty_cycle": 0.5})", 1, R"("nvidia.com/gpu": 1)",
          R"("energy": {"node_watts_per_vcpu": 0, "node_watts_per_gb": 0, "allocated_idle_watts": 30}, )"));
  const VariantResult r = RunVariant("v", s, {.collect_pods = true});
  REQUIRE(r.pods.size() == 1);
  const double run = (*r.pods[0].ended - *r.pods[0].started).seconds();
  const GpuModel& t4 = *FindGpuModel("T4");
  const double range = t4.max_watts - t4.idle_watts;
  const double allocated_idle = 30 * 0.5 * run / kJoulesPerKwh;
  const double expected =
      (t4.idle_watts * r.metrics.end_s + range * 0.5 * run) / kJoulesPerKwh + allocated_idle;
  CHECK(r.energy.allocated_idle_kwh == Approx(allocated_idle).epsilon(1e-9));
  CHECK(r.energy.allocated_idle_kwh > 0);
  CHECK(r.energy.gpu_kwh == Approx(expected).epsilon(1e-9));
}

TEST_CASE("bad energy input is refused at its element", "[metrics][energy][io]") {
  const std::string pool = R"({"type": "g4dn.xlarge", "count": 1})";
  auto error = [&](const std::string& energy) {
    return test::LoadError(Doc(pool, R"({"run_s": 10})", 1, R"("nvidia.com/gpu": 1)",
                               R"("energy": )" + energy + ", "));
  };
  CHECK(error("3") == "t.json:/energy: expected an object, got a number");
  CHECK(error(R"({"price": 1})").starts_with("t.json:/energy/price: unknown field 'price'"));
  CHECK(error(R"({"price_per_kwh": -1})") == "t.json:/energy/price_per_kwh: must be >= 0");
  CHECK(error(R"({"grid_gco2_per_kwh": "a"})") ==
        "t.json:/energy/grid_gco2_per_kwh: expected a number, got a string");
  CHECK(error(R"({"pue": 0.9})") == "t.json:/energy/pue: must be >= 1");
  CHECK(error(R"({"node_watts_per_vcpu": -2})") ==
        "t.json:/energy/node_watts_per_vcpu: must be >= 0");
  CHECK(error(R"({"node_watts_per_gb": -0.1})") == "t.json:/energy/node_watts_per_gb: must be >= 0");
  CHECK(error(R"({"allocated_idle_watts": -5})") ==
        "t.json:/energy/allocated_idle_watts: must be >= 0");
}

TEST_CASE("the energy section sets every field and leaves the others at their defaults",
          "[metrics][energy][io]") {
  const Scenario s = test::LoadFirstVariant(
      Doc(R"({"type": "g4dn.xlarge", "count": 1})", R"({"run_s": 10})", 1, R"("nvidia.com/gpu": 1)",
          R"("energy": {"price_per_kwh": 0.2, "pue": 1.3}, )"));
  CHECK(s.energy.price_per_kwh == 0.2);
  CHECK(s.energy.pue == 1.3);
  CHECK(s.energy.grid_gco2_per_kwh == EnergySpec{}.grid_gco2_per_kwh);
  CHECK(s.energy.allocated_idle_watts == EnergySpec{}.allocated_idle_watts);
}

}  // namespace migsim

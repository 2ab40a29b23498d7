// `faults` and `fault_processes` (issue 13): what loads, and bad inputs at their pointer.
#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"
#include "tests/support/scenario_text.h"

namespace migsim {
namespace {

// A valid document with pools `p4d` (2 whole-GPU nodes) and `mig` (1 node, all-1g.5gb),
// and top-level `extra` members.
std::string Doc(const std::string& extra) {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge", "count": 2},
      "mig": {"type": "p4d.24xlarge", "mig": {"config": "all-1g.5gb"}}}},
    "workloads": {})" +
         extra + "}";
}

std::string Faults(const std::string& list) { return Doc(R"(, "faults": [)" + list + "]"); }
std::string Processes(const std::string& list) {
  return Doc(R"(, "fault_processes": [)" + list + "]");
}

using test::LoadError;
using test::LoadFirstVariant;

}  // namespace

TEST_CASE("scripted faults load with their targets, defaults and times, sorted by time",
          "[io][faults]") {
  const Scenario s = LoadFirstVariant(Faults(R"(
    {"at_s": 900, "kind": "drain", "nodes": ["p4d-1"], "maintenance_s": 600},
    {"at_s": 60, "kind": "gpu-unhealthy", "node": "p4d-0", "gpus": [2, 5], "repair_s": 3600},
    {"at_s": 120, "kind": "node-lost", "pool": "p4d", "fraction": 0.5},
    {"at_s": 300, "kind": "spot-interruption", "pool": "p4d", "count": 2, "notice_s": 60},
    {"at_s": 400, "kind": "mig-reconfigure-failed", "nodes": ["mig-0"]})"));
  const std::vector<Fault>& f = s.cluster.faults;
  REQUIRE(f.size() == 5);
  CHECK(f[0].kind == FaultKind::kGpuUnhealthy);
  CHECK(f[0].target.nodes == std::vector<uint32_t>{0});
  CHECK(f[0].target.gpus == std::vector<int>{2, 5});
  CHECK(f[0].repair == SimTime::Seconds(3600));
  CHECK(f[1].kind == FaultKind::kNodeLost);
  CHECK(f[1].target.drawn);
  CHECK(f[1].target.count == 1);  // half of 2 nodes
  CHECK(f[1].toleration == SimTime::Seconds(300));
  CHECK_FALSE(f[1].repair);
  CHECK(f[2].notice == SimTime::Seconds(60));
  CHECK(f[2].target.count == 2);
  CHECK(f[3].kind == FaultKind::kMigReconfigureFailed);
  CHECK(f[4].kind == FaultKind::kDrain);
  CHECK(f[4].maintenance == SimTime::Seconds(600));
  REQUIRE(s.cluster.pools.size() == 2);
  CHECK(s.cluster.pools[1].name == "mig");
  CHECK(s.cluster.pools[1].first == 2);
}

TEST_CASE("bad scripted faults are reported at their pointer", "[io][faults]") {
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "meteor", "nodes": ["p4d-0"]})")) ==
        "t.json:/faults/0/kind: unknown fault kind 'meteor' (valid: node-lost, gpu-unhealthy, "
        "spot-interruption, drain, mig-reconfigure-failed)");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost", "nodes": ["p4d-7"]})")) ==
        "t.json:/faults/0/nodes/0: unknown node 'p4d-7' (pools: p4d, mig)");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "gpu-unhealthy", "node": "p4d-0",
        "gpus": [1, 8]})")) ==
        "t.json:/faults/0/gpus/1: GPU 8 does not exist: node 'p4d-0' has 8 GPUs (0-7)");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost", "pool": "p4d",
        "fraction": 1.5})")) == "t.json:/faults/0/fraction: must be <= 1");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost", "pool": "p4d",
        "fraction": 0})")) == "t.json:/faults/0/fraction: must be in (0, 1]");
  CHECK(LoadError(Faults(R"({"at_s": -5, "kind": "node-lost", "nodes": ["p4d-0"]})")) ==
        "t.json:/faults/0/at_s: must be >= 0");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost", "nodes": ["p4d-0"],
        "repair_s": -1})")) == "t.json:/faults/0/repair_s: must be >= 0");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "drain", "nodes": ["p4d-0"]})")) ==
        "t.json:/faults/0: missing required field 'maintenance_s'");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "drain", "nodes": ["p4d-0"],
        "maintenance_s": 60, "repair_s": 5})")) ==
        "t.json:/faults/0/repair_s: applies only to node-lost, gpu-unhealthy and "
        "mig-reconfigure-failed faults");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost", "pool": "p4d", "count": 3})")) ==
        "t.json:/faults/0/count: count 3 is more than the pool's 2 nodes");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost", "pool": "gpu"})")) ==
        "t.json:/faults/0/pool: unknown pool 'gpu' (valid: p4d, mig)");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost", "pool": "p4d"})")) ==
        "t.json:/faults/0: a pool target needs 'fraction' or 'count'");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost"})")) ==
        "t.json:/faults/0: missing the target: give 'nodes', 'node' or 'pool'");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "mig-reconfigure-failed",
        "nodes": ["p4d-0"]})")) ==
        "t.json:/faults/0: node 'p4d-0' has no MIG-enabled GPU to reconfigure");
  CHECK(LoadError(Faults(R"({"at_s": 1, "kind": "node-lost", "nodes": ["p4d-0"],
        "gpus": [1]})")) == "t.json:/faults/0/gpus: applies only to gpu-unhealthy faults");
  CHECK(LoadError(Doc(R"(, "faults": {})")) == "t.json:/faults: expected an array, got an object");
}

TEST_CASE("failure processes load with the Llama 3 calibration or their own rates",
          "[io][faults]") {
  const Scenario s = LoadFirstVariant(Processes(R"(
    {"name": "gpus", "kind": "gpu-unhealthy", "calibration": "llama3", "repair_s": 14400},
    {"kind": "node-lost", "pool": "p4d", "mtbf_h": 1000, "distribution": "weibull",
     "shape": 2, "accelerate": 10, "repair_s": 3600, "repair_distribution": "exponential"})"));
  const std::vector<FaultProcess>& p = s.cluster.fault_processes;
  REQUIRE(p.size() == 2);
  CHECK(p[0].name == "gpus");
  CHECK(p[0].kind == FaultKind::kGpuUnhealthy);
  CHECK(p[0].nodes.size() == 3);
  // 16,384 x 1,296 GPU-hours / (47 % of 419): about 107,800 h between one GPU's failures.
  CHECK(p[0].scale.seconds() / 3600 == Approx(107826).epsilon(1e-4));
  CHECK(p[0].shape == 1);
  CHECK_FALSE(p[0].repair_exponential);
  CHECK(p[1].name == "fault_processes/1");
  CHECK(p[1].nodes == std::vector<uint32_t>{0, 1});
  // A mean of 100 h with shape 2: scale 100 / Γ(1.5) = 112.84 h.
  CHECK(p[1].scale.seconds() / 3600 == Approx(112.838).epsilon(1e-4));
  CHECK(p[1].repair_exponential);
}

TEST_CASE("bad failure processes are reported at their pointer", "[io][faults]") {
  CHECK(LoadError(Processes(R"({"kind": "gpu-unhealthy", "repair_s": 60})")) ==
        "t.json:/fault_processes/0: missing 'calibration' or 'mtbf_h'");
  CHECK(LoadError(Processes(R"({"kind": "gpu-unhealthy", "calibration": "gpt4",
        "repair_s": 60})")) ==
        "t.json:/fault_processes/0/calibration: unknown calibration 'gpt4' (valid: llama3)");
  CHECK(LoadError(Processes(R"({"kind": "drain", "mtbf_h": 5, "repair_s": 60})")) ==
        "t.json:/fault_processes/0/kind: unknown failure process kind 'drain' (valid: "
        "gpu-unhealthy, node-lost, spot-interruption)");
  CHECK(LoadError(Processes(R"({"kind": "node-lost", "mtbf_h": 5, "shape": 2,
        "repair_s": 60})")) ==
        "t.json:/fault_processes/0/shape: applies only to \"distribution\": \"weibull\"");
  CHECK(LoadError(Processes(R"({"kind": "node-lost", "mtbf_h": 0, "repair_s": 60})")) ==
        "t.json:/fault_processes/0/mtbf_h: must be > 0");
  CHECK(LoadError(Processes(R"({"kind": "node-lost", "mtbf_h": 5})")) ==
        "t.json:/fault_processes/0: missing required field 'repair_s'");
}

TEST_CASE("a spot-interruption process runs only on autoscaled pools, without a repair",
          "[io][faults]") {
  CHECK(LoadError(Processes(R"({"kind": "spot-interruption", "mtbf_h": 5})")) ==
        "t.json:/fault_processes/0: a spot-interruption process runs on an autoscaled pool's "
        "instances (README \"Autoscaling\"); give 'pool' an autoscaled pool");
  CHECK(LoadError(Processes(R"({"kind": "spot-interruption", "mtbf_h": 5, "repair_s": 60})")) ==
        "t.json:/fault_processes/0/repair_s: a spot-interruption process has no repair_s: give "
        "mtbf_h, the mean hours from an instance's Ready to its notice (it is reclaimed, not "
        "repaired)");
  CHECK(LoadError(Processes(R"({"kind": "spot-interruption", "calibration": "llama3"})")) ==
        "t.json:/fault_processes/0/calibration: a spot-interruption process has no calibration: "
        "give mtbf_h, the mean hours from an instance's Ready to its notice (it is reclaimed, "
        "not repaired)");
}

}  // namespace migsim

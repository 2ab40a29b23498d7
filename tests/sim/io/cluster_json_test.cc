// Errors in `cluster`: node types, pools, MIG layouts and configs, the device plugin,
// reconfigurations.

#include <catch2/catch.hpp>
#include <string>

#include "sim/cluster/node_type.h"
#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

// A valid document around `cluster`.
std::string Doc(const std::string& cluster) {
  return R"({"name": "t", "description": "d", "workloads": {}, "cluster": )" + cluster + "}";
}

// A document whose only pool is `a` with the given members.
std::string Pool(const std::string& members) {
  return Doc(R"({"nodes": {"a": {)" + members + "}}}");
}

std::string MessageOf(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == StatusCode::kInvalidArgument);
  return loaded.status().ToString();
}

// "p4d.24xlarge, p4de.24xlarge, ..."
std::string CatalogTypes() {
  std::string names;
  for (const NodeType& type : AllNodeTypes()) names += (names.empty() ? "" : ", ") + type.name;
  return names;
}

}  // namespace

TEST_CASE("an unknown pool field is reported with the pool's fields", "[io]") {
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "cuont": 2)")) ==
        "t.json:/cluster/nodes/a/cuont: unknown field 'cuont' (expected one of: type, count, "
        "labels, mig, device_plugin, openb_nodes, taints, dra, autoscaling)");
}

TEST_CASE("pool fields of the wrong type or range are reported at the field", "[io]") {
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "count": "2")")) ==
        "t.json:/cluster/nodes/a/count: expected an integer, got a string");
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "count": -1)")) ==
        "t.json:/cluster/nodes/a/count: must be >= 1");
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "count": 2.5)")) ==
        "t.json:/cluster/nodes/a/count: expected an integer, got 2.5");
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "labels": {"team": 3})")) ==
        "t.json:/cluster/nodes/a/labels/team: expected a string, got a number");
  CHECK(MessageOf(Pool(R"("count": 1)")) ==
        "t.json:/cluster/nodes/a: missing required field 'type'");
  CHECK(MessageOf(Doc(R"({"nodes": {}})")) ==
        "t.json:/cluster/nodes: must have at least one node pool");
}

TEST_CASE("custom node sizes and pool names are bounded", "[io]") {
  const std::string type = R"({"nodes": {"a": {"type": "big"}}, "node_types": {"big": )";
  CHECK(MessageOf(Doc(type + R"({"vcpu": 1, "memory_gib": 1e308}}})")) ==
        "t.json:/cluster/node_types/big/memory_gib: must be <= 1048576");
  CHECK(MessageOf(Doc(type + R"({"vcpu": 1, "memory_gib": 1e-300}}})")) ==
        "t.json:/cluster/node_types/big/memory_gib: must be at least 1 MiB (0.0009765625)");
  CHECK(MessageOf(Doc(type + R"({"vcpu": 2147483647, "memory_gib": 1}}})")) ==
        "t.json:/cluster/node_types/big/vcpu: must be <= 100000");
  CHECK(MessageOf(Doc(R"({"nodes": {"": {"type": "p4d.24xlarge"}}})")) ==
        "t.json:/cluster/nodes/: node pool names must not be empty");
}

TEST_CASE("fractional shares may not take the name of the device plugin's own resources", "[io]") {
  const std::string pool = R"("type": "p3.8xlarge", "device_plugin": {"fractional": )";
  CHECK(MessageOf(Pool(pool + R"({"resource": "nvidia.com/gpu"}})")) ==
        "t.json:/cluster/nodes/a/device_plugin/fractional/resource: 'nvidia.com/gpu' is the "
        "device plugin's own resource; give the shares a name of their own, such as "
        "example.com/gpu-milli");
  CHECK(MessageOf(Pool(pool + R"({"resource": "Example.com/x"}})")) ==
        "t.json:/cluster/nodes/a/device_plugin/fractional/resource: resource 'Example.com/x': the "
        "domain "
        "must be lowercase letters, digits, '-' and '.'");
}

TEST_CASE("an unknown node type lists the catalog and the custom types", "[io]") {
  CHECK(MessageOf(Pool(R"("type": "p4d.24xl")")) ==
        "t.json:/cluster/nodes/a/type: unknown node type 'p4d.24xl' (valid: " + CatalogTypes() +
            ")");
  CHECK(MessageOf(Doc(R"({"node_types": {"mine": {"vcpu": 2, "memory_gib": 4}},
                          "nodes": {"a": {"type": "yours"}}})")) ==
        "t.json:/cluster/nodes/a/type: unknown node type 'yours' (valid: " + CatalogTypes() +
            ", mine)");
}

TEST_CASE("custom node types are checked like catalog ones", "[io]") {
  auto with_type = [](const std::string& members) {
    return Doc(R"({"node_types": {"mine": {)" + members +
               R"(}}, "nodes": {"a": {"type": "mine"}}})");
  };
  CHECK(MessageOf(with_type(R"("vcpu": 8, "memory_gib": 32, "gpus": 1, "gpu_model": "GB300")")) ==
        "t.json:/cluster/node_types/mine/gpu_model: unknown GPU model 'GB300' (valid: "
        "A100-SXM4-40GB, A100-SXM4-80GB, H100-SXM5-80GB, H200-SXM5-141GB, A30-24GB, "
        "V100-SXM2-16GB, V100-SXM2-32GB, A10G, T4, B200-180GB, L4, L40S)");
  CHECK(MessageOf(with_type(R"("vcpu": 8, "memory_gib": 32, "gpus": 2)")) ==
        "t.json:/cluster/node_types/mine: missing required field 'gpu_model'");
  CHECK(MessageOf(with_type(R"("vcpu": 8, "memory_gib": 0)")) ==
        "t.json:/cluster/node_types/mine/memory_gib: must be at least 1 MiB (0.0009765625)");
  CHECK(MessageOf(with_type(R"("vcpu": 0, "memory_gib": 1)")) ==
        "t.json:/cluster/node_types/mine/vcpu: must be >= 1");
  CHECK(MessageOf(with_type(R"("vcpu": 8, "memory_gib": 32, "gpu_model": "T4")")) ==
        "t.json:/cluster/node_types/mine/gpu_model: only allowed when gpus >= 1");
  CHECK(MessageOf(Doc(R"({"node_types": {"p4d.24xlarge": {"vcpu": 1, "memory_gib": 1}},
                          "nodes": {"a": {"type": "p4d.24xlarge"}}})")) ==
        "t.json:/cluster/node_types/p4d.24xlarge: 'p4d.24xlarge' is a catalog node type; give "
        "the custom type another name");
}

TEST_CASE("a custom GPU node type resolves its model and MIG configs", "[io]") {
  Result<ScenarioFile> loaded =
      ParseScenarioText(Doc(R"({"node_types": {"a30x2": {"vcpu": 8, "memory_gib": 32, "gpus": 2,
                                      "gpu_model": "A30"}},
              "nodes": {"a": {"type": "a30x2", "mig": {"config": "all-2g.12gb"}}}})"),
                        "t.json");
  REQUIRE(loaded.ok());
  const NodeSpec& node = loaded.value().variants[0].second.cluster.nodes[0];
  CHECK(node.type->gpu->name == "A30-24GB");
  CHECK(node.gpus.size() == 2);
  CHECK(node.gpus[1].layout.size() == 2);
}

TEST_CASE("a custom node type is owned by the nodes that have it and outlives the load",
          "[io]") {
  const std::string text = Doc(R"({"node_types": {"box": {"vcpu": 3, "memory_gib": 5}},
                                   "nodes": {"a": {"type": "box", "count": 2}}})");
  ClusterSpec cluster;
  {
    Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
    REQUIRE(loaded.ok());
    cluster = loaded.value().variants[0].second.cluster;
  }
  REQUIRE(cluster.nodes.size() == 2);
  CHECK(cluster.nodes[0].type == cluster.nodes[1].type);  // one type for the pool
  CHECK(cluster.nodes[0].type->name == "box");
  CHECK(cluster.nodes[0].type->vcpu == 3);
  // A catalog type is not owned: nothing counts references to it.
  CHECK(SharedCatalogNodeType("p4d.24xlarge").get() == FindNodeType("p4d.24xlarge"));
  CHECK(SharedCatalogNodeType("p4d.24xlarge").use_count() == 0);
  CHECK(SharedCatalogNodeType("no-such-type") == nullptr);
}

TEST_CASE("an unknown MIG profile in a layout lists the model's profiles", "[io]") {
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "mig": {"layouts": [["1g.5gb", "9g.80gb"]]})")) ==
        "t.json:/cluster/nodes/a/mig/layouts/0/1: unknown MIG profile '9g.80gb' for "
        "A100-SXM4-40GB (valid: 1g.5gb, 1g.5gb+me, 1g.10gb, 2g.10gb, 3g.20gb, 4g.20gb, 7g.40gb)");
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "mig": {"layouts": [["1g.5gb@x"]]})")) ==
        "t.json:/cluster/nodes/a/mig/layouts/0/0: invalid GI '1g.5gb@x' (expected <profile> or "
        "<profile>@<memory slice>)");
}

TEST_CASE("an impossible layout gives the placement rule it breaks", "[io]") {
  CHECK(
      MessageOf(Pool(R"("type": "p4d.24xlarge", "mig": {"layouts": [["4g.20gb", "4g.20gb"]]})")) ==
      "t.json:/cluster/nodes/a/mig/layouts/0: 2 x 4g.20gb exceeds its maximum of 1 per GPU");
  CHECK(MessageOf(
            Pool(R"("type": "p4d.24xlarge", "mig": {"layouts": [["3g.20gb@0", "2g.10gb@2"]]})")) ==
        "t.json:/cluster/nodes/a/mig/layouts/0: 2g.10gb at 2 overlaps 3g.20gb at 0");
  CHECK(
      MessageOf(Pool(R"("type": "p4d.24xlarge", "mig": {"layouts": [["3g.20gb@0", "1g.5gb"]]})")) ==
      "t.json:/cluster/nodes/a/mig/layouts/0: give a start (@) for every GI of a layout or for "
      "none");
}

TEST_CASE("layouts must be one for all GPUs or one per GPU", "[io]") {
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "mig": {"layouts": [[], []]})")) ==
        "t.json:/cluster/nodes/a/mig/layouts: has 2 layouts but p4d.24xlarge has 8 GPUs (give "
        "one layout for all GPUs, or one per GPU)");
  CHECK(MessageOf(Pool(R"("type": "g4dn.xlarge", "mig": {"layouts": [[]]})")) ==
        "t.json:/cluster/nodes/a/mig/layouts: T4 does not support MIG");
}

TEST_CASE("a MIG config that the GPU model does not have lists the valid ones", "[io]") {
  CHECK(MessageOf(Pool(R"("type": "p4de.24xlarge", "mig": {"config": "all-1g.5gb"})")) ==
        "t.json:/cluster/nodes/a/mig/config: unknown MIG config 'all-1g.5gb' for "
        "A100-SXM4-80GB (valid: all-disabled, all-enabled, all-1g.10gb, all-1g.10gb.me, "
        "all-1g.20gb, all-2g.20gb, all-3g.40gb, all-4g.40gb, all-7g.80gb, all-balanced)");
  CHECK(MessageOf(Pool(R"("type": "g4dn.xlarge", "mig": {"config": "all-1g.5gb"})")) ==
        "t.json:/cluster/nodes/a/mig/config: MIG config 'all-1g.5gb' cannot be applied: T4 does "
        "not support MIG (valid: all-disabled)");
}

TEST_CASE("mig needs exactly one of config and layouts, and a node with GPUs", "[io]") {
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "mig": {})")) ==
        "t.json:/cluster/nodes/a/mig: missing required field 'config' (or 'layouts')");
  CHECK(MessageOf(
            Pool(R"("type": "p4d.24xlarge", "mig": {"config": "all-enabled", "layouts": [[]]})")) ==
        "t.json:/cluster/nodes/a/mig: give either 'config' or 'layouts', not both");
  CHECK(MessageOf(Doc(R"({"node_types": {"cpu": {"vcpu": 4, "memory_gib": 8}},
                          "nodes": {"a": {"type": "cpu", "mig": {"config": "all-disabled"}}}})")) ==
        "t.json:/cluster/nodes/a/mig: node type 'cpu' has no GPUs");
}

TEST_CASE("device plugin settings are checked against the GPU model", "[io]") {
  CHECK(MessageOf(Pool(R"("type": "p4d.24xlarge", "device_plugin": {"mig_strategy": "dual"})")) ==
        "t.json:/cluster/nodes/a/device_plugin/mig_strategy: unknown MIG strategy 'dual' "
        "(valid: none, single, mixed)");
  CHECK(MessageOf(Pool(R"("type": "g5.xlarge",
                          "device_plugin": {"time_slicing": {"replicas": 0}})")) ==
        "t.json:/cluster/nodes/a/device_plugin/time_slicing/replicas: must be >= 1");
  CHECK(MessageOf(Pool(R"("type": "g5.xlarge", "device_plugin": {"time_slicing": {}})")) ==
        "t.json:/cluster/nodes/a/device_plugin/time_slicing: missing required field 'replicas'");
  CHECK(MessageOf(Pool(R"("type": "g5.xlarge", "device_plugin": {"time_slicing":
                          {"replicas": 2, "resources": ["nvidia.com/mig-1g.5gb"]}})")) ==
        "t.json:/cluster/nodes/a/device_plugin/time_slicing/resources/0: cannot time-slice "
        "'nvidia.com/mig-1g.5gb' on A10G (valid: nvidia.com/gpu)");
}

TEST_CASE("reconfigurations name a node or a pool and a config valid for it", "[io]") {
  auto with = [](const std::string& reconfigurations) {
    return Doc(R"({"nodes": {"a": {"type": "p4d.24xlarge", "count": 2}},
                   "reconfigurations": )" +
               reconfigurations + "}");
  };
  CHECK(MessageOf(with(R"([{"at_s": 10, "node": "a-5", "mig_config": "all-1g.5gb"}])")) ==
        "t.json:/cluster/reconfigurations/0/node: unknown node 'a-5' (nodes are named "
        "<pool>-<index>; pools: a)");
  CHECK(MessageOf(with(R"([{"at_s": 10, "pool": "b", "mig_config": "all-1g.5gb"}])")) ==
        "t.json:/cluster/reconfigurations/0/pool: unknown pool 'b' (valid: a)");
  CHECK(MessageOf(with(R"([{"at_s": 10, "mig_config": "all-1g.5gb"}])")) ==
        "t.json:/cluster/reconfigurations/0: missing required field 'node' (or 'pool')");
  CHECK(MessageOf(with(R"([{"at_s": 10, "pool": "a", "mig_config": "all-1g.10gb.me"}])"))
            .rfind("t.json:/cluster/reconfigurations/0/mig_config: unknown MIG config "
                   "'all-1g.10gb.me' for A100-SXM4-40GB (valid: all-disabled, ",
                   0) == 0);
  CHECK(MessageOf(with(R"([{"at_s": 10, "pool": "a", "mig_config": "all-1g.5gb",
                            "duration_s": -1}])")) ==
        "t.json:/cluster/reconfigurations/0/duration_s: must be >= 0");
}

TEST_CASE("two reconfigurations of one node may not overlap", "[io]") {
  const std::string text = Doc(R"({"nodes": {"a": {"type": "p4d.24xlarge", "count": 2}},
    "reconfigurations": [
      {"at_s": 60, "pool": "a", "mig_config": "all-1g.5gb"},
      {"at_s": 30, "node": "a-1", "mig_config": "all-7g.40gb"}]})");
  CHECK(MessageOf(text) ==
        "t.json:/cluster/reconfigurations/0: reconfiguration of node 'a-1' at 60 s overlaps "
        "the one at 30 s, pending until 90 s");
}

TEST_CASE("back-to-back reconfigurations of one node are fine", "[io]") {
  Result<ScenarioFile> loaded =
      ParseScenarioText(Doc(R"({"nodes": {"a": {"type": "p4d.24xlarge"}}, "reconfigurations": [
        {"at_s": 60, "node": "a-0", "mig_config": "all-1g.5gb", "duration_s": 60},
        {"at_s": 0, "node": "a-0", "mig_config": "all-7g.40gb"}]})"),
                        "t.json");
  REQUIRE(loaded.ok());
  const auto& r = loaded.value().variants[0].second.cluster.reconfigurations;
  REQUIRE(r.size() == 2);
  CHECK(r[0].mig_config == "all-7g.40gb");
  CHECK(r[1].mig_config == "all-1g.5gb");
}

}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("MPS settings are checked against the node's GPUs", "[io]") {
  auto error = [](const std::string& pool) {
    Result<ScenarioFile> r = ParseScenarioText(
        R"({"name": "t", "description": "d", "workloads": {}, "cluster": {"nodes": {"a": )" + pool +
            "}}}",
        "t.json");
    REQUIRE_FALSE(r.ok());
    return r.status().ToString();
  };
  CHECK(error(R"({"type": "p4d.24xlarge", "mig": {"config": "all-1g.5gb"},
                  "device_plugin": {"mps": {"replicas": 4}}})") ==
        "t.json:/cluster/nodes/a/device_plugin/mps: sharing using MPS is not supported for MIG "
        "devices (set mig to all-disabled)");
  CHECK(error(R"({"type": "p3.8xlarge", "device_plugin": {"mps": {"replicas": 17}}})") ==
        "t.json:/cluster/nodes/a/device_plugin/mps/replicas: must be <= 16");
  CHECK(error(R"({"type": "p3.8xlarge", "device_plugin": {"mps": {"replicas": 2},
                  "time_slicing": {"replicas": 2}}})") ==
        "t.json:/cluster/nodes/a/device_plugin/mps: time-slicing and MPS are mutually exclusive");
}

TEST_CASE("MPS defaults to failing requests for more than one replica", "[io]") {
  Result<ScenarioFile> r = ParseScenarioText(
      R"({"name": "t", "description": "d", "workloads": {}, "cluster": {"nodes": {"a":
          {"type": "g5.xlarge", "device_plugin": {"mps": {"replicas": 8}}}}}})",
      "t.json");
  REQUIRE(r.ok());
  const DevicePluginConfig& plugin = r.value().variants[0].second.cluster.nodes[0].plugin;
  CHECK(plugin.sharing == SharingMode::kMps);
  CHECK(plugin.fail_requests_greater_than_one);
  CHECK(plugin.shared.at(0).replicas == 8);
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("fractional shares default to 1000 milli per GPU and need MIG off", "[io]") {
  Result<ScenarioFile> ok = ParseScenarioText(
      R"({"name": "t", "description": "d", "workloads": {}, "cluster": {"nodes": {"a":
          {"type": "p4d.24xlarge", "device_plugin": {"fractional": {}}}}}})",
      "t.json");
  REQUIRE(ok.ok());
  const DevicePluginConfig& plugin = ok.value().variants[0].second.cluster.nodes[0].plugin;
  CHECK(plugin.sharing == SharingMode::kFractional);
  CHECK(plugin.shared.at(0).name == "alibabacloud.com/gpu-milli");
  CHECK(plugin.shared.at(0).replicas == 1000);
  Result<ScenarioFile> bad = ParseScenarioText(
      R"({"name": "t", "description": "d", "workloads": {}, "cluster": {"nodes": {"a":
          {"type": "p4d.24xlarge", "mig": {"config": "all-1g.5gb"},
           "device_plugin": {"fractional": {"units": 100}}}}}})",
      "t.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().ToString() ==
        "t.json:/cluster/nodes/a/device_plugin/fractional: fractional shares are of whole GPUs "
        "(set mig to all-disabled)");
}

}  // namespace
}  // namespace migsim

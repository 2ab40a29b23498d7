// The NVIDIA device plugin's config in a ConfigMap, applied to the pools the overlay names:
// what it sets, the exact errors (in the embedded file, with the manifest's lines), and seed
// 004's golden run.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"
#include "tests/golden/scenario_runner.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

// A ConfigMap whose key `any` holds `config` (a literal block, indented by 4).
std::string ConfigMap(const std::string& config, const std::string& extra_keys = "") {
  return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plugin\n  namespace: kube-system\n"
         "data:\n" +
         extra_keys + "  any: |-\n" + config;
}

const std::string kSlicing =
    "    version: v1\n"
    "    flags:\n"
    "      migStrategy: none\n"
    "    sharing:\n"
    "      timeSlicing:\n"
    "        renameByDefault: true\n"
    "        resources:\n"
    "        - name: nvidia.com/gpu\n"
    "          replicas: 4\n";

// Two pools, a V100 one and an A100 one with MIG; `plugin` is manifest_overlay.device_plugin.
std::string WriteScenario(const test::ScratchDir& dir, const std::string& manifest,
                          const std::string& plugin, const std::string& a100_extra = "") {
  dir.Write("cm.yaml", manifest);
  return dir.Write("s.json", R"({"name": "t", "description": "d", "horizon_s": 60,
    "cluster": {"nodes": {"v100": {"type": "p3.8xlarge"},
                          "a100": {"type": "p4d.24xlarge", "mig": {"config": "all-1g.5gb"})" +
                                 a100_extra + R"(}}},
    "workloads": {},
    "manifests": ["cm.yaml"],
    "manifest_overlay": {"device_plugin": )" +
                                 plugin + "}}");
}

const ClusterSpec& Cluster(const Result<ScenarioFile>& loaded) {
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  return loaded.value().variants.front().second.cluster;
}

std::string ErrorOf(const std::string& path) {
  Result<ScenarioFile> loaded = LoadScenarioFile(path);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

}  // namespace

TEST_CASE("the device plugin's ConfigMap sets the plugin of the pools the overlay names",
          "[k8s][device-plugin]") {
  test::ScratchDir dir("plugin");
  const Result<ScenarioFile> loaded = LoadScenarioFile(
      WriteScenario(dir, ConfigMap(kSlicing), R"({"config_map": "plugin", "pools": ["v100"]})"));
  const ClusterSpec& cluster = Cluster(loaded);
  const DevicePluginConfig& v100 = cluster.nodes.at(0).plugin;
  CHECK(v100.strategy == MigStrategy::kNone);
  CHECK(v100.sharing == SharingMode::kTimeSlicing);
  CHECK(v100.shared == std::vector<SharedResource>{{"nvidia.com/gpu", 4}});
  CHECK(v100.rename_by_default);
  CHECK_FALSE(v100.fail_requests_greater_than_one);
  CHECK(cluster.nodes.at(1).plugin == DevicePluginConfig{.strategy = MigStrategy::kMixed});
}

TEST_CASE("without pools the ConfigMap configures every GPU pool, MIG resources included",
          "[k8s][device-plugin]") {
  test::ScratchDir dir("plugin");
  const std::string config =
      "    version: v1\n    sharing:\n      timeSlicing:\n        resources:\n"
      "        - {name: nvidia.com/gpu, replicas: 2}\n";
  const Result<ScenarioFile> loaded =
      LoadScenarioFile(WriteScenario(dir, ConfigMap(config), R"({"config_map": "plugin"})"));
  const ClusterSpec& cluster = Cluster(loaded);
  CHECK(cluster.nodes.at(0).plugin.shared.size() == 1);
  const DevicePluginConfig& a100 = cluster.nodes.at(1).plugin;
  CHECK(a100.strategy == MigStrategy::kMixed);  // no migStrategy: the pool's own
  CHECK(a100.sharing == SharingMode::kTimeSlicing);
}

TEST_CASE("a ConfigMap the overlay does not name changes nothing", "[k8s][device-plugin]") {
  test::ScratchDir dir("plugin");
  dir.Write("cm.yaml", ConfigMap("    not: [a plugin config\n"));
  const std::string path = dir.Write("s.json", R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"v100": {"type": "p3.8xlarge"}}}, "workloads": {},
    "manifests": ["cm.yaml"]})");
  const Result<ScenarioFile> loaded = LoadScenarioFile(path);
  CHECK(Cluster(loaded).nodes.at(0).plugin == DevicePluginConfig{});
}

TEST_CASE("mistakes in the embedded config are reported at the manifest's lines",
          "[k8s][device-plugin]") {
  test::ScratchDir dir("plugin");
  const std::string file = dir.Path("cm.yaml");
  const std::string v100 = R"({"config_map": "plugin", "pools": ["v100"]})";
  auto error = [&](const std::string& config, const std::string& plugin) {
    return ErrorOf(WriteScenario(dir, ConfigMap(config), plugin));
  };
  std::string zero = kSlicing;
  zero.replace(zero.find("replicas: 4"), 11, "replicas: 0");
  CHECK(error(zero, v100) == file +
                                 ": document 1: data.any.sharing.timeSlicing.resources[0]."
                                 "replicas (line 16): must be in 1 .. 10000, got 0");
  std::string mig = kSlicing;
  mig.replace(mig.find("nvidia.com/gpu"), 14, "nvidia.com/mig-1g.5gb");
  CHECK(error(mig, v100) == file +
                                ": document 1: data.any.sharing.timeSlicing.resources[0].name "
                                "(line 15): unknown shared resource on V100-SXM2-16GB "
                                "'nvidia.com/mig-1g.5gb' (valid: nvidia.com/gpu)");
  CHECK(error("    version: v2\n", v100) ==
        file + ": document 1: data.any.version (line 8): unknown version 'v2' (valid: v1)");
  CHECK(error("    version: v1\n    sharing:\n      mps:\n        resources:\n"
              "        - {name: nvidia.com/gpu, replicas: 2}\n",
              R"({"config_map": "plugin", "pools": ["a100"]})") ==
        file +
            ": document 1: data.any.sharing.mps (line 11): sharing using MPS is not "
            "supported for MIG devices (node 'a100-0' has MIG enabled)");
  CHECK(error("    version: v1\n    flags: [\n", v100)
            .find(file + ": document 1: data.any:line 9, column 1: malformed YAML") == 0);
}

TEST_CASE("the overlay's device_plugin must name a ConfigMap, a key and pools that exist",
          "[k8s][device-plugin]") {
  test::ScratchDir dir("plugin");
  const std::string scenario = dir.Path("s.json");
  CHECK(ErrorOf(WriteScenario(dir, ConfigMap(kSlicing), R"({"config_map": "plugins"})")) ==
        scenario +
            ":/manifest_overlay/device_plugin/config_map: unknown ConfigMap 'plugins' (valid: "
            "plugin)");
  CHECK(ErrorOf(WriteScenario(dir, ConfigMap(kSlicing, "  other: x\n"),
                              R"({"config_map": "plugin"})")) ==
        scenario +
            ":/manifest_overlay/device_plugin: ConfigMap 'plugin' has 2 data keys: name the "
            "config's with 'key'");
  CHECK(ErrorOf(WriteScenario(dir, ConfigMap(kSlicing),
                              R"({"config_map": "plugin", "pools": ["p4"]})")) ==
        scenario +
            ":/manifest_overlay/device_plugin/pools/0: unknown pool 'p4' (valid: v100, a100)");
  CHECK(ErrorOf(WriteScenario(dir, ConfigMap(kSlicing), R"({"config_map": "plugin"})",
                              R"(, "device_plugin": {"mig_strategy": "single"})")) ==
        scenario +
            ":/manifest_overlay/device_plugin: pool 'a100' sets device_plugin in the scenario "
            "too: give its configuration in one place");
}

TEST_CASE("seed 004's time-slicing ConfigMap prints what the JSON scenario prints",
          "[k8s][device-plugin][golden]") {
  const std::string manifests = testing::CliVariantResults("manifests-seed-004");
  CHECK(manifests == testing::CliVariantResults("timeslice-cifar10"));
  CHECK(manifests.find("\"pending\": 1") != std::string::npos);  // no-sharing: 4 of 5 run
}

}  // namespace migsim

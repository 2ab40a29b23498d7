// mig-parted config files: the YAML reader's errors, and pools whose MIG configs come
// from such a file (`mig.mig_parted`), relabels included.

#include "sim/io/mig_parted_yaml.h"

#include <catch2/catch.hpp>
#include <string>

#include "sim/cluster/mig_layout.h"
#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

const std::string kExample = std::string(MIGSIM_SOURCE_DIR) + "/tests/golden/mig-parted/config.yaml";

std::string Error(const std::string& yaml) {
  Result<MigPartedFile> r = ParseMigParted(yaml, "c.yaml");
  REQUIRE_FALSE(r.ok());
  return r.status().ToString();
}

}  // namespace

TEST_CASE("a mig-parted file reads its configs, specs, device filters and GPU instances",
          "[io][mig]") {
  Result<MigPartedFile> file = LoadMigPartedFile(kExample);
  REQUIRE(file.ok());
  REQUIRE(file.value().configs.size() == 3);
  const std::vector<MigPartedSpec>& split = file.value().configs.at("half-train-half-infer");
  REQUIRE(split.size() == 2);
  CHECK(split[0].devices == std::vector<int>{0, 1, 2, 3});
  CHECK(split[0].mig_enabled);
  CHECK(split[1].mig_devices == std::vector<std::pair<std::string, int>>{{"1g.5gb", 7}});
  const std::vector<MigPartedSpec>& by_model = file.value().configs.at("balanced-by-model");
  CHECK(by_model[0].filter == std::vector<uint32_t>{0x20B0, 0x20B1, 0x20F1, 0x20F6});
  CHECK(by_model[0].devices.empty());  // all
  CHECK(by_model[1].filter == std::vector<uint32_t>{0x2335});
  CHECK(by_model[1].line == 29);  // where "- device-filter" starts it
}

TEST_CASE("a malformed mig-parted file is an error at its line", "[io][mig]") {
  CHECK(Error("version: v2\n") == "c.yaml:line 1: unknown version 'v2' (expected v1)");
  CHECK(Error("") == "c.yaml:line 1: empty file: expected version and mig-configs");
  CHECK(Error("version: v1\nmig-configs: [\n") ==
        "c.yaml:line 3, column 1: malformed YAML: end of sequence flow not found");
  // Text after the config is not ignored: a second document, or a stray ','.
  CHECK(Error("version: v1\nmig-configs: {}\n---\nversion: v1\n") ==
        "c.yaml:line 4: a mig-parted config is one YAML document, found 2");
  CHECK(Error("[a],") ==
        "c.yaml:line 1, column 4: malformed YAML: unexpected ',' where a document or value "
        "should begin");
  CHECK(Error("version: v1\nmig-config: {}\n") ==
        "c.yaml:line 2: unknown key 'mig-config' in the file (expected one of: mig-configs, "
        "version)");
  const std::string head = "version: v1\nmig-configs:\n  x:\n    - devices: ";
  CHECK(Error(head + "some\n      mig-enabled: false\n") ==
        "c.yaml:line 4: devices must be 'all' or a list of GPU indices");
  CHECK(Error(head + "[0, 0]\n      mig-enabled: false\n") ==
        "c.yaml:line 4: GPU 0 is listed twice");
  CHECK(Error(head + "all\n      mig-enabled: true\n") ==
        "c.yaml:line 4: a spec with mig-enabled: true needs 'mig-devices' ({} for none)");
  CHECK(Error(head + "all\n      mig-enabled: false\n      mig-devices: {1g.5gb: 1}\n") ==
        "c.yaml:line 6: mig-devices must be empty when mig-enabled is false");
  CHECK(Error(head + "all\n      device-filter: 0x20B0\n      mig-enabled: false\n") ==
        "c.yaml:line 5: device filter '0x20B0' is not 0x<device><vendor>, e.g. 0x20B010DE");
  CHECK(Error(head + "all\n      mig-enabled: true\n      mig-devices: {1g.5gb: -1}\n") ==
        "c.yaml:line 6: a count '-1' is not an integer in 0..1000000");
}

TEST_CASE("a pool's MIG configs and relabels resolve in its mig-parted file, not the catalog",
          "[io][mig]") {
  const std::string doc = R"({"name": "t", "description": "d", "horizon_s": 100, "workloads": {},
    "cluster": {"nodes": {"p4d": {"type": "p4d.24xlarge",
      "device_plugin": {"mig_strategy": "mixed"},
      "mig": {"config": "half-train-half-infer", "mig_parted": ")" + kExample + R"("}}},
    "reconfigurations": [{"at_s": 10, "pool": "p4d", "mig_config": "RELABEL"}]}})";
  auto with = [&](const std::string& relabel) {
    std::string text = doc;
    text.replace(text.find("RELABEL"), 7, relabel);
    return ParseScenarioText(text, "t.json");
  };
  const Result<ScenarioFile> loaded = with("balanced-by-model");
  REQUIRE(loaded.ok());
  const ClusterSpec& cluster = loaded.value().variants[0].second.cluster;
  const GpuModel& a100 = *cluster.nodes[0].type->gpu;
  CHECK(cluster.nodes[0].mig_config == "half-train-half-infer");
  CHECK(DescribeLayout(a100, cluster.nodes[0].gpus[3].layout) == "7g.40gb@0");
  CHECK(cluster.nodes[0].gpus[4].layout.size() == 7);
  CHECK(DescribeLayout(a100, cluster.reconfigurations[0].gpus[7].layout) ==
        "2g.10gb@0 + 1g.5gb@2 + 1g.5gb@3 + 3g.20gb@4");
  // A catalog name the file does not define is not valid on this pool.
  const Result<ScenarioFile> catalog = with("all-1g.5gb");
  REQUIRE_FALSE(catalog.ok());
  CHECK(catalog.status().ToString() ==
        "t.json:/cluster/reconfigurations/0/mig_config: no MIG config 'all-1g.5gb' in " +
            kExample + " (it has: all-disabled, balanced-by-model, half-train-half-infer)");
}

}  // namespace migsim

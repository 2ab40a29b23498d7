#include "sim/cluster/device_plugin.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "sim/cluster/node_type.h"
#include "tests/support/catalog_model.h"

namespace migsim {
namespace {

using Advertised = std::map<std::string, int>;

using test::Model;

// The GPUs of one node of `node_type`, all set to the named mig-parted config.
std::vector<GpuMigSetting> Gpus(const char* node_type, const char* config) {
  const NodeType* type = FindNodeType(node_type);
  REQUIRE(type != nullptr);
  Result<GpuMigSetting> setting = ResolveMigConfig(*type->gpu, config);
  REQUIRE(setting.ok());
  return std::vector<GpuMigSetting>(type->gpu_count, setting.value());
}

DevicePluginConfig Strategy(MigStrategy strategy) {
  DevicePluginConfig config;
  config.strategy = strategy;
  return config;
}

DevicePluginConfig TimeSliced(MigStrategy strategy, const char* resource, int replicas) {
  DevicePluginConfig config = Strategy(strategy);
  config.sharing = SharingMode::kTimeSlicing;
  config.shared = {{resource, replicas}};
  return config;
}

PluginView P4d(const char* config, MigStrategy strategy) {
  return DerivePluginView(Model("A100-SXM4-40GB"), Gpus("p4d.24xlarge", config),
                          Strategy(strategy));
}

TEST_CASE("mixed strategy on a p4d with all-1g.5gb advertises 56 mig-1g.5gb and 0 gpu",
          "[cluster][device_plugin]") {
  PluginView view = P4d("all-1g.5gb", MigStrategy::kMixed);
  CHECK(view.healthy);
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 0}, {"nvidia.com/mig-1g.5gb", 56}});
  CHECK(view.devices.size() == 56);
  CHECK(view.labels.at("nvidia.com/mig-1g.5gb.count") == "56");
  CHECK(view.labels.at("nvidia.com/mig-1g.5gb.memory") == "4864");
  CHECK(view.labels.at("nvidia.com/mig-1g.5gb.multiprocessors") == "14");
  CHECK(view.labels.at("nvidia.com/gpu.product") == "NVIDIA-A100-SXM4-40GB");
  CHECK(view.labels.at("nvidia.com/gpu.count") == "8");
  CHECK(view.labels.at("nvidia.com/mig.strategy") == "mixed");
  CHECK(view.labels.at("nvidia.com/mig.capable") == "true");
}

TEST_CASE("mixed strategy on a p4d with all-balanced advertises 16/8/8",
          "[cluster][device_plugin]") {
  PluginView view = P4d("all-balanced", MigStrategy::kMixed);
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 0},
                                      {"nvidia.com/mig-1g.5gb", 16},
                                      {"nvidia.com/mig-2g.10gb", 8},
                                      {"nvidia.com/mig-3g.20gb", 8}});
  CHECK(view.labels.at("nvidia.com/mig-3g.20gb.count") == "8");
  CHECK(view.labels.at("nvidia.com/mig-3g.20gb.multiprocessors") == "42");
}

TEST_CASE("single strategy with uniform MIG devices advertises them as nvidia.com/gpu",
          "[cluster][device_plugin]") {
  PluginView view = P4d("all-1g.5gb", MigStrategy::kSingle);
  CHECK(view.healthy);
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 56}});
  CHECK(view.labels.at("nvidia.com/gpu.product") == "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb");
  CHECK(view.labels.at("nvidia.com/gpu.count") == "56");
  CHECK(view.labels.at("nvidia.com/gpu.memory") == "4864");
  CHECK(view.labels.at("nvidia.com/mig.strategy") == "single");
  REQUIRE(view.devices.size() == 56);
  CHECK(view.devices[0].resource == "nvidia.com/gpu");
  CHECK(view.devices[0].compute_slices == 1);
}

void CheckInvalid(const PluginView& view, const std::string& error) {
  CHECK_FALSE(view.healthy);
  CHECK(view.error == error);
  CHECK(view.devices.empty());
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 0}});
  CHECK(view.labels.at("nvidia.com/gpu.product") == "NVIDIA-A100-SXM4-40GB-MIG-INVALID");
  CHECK(view.labels.at("nvidia.com/gpu.count") == "0");
}

TEST_CASE("single strategy refuses a node it cannot serve uniformly", "[cluster][device_plugin]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  const DevicePluginConfig single = Strategy(MigStrategy::kSingle);
  SECTION("more than one MIG profile") {
    CheckInvalid(P4d("all-balanced", MigStrategy::kSingle),
                 "more than one MIG device type present on node");
  }
  SECTION("different profiles on different GPUs") {
    std::vector<GpuMigSetting> gpus = Gpus("p4d.24xlarge", "all-1g.5gb");
    gpus[3] = ResolveMigConfig(a100, "all-7g.40gb").value();
    CheckInvalid(DerivePluginView(a100, gpus, single),
                 "more than one MIG device type present on node");
  }
  SECTION("MIG on for some GPUs and off for others") {
    std::vector<GpuMigSetting> gpus = Gpus("p4d.24xlarge", "all-1g.5gb");
    gpus[5] = GpuMigSetting{};
    CheckInvalid(DerivePluginView(a100, gpus, single),
                 "all devices on the node must be configured with the same migEnabled value");
  }
  SECTION("a MIG-enabled GPU without GIs") {
    CheckInvalid(P4d("all-enabled", MigStrategy::kSingle),
                 "GPU 0 has MIG enabled but no MIG devices");
  }
}

TEST_CASE("single strategy serves whole GPUs when no GPU has MIG on", "[cluster][device_plugin]") {
  PluginView view = P4d("all-disabled", MigStrategy::kSingle);
  CHECK(view.healthy);
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 8}});
  CHECK(view.labels.at("nvidia.com/gpu.product") == "NVIDIA-A100-SXM4-40GB");
  CHECK(view.labels.at("nvidia.com/gpu.count") == "8");
}

TEST_CASE("strategy none advertises one nvidia.com/gpu per physical GPU, ignoring MIG",
          "[cluster][device_plugin]") {
  for (const char* config : {"all-disabled", "all-1g.5gb", "all-balanced"}) {
    PluginView view = P4d(config, MigStrategy::kNone);
    CAPTURE(config);
    CHECK(view.healthy);
    CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 8}});
    REQUIRE(view.devices.size() == 8);
    CHECK(view.devices[7].gpu == 7);
    CHECK(view.devices[7].gi == -1);
    CHECK(view.devices[7].compute_slices == 7);
    CHECK(view.devices[7].memory_mib == 40960);
    CHECK(view.labels.count("nvidia.com/mig.strategy") == 0);
  }
}

TEST_CASE("mixed strategy serves MIG-off GPUs as whole nvidia.com/gpu",
          "[cluster][device_plugin]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  std::vector<GpuMigSetting> gpus = Gpus("p4d.24xlarge", "all-disabled");
  gpus[2] = ResolveMigConfig(a100, "all-3g.20gb").value();
  gpus[6] = ResolveMigConfig(a100, "all-enabled").value();
  PluginView view = DerivePluginView(a100, gpus, Strategy(MigStrategy::kMixed));
  CHECK(view.healthy);
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 6}, {"nvidia.com/mig-3g.20gb", 2}});
}

TEST_CASE("time-slicing a p3.8xlarge with 10 replicas advertises 40 nvidia.com/gpu",
          "[cluster][device_plugin]") {
  const GpuModel& v100 = Model("V100-SXM2-16GB");
  DevicePluginConfig config = TimeSliced(MigStrategy::kNone, "nvidia.com/gpu", 10);
  std::vector<GpuMigSetting> gpus = Gpus("p3.8xlarge", "all-disabled");
  SECTION("under the original name") {
    PluginView view = DerivePluginView(v100, gpus, config);
    CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 40}});
    REQUIRE(view.devices.size() == 4);
    CHECK(view.devices[0].replicas == 10);
    CHECK(view.devices[0].shared);
    CHECK(view.devices[0].compute_slices == 1);
    CHECK(view.devices[0].memory_mib == 16384);
    CHECK(view.labels.at("nvidia.com/gpu.product") == "Tesla-V100-SXM2-16GB-SHARED");
    CHECK(view.labels.at("nvidia.com/gpu.replicas") == "10");
    CHECK(view.labels.at("nvidia.com/gpu.count") == "4");
    CHECK(view.labels.at("nvidia.com/gpu.sharing-strategy") == "time-slicing");
    CHECK(view.labels.at("nvidia.com/mig.capable") == "false");
    CHECK(view.labels.count("nvidia.com/mig.strategy") == 0);
  }
  SECTION("renamed by default") {
    config.rename_by_default = true;
    PluginView view = DerivePluginView(v100, gpus, config);
    CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 0}, {"nvidia.com/gpu.shared", 40}});
    CHECK(view.devices[0].resource == "nvidia.com/gpu.shared");
    CHECK(view.labels.at("nvidia.com/gpu.product") == "Tesla-V100-SXM2-16GB");
  }
}

TEST_CASE("without time-slicing, devices are exclusive with one replica",
          "[cluster][device_plugin]") {
  PluginView view = DerivePluginView(Model("T4"), Gpus("g4dn.12xlarge", "all-disabled"), {});
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 4}});
  CHECK(view.labels.at("nvidia.com/gpu.replicas") == "1");
  CHECK(view.labels.at("nvidia.com/gpu.sharing-strategy") == "none");
  CHECK(view.labels.at("nvidia.com/gpu.memory") == "15360");
  for (const PluginDevice& device : view.devices) {
    CHECK(device.replicas == 1);
    CHECK_FALSE(device.shared);
  }
}

TEST_CASE("time-slicing a MIG resource leaves the unlisted ones exclusive",
          "[cluster][device_plugin]") {
  DevicePluginConfig config = TimeSliced(MigStrategy::kMixed, "nvidia.com/mig-1g.5gb", 4);
  PluginView view =
      DerivePluginView(Model("A100-SXM4-40GB"), Gpus("p4d.24xlarge", "all-balanced"), config);
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 0},
                                      {"nvidia.com/mig-1g.5gb", 64},
                                      {"nvidia.com/mig-2g.10gb", 8},
                                      {"nvidia.com/mig-3g.20gb", 8}});
  CHECK(view.labels.at("nvidia.com/mig-1g.5gb.replicas") == "4");
  CHECK(view.labels.at("nvidia.com/mig-1g.5gb.count") == "16");
  CHECK(view.labels.at("nvidia.com/mig-1g.5gb.product") ==
        "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED");
  CHECK(view.labels.at("nvidia.com/mig-2g.10gb.replicas") == "1");
  CHECK(view.labels.at("nvidia.com/gpu.replicas") == "1");
  config.rename_by_default = true;
  view = DerivePluginView(Model("A100-SXM4-40GB"), Gpus("p4d.24xlarge", "all-balanced"), config);
  CHECK(view.advertised.at("nvidia.com/mig-1g.5gb.shared") == 64);
  CHECK(view.advertised.count("nvidia.com/mig-1g.5gb") == 0);
}

TEST_CASE("devices are ordered by GPU, then by GI start", "[cluster][device_plugin]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  const int one = a100.FindProfile("1g.5gb"), two = a100.FindProfile("2g.10gb"),
            three = a100.FindProfile("3g.20gb");
  GpuMigSetting gpu = {.mig_enabled = true, .layout = {{three, 4}, {one, 3}, {two, 0}, {one, 2}}};
  PluginView view =
      DerivePluginView(a100, std::vector<GpuMigSetting>{gpu, gpu}, Strategy(MigStrategy::kMixed));
  REQUIRE(view.devices.size() == 8);
  const std::vector<int> expected_gi = {2, 3, 1, 0};
  for (size_t i = 0; i < view.devices.size(); ++i) {
    CHECK(view.devices[i].gpu == static_cast<int>(i / 4));
    CHECK(view.devices[i].gi == expected_gi[i % 4]);
  }
  CHECK(view.devices[2].resource == "nvidia.com/mig-1g.5gb");
  CHECK(view.devices[3].resource == "nvidia.com/mig-3g.20gb");
  CHECK(view.devices[3].compute_slices == 3);
  CHECK(view.devices[3].memory_mib == 20091);  // round(19.62 * 1024)
}

TEST_CASE("a +me GI is advertised under its dotted name", "[cluster][device_plugin]") {
  PluginView view = P4d("all-1g.5gb.me", MigStrategy::kMixed);
  CHECK(view.advertised == Advertised{{"nvidia.com/gpu", 0}, {"nvidia.com/mig-1g.5gb.me", 8}});
  CHECK(view.labels.at("nvidia.com/mig-1g.5gb.me.count") == "8");
}

TEST_CASE("a node without GPUs advertises nothing", "[cluster][device_plugin]") {
  PluginView view = DerivePluginView(Model("T4"), {}, {});
  CHECK(view.healthy);
  CHECK(view.devices.empty());
  CHECK(view.advertised.empty());
  CHECK(view.labels.empty());
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("MPS advertises each whole GPU replicas times with the mps strategy labels",
          "[cluster][device_plugin]") {
  const GpuModel& v100 = *FindGpuModel("V100-SXM2-16GB");
  DevicePluginConfig config;
  config.sharing = SharingMode::kMps;
  config.shared = {{.name = "nvidia.com/gpu", .replicas = 4}};
  std::vector<GpuMigSetting> gpus(4);
  PluginView view = DerivePluginView(v100, gpus, config);
  CHECK(view.advertised.at("nvidia.com/gpu") == 16);
  CHECK(view.devices.at(0).mps);
  CHECK(view.devices.at(0).shared);
  CHECK(view.labels.at("nvidia.com/gpu.sharing-strategy") == "mps");
  CHECK(view.labels.at("nvidia.com/mps.capable") == "true");
  CHECK(MaxMpsClients(v100) == 16);
  CHECK(MaxMpsClients(*FindGpuModel("A100-SXM4-40GB")) == 48);
}

}  // namespace
}  // namespace migsim

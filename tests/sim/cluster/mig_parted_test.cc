#include "sim/cluster/mig_parted.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/cluster/mig_layout.h"
#include "tests/support/catalog_model.h"

namespace migsim {
namespace {

using test::Model;

MigPartedSpec Spec(int line, std::vector<int> devices, bool enabled,
                   std::vector<std::pair<std::string, int>> gis = {},
                   std::vector<uint32_t> filter = {}) {
  return MigPartedSpec{.line = line, .devices = std::move(devices), .filter = std::move(filter),
                       .mig_enabled = enabled, .mig_devices = std::move(gis)};
}

std::string Describe(const GpuModel& model, const GpuMigSetting& gpu) {
  return gpu.mig_enabled ? DescribeLayout(model, gpu.layout) : "MIG off";
}

}  // namespace

TEST_CASE("a mig-parted config gives each GPU the spec that selects it, placed as mig-parted does",
          "[cluster][mig]") {
  const GpuModel& a100 = Model("A100-40GB");
  const MigPartedFile file{
      .path = "c.yaml",
      .configs = {{"split",
                   {Spec(3, {0, 1}, true, {{"7g.40gb", 1}}),
                    Spec(7, {2}, true, {{"1g.5gb", 2}, {"3g.20gb", 1}, {"2g.10gb", 1}}),
                    Spec(12, {3}, false)}}}};
  const Result<std::vector<GpuMigSetting>> gpus = ResolveMigParted(file, "split", a100, 4);
  REQUIRE(gpus.ok());
  REQUIRE(gpus.value().size() == 4);
  CHECK(Describe(a100, gpus.value()[0]) == "7g.40gb@0");
  CHECK(Describe(a100, gpus.value()[1]) == "7g.40gb@0");
  CHECK(Describe(a100, gpus.value()[2]) == "2g.10gb@0 + 1g.5gb@2 + 1g.5gb@3 + 3g.20gb@4");
  CHECK(Describe(a100, gpus.value()[3]) == "MIG off");
}

TEST_CASE("a device filter picks the spec for the node's GPU model", "[cluster][mig]") {
  const MigPartedFile file{
      .path = "c.yaml",
      .configs = {{"by-model",
                   {Spec(2, {}, true, {{"1g.5gb", 7}}, {0x20B0, 0x20B1}),
                    Spec(8, {}, true, {{"1g.18gb", 7}}, {0x2335})}}}};
  const Result<std::vector<GpuMigSetting>> a100 =
      ResolveMigParted(file, "by-model", Model("A100-40GB"), 2);
  REQUIRE(a100.ok());
  CHECK(a100.value()[1].layout.size() == 7);
  const Result<std::vector<GpuMigSetting>> h200 =
      ResolveMigParted(file, "by-model", Model("H200-141GB"), 1);
  REQUIRE(h200.ok());
  CHECK(Describe(Model("H200-141GB"), h200.value()[0]).starts_with("1g.18gb@0"));
  // An A30 matches neither filter: its GPUs are selected by no spec.
  CHECK(ResolveMigParted(file, "by-model", Model("A30"), 1).status().ToString() ==
        "c.yaml: config 'by-model' selects no spec for GPU 0 (A30-24GB)");
}

TEST_CASE("mig-parted configs that do not give each GPU one valid layout are errors at the spec",
          "[cluster][mig]") {
  const GpuModel& a100 = Model("A100-40GB");
  const MigPartedFile file{
      .path = "c.yaml",
      .configs = {{"twice", {Spec(2, {}, false), Spec(5, {1}, false)}},
                  {"unknown-profile", {Spec(9, {}, true, {{"1g.10gb+me", 1}})}},
                  {"too-many", {Spec(12, {}, true, {{"3g.20gb", 3}})}}}};
  CHECK(ResolveMigParted(file, "twice", a100, 2).status().ToString() ==
        "c.yaml:line 5: config 'twice': GPU 1 is also selected by the spec on line 2");
  CHECK(ResolveMigParted(file, "unknown-profile", a100, 1).status().ToString() ==
        "c.yaml:line 9: '1g.10gb+me' is not a MIG profile of A100-SXM4-40GB");
  CHECK(ResolveMigParted(file, "too-many", a100, 1).status().ToString() ==
        "c.yaml:line 12: 3 x 3g.20gb exceeds its maximum of 2 per GPU");
  CHECK(ResolveMigParted(file, "all-1g.5gb", a100, 1).status().ToString() ==
        "no MIG config 'all-1g.5gb' in c.yaml (it has: too-many, twice, unknown-profile)");
  CHECK(ResolveMigParted(file, "twice", Model("T4"), 1).ok());  // MIG off works anywhere
}

}  // namespace migsim

#include "sim/cluster/mig_config.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>
#include "tests/support/catalog_model.h"

namespace migsim {
namespace {

using test::Model;

GpuMigSetting Resolve(const GpuModel& model, const char* config) {
  Result<GpuMigSetting> setting = ResolveMigConfig(model, config);
  INFO(config << " on " << model.name);
  REQUIRE(setting.ok());
  return setting.value();
}

// Profile name -> number of GIs.
std::map<std::string, int> ProfileCounts(const GpuModel& model, const GpuMigSetting& setting) {
  std::map<std::string, int> counts;
  for (const MigPlacement& p : setting.layout) ++counts[model.profiles[p.profile].name];
  return counts;
}

TEST_CASE("all-1g.5gb on an A100-40GB creates seven 1g.5gb at slices 0 to 6",
          "[cluster][mig_config]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  GpuMigSetting setting = Resolve(a100, "all-1g.5gb");
  CHECK(setting.mig_enabled);
  REQUIRE(setting.layout.size() == 7);
  for (int i = 0; i < 7; ++i) {
    CHECK(setting.layout[i] == MigPlacement{a100.FindProfile("1g.5gb"), i});
  }
}

TEST_CASE("all-<profile> creates the profile's maximum count", "[cluster][mig_config]") {
  const GpuModel& a100 = Model("A100-SXM4-40GB");
  CHECK(ProfileCounts(a100, Resolve(a100, "all-1g.10gb")) ==
        std::map<std::string, int>{{"1g.10gb", 4}});
  CHECK(ProfileCounts(a100, Resolve(a100, "all-2g.10gb")) ==
        std::map<std::string, int>{{"2g.10gb", 3}});
  CHECK(ProfileCounts(a100, Resolve(a100, "all-3g.20gb")) ==
        std::map<std::string, int>{{"3g.20gb", 2}});
  CHECK(ProfileCounts(a100, Resolve(a100, "all-7g.40gb")) ==
        std::map<std::string, int>{{"7g.40gb", 1}});
  CHECK(ProfileCounts(a100, Resolve(a100, "all-1g.5gb.me")) ==
        std::map<std::string, int>{{"1g.5gb+me", 1}});
  const GpuModel& a100_80 = Model("A100-SXM4-80GB");
  CHECK(ProfileCounts(a100_80, Resolve(a100_80, "all-1g.10gb")) ==
        std::map<std::string, int>{{"1g.10gb", 7}});
  CHECK(ProfileCounts(a100_80, Resolve(a100_80, "all-1g.10gb.me")) ==
        std::map<std::string, int>{{"1g.10gb+me", 1}});
  const GpuModel& a30 = Model("A30");
  CHECK(ProfileCounts(a30, Resolve(a30, "all-1g.6gb")) ==
        std::map<std::string, int>{{"1g.6gb", 4}});
  CHECK(ProfileCounts(a30, Resolve(a30, "all-2g.12gb.me")) ==
        std::map<std::string, int>{{"2g.12gb+me", 1}});
}

TEST_CASE("all-balanced uses the base profile with the highest max count per size",
          "[cluster][mig_config]") {
  using Counts = std::map<std::string, int>;
  const std::map<std::string, Counts> expected = {
      {"A100-SXM4-40GB", {{"1g.5gb", 2}, {"2g.10gb", 1}, {"3g.20gb", 1}}},
      {"A100-SXM4-80GB", {{"1g.10gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}}},
      {"H100-SXM5-80GB", {{"1g.10gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}}},
      {"H200-SXM5-141GB", {{"1g.18gb", 2}, {"2g.35gb", 1}, {"3g.71gb", 1}}},
      {"A30-24GB", {{"1g.6gb", 2}, {"2g.12gb", 1}}},
  };
  for (const auto& [name, counts] : expected) {
    const GpuModel& model = Model(name.c_str());
    CAPTURE(name);
    GpuMigSetting setting = Resolve(model, "all-balanced");
    CHECK(setting.mig_enabled);
    CHECK(ProfileCounts(model, setting) == counts);
  }
}

TEST_CASE("all-disabled turns MIG off on every GPU, MIG-capable or not", "[cluster][mig_config]") {
  for (const GpuModel& model : AllGpuModels()) {
    CAPTURE(model.name);
    GpuMigSetting setting = Resolve(model, "all-disabled");
    CHECK_FALSE(setting.mig_enabled);
    CHECK(setting.layout.empty());
  }
}

TEST_CASE("all-enabled turns MIG on without GIs", "[cluster][mig_config]") {
  GpuMigSetting setting = Resolve(Model("H100-80GB"), "all-enabled");
  CHECK(setting.mig_enabled);
  CHECK(setting.layout.empty());
}

TEST_CASE("a config for another model's profiles is rejected with the valid names",
          "[cluster][mig_config]") {
  Result<GpuMigSetting> setting = ResolveMigConfig(Model("A100-SXM4-80GB"), "all-1g.5gb");
  REQUIRE_FALSE(setting.ok());
  CHECK(setting.status().code() == StatusCode::kNotFound);
  CHECK(setting.status().message() ==
        "unknown MIG config 'all-1g.5gb' for A100-SXM4-80GB (valid: all-disabled, all-enabled, "
        "all-1g.10gb, all-1g.10gb.me, all-1g.20gb, all-2g.20gb, all-3g.40gb, all-4g.40gb, "
        "all-7g.80gb, all-balanced)");
  CHECK_FALSE(ResolveMigConfig(Model("A100-SXM4-40GB"), "all-1g.5gb+me").ok());
  CHECK_FALSE(ResolveMigConfig(Model("A100-SXM4-40GB"), "").ok());
}

TEST_CASE("a MIG config on a GPU without MIG is rejected", "[cluster][mig_config]") {
  for (const char* config : {"all-1g.5gb", "all-enabled", "all-balanced", "custom"}) {
    Result<GpuMigSetting> setting = ResolveMigConfig(Model("V100-SXM2-16GB"), config);
    CAPTURE(config);
    REQUIRE_FALSE(setting.ok());
    CHECK(setting.status().code() == StatusCode::kInvalidArgument);
    CHECK(setting.status().message() == "MIG config '" + std::string(config) +
                                            "' cannot be applied: V100-SXM2-16GB does not "
                                            "support MIG (valid: all-disabled)");
  }
}

TEST_CASE("config names are listed in a fixed order per model", "[cluster][mig_config]") {
  CHECK(MigConfigNames(Model("A100-SXM4-40GB")) ==
        std::vector<std::string>{"all-disabled", "all-enabled", "all-1g.5gb", "all-1g.5gb.me",
                                 "all-1g.10gb", "all-2g.10gb", "all-3g.20gb", "all-4g.20gb",
                                 "all-7g.40gb", "all-balanced"});
  CHECK(MigConfigNames(Model("A30")) ==
        std::vector<std::string>{"all-disabled", "all-enabled", "all-1g.6gb", "all-1g.6gb.me",
                                 "all-2g.12gb", "all-2g.12gb.me", "all-4g.24gb", "all-balanced"});
  CHECK(MigConfigNames(Model("T4")) == std::vector<std::string>{"all-disabled"});
}

TEST_CASE("every listed config resolves to a valid layout", "[cluster][mig_config]") {
  for (const GpuModel& model : AllGpuModels()) {
    for (const std::string& name : MigConfigNames(model)) {
      CAPTURE(model.name, name);
      Result<GpuMigSetting> setting = ResolveMigConfig(model, name);
      REQUIRE(setting.ok());
      CHECK(ValidateLayout(model, setting.value().layout).ok());
    }
  }
}

}  // namespace
}  // namespace migsim

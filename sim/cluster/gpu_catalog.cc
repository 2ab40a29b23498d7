#include "sim/cluster/gpu_catalog.h"

#include <array>
#include <utility>

// Every number in this file comes from ../shared/docs/domain.md: §1.2 and §1.3 for the MIG
// profile tables, §1.8 and §5 for whole-GPU memory and SM counts; but the power figures,
// read on 2026-11-28 as cited in WithPower's callers: the cap is the `Pwr:Usage/Cap` limit
// of published nvidia-smi tables (and the board's datasheet TDP where one was found), the
// idle draw the median of the readings with no process and 0 % utilization.

namespace migsim {
namespace {

// What differs between the models that share a placement table.
struct ProfileFacts {
  const char* name;
  double memory_gib;
  int sms;
};

// What the placement table fixes for a profile.
struct ProfileShape {
  int profile_id = 0;
  int compute_slices = 0;
  int memory_slices = 0;
  int max_count = 0;
  std::vector<int> starts;
  bool media_extensions = false;
  bool classic = false;
};

MigProfile MakeProfile(const ProfileFacts& facts, ProfileShape shape) {
  return MigProfile{.name = facts.name,
                    .profile_id = shape.profile_id,
                    .compute_slices = shape.compute_slices,
                    .memory_slices = shape.memory_slices,
                    .memory_gib = facts.memory_gib,
                    .sms = facts.sms,
                    .max_count = shape.max_count,
                    .starts = std::move(shape.starts),
                    .media_extensions = shape.media_extensions,
                    .classic = shape.classic};
}

// A100, H100 and H200 share one placement table (domain.md §1.3): IDs 19/20 {0..6}:1,
// 15 {0,2,4,6}:2, 14 {0,2,4}:2, 9 {0,4}:4, 5 {0}:4, 0 {0}:8. `facts` lists the seven
// profiles in that order: 1g, 1g+me, double-memory 1g, 2g, 3g, 4g, 7g.
std::vector<MigProfile> EightSlotProfiles(const std::array<ProfileFacts, 7>& facts) {
  const std::vector<int> one_slice_starts = {0, 1, 2, 3, 4, 5, 6};
  return {
      MakeProfile(facts[0], {19, 1, 1, 7, one_slice_starts, false, true}),
      MakeProfile(facts[1], {20, 1, 1, 1, one_slice_starts, true, false}),
      // The double-memory 1g is not classic: it leaves SM slices idle (4 x 1g.10gb on an
      // A100-40GB uses 4 of 7) and is not part of the 19 classic layouts.
      MakeProfile(facts[2], {15, 1, 2, 4, {0, 2, 4, 6}, false, false}),
      MakeProfile(facts[3], {14, 2, 2, 3, {0, 2, 4}, false, true}),
      MakeProfile(facts[4], {9, 3, 4, 2, {0, 4}, false, true}),
      MakeProfile(facts[5], {5, 4, 4, 1, {0}, false, true}),
      MakeProfile(facts[6], {0, 7, 8, 1, {0}, false, true}),
  };
}

GpuModel EightSlotModel(const char* name, const char* product_label, int memory_mib, int sms,
                        const std::array<ProfileFacts, 7>& facts) {
  return GpuModel{.name = name,
                  .product_label = product_label,
                  .memory_mib = memory_mib,
                  .sms = sms,
                  .memory_slices = 8,
                  .compute_slices = 7,
                  .profiles = EightSlotProfiles(facts)};
}

GpuModel A100Sxm4Gb40() {
  return EightSlotModel("A100-SXM4-40GB", "NVIDIA-A100-SXM4-40GB", 40960, 108,
                        {{{"1g.5gb", 4.75, 14},
                          {"1g.5gb+me", 4.75, 14},
                          {"1g.10gb", 9.75, 14},
                          {"2g.10gb", 9.75, 28},
                          {"3g.20gb", 19.62, 42},
                          {"4g.20gb", 19.62, 56},
                          {"7g.40gb", 39.38, 98}}});
}

GpuModel A100Sxm4Gb80() {
  return EightSlotModel("A100-SXM4-80GB", "NVIDIA-A100-SXM4-80GB", 81920, 108,
                        {{{"1g.10gb", 9.50, 14},
                          {"1g.10gb+me", 9.50, 14},
                          {"1g.20gb", 19.50, 14},
                          {"2g.20gb", 19.50, 28},
                          {"3g.40gb", 39.25, 42},
                          {"4g.40gb", 39.25, 56},
                          {"7g.80gb", 79.00, 98}}});
}

// SXM5 SM counts (the PCIe card has fewer). The product label is the NVML name of the SXM5
// part, "NVIDIA H100 80GB HBM3", with spaces turned into dashes as GFD does.
GpuModel H100Sxm5Gb80() {
  return EightSlotModel("H100-SXM5-80GB", "NVIDIA-H100-80GB-HBM3", 81920, 132,
                        {{{"1g.10gb", 9.75, 16},
                          {"1g.10gb+me", 9.75, 16},
                          {"1g.20gb", 19.62, 26},
                          {"2g.20gb", 19.62, 32},
                          {"3g.40gb", 39.50, 60},
                          {"4g.40gb", 39.50, 64},
                          {"7g.80gb", 79.25, 132}}});
}

// Memory per the p5e row of domain.md §5 (144384 MiB); GiB per mig-parted#120's -lgip.
GpuModel H200Sxm5Gb141() {
  return EightSlotModel("H200-SXM5-141GB", "NVIDIA-H200", 144384, 132,
                        {{{"1g.18gb", 16.00, 16},
                          {"1g.18gb+me", 16.00, 16},
                          {"1g.35gb", 32.25, 26},
                          {"2g.35gb", 32.25, 32},
                          {"3g.71gb", 69.50, 60},
                          {"4g.71gb", 69.50, 64},
                          {"7g.141gb", 139.75, 132}}});
}

// The A30 has its own 4-slot table; its classic set is 1g.6gb, 2g.12gb and 4g.24gb.
GpuModel A30Gb24() {
  const std::vector<int> one_slice_starts = {0, 1, 2, 3};
  return GpuModel{
      .name = "A30-24GB",
      .product_label = "NVIDIA-A30",
      .memory_mib = 24576,
      .sms = 56,
      .memory_slices = 4,
      .compute_slices = 4,
      .profiles = {
          MakeProfile({"1g.6gb", 5.81, 14}, {14, 1, 1, 4, one_slice_starts, false, true}),
          MakeProfile({"1g.6gb+me", 5.81, 14}, {21, 1, 1, 1, one_slice_starts, true, false}),
          MakeProfile({"2g.12gb", 11.69, 28}, {5, 2, 2, 2, {0, 2}, false, true}),
          MakeProfile({"2g.12gb+me", 11.69, 28}, {6, 2, 2, 1, {0, 2}, true, false}),
          MakeProfile({"4g.24gb", 23.44, 56}, {0, 4, 4, 1, {0}, false, true}),
      }};
}

GpuModel NonMigModel(const char* name, const char* product_label, int memory_mib, int sms) {
  return GpuModel{.name = name,
                  .product_label = product_label,
                  .memory_mib = memory_mib,
                  .sms = sms,
                  .memory_slices = 0,
                  .compute_slices = 0,
                  .profiles = {}};
}

GpuModel WithPower(GpuModel model, double max_watts, double idle_watts) {
  model.max_watts = max_watts;
  model.idle_watts = idle_watts;
  return model;
}

constexpr std::array<GpuModelAlias, 9> kAliases = {{
    {"A100-40GB", "A100-SXM4-40GB"},
    {"A100-80GB", "A100-SXM4-80GB"},
    {"H100-80GB", "H100-SXM5-80GB"},
    {"H200-141GB", "H200-SXM5-141GB"},
    {"A30", "A30-24GB"},
    {"V100-16GB", "V100-SXM2-16GB"},
    {"V100-32GB", "V100-SXM2-32GB"},
    {"A10G-24GB", "A10G"},
    {"T4-16GB", "T4"},
}};

}  // namespace

std::vector<GpuModel> BuildGpuCatalog() {
  std::vector<GpuModel> models;
  // A100 SXM4: 400 W (TechPowerUp "rated at 400 W maximum"; nvidia-smi caps "/ 400W"; some
  // 80 GB boards ship at 500 W). Idle 43-57 W (40 GB) and 54-64 W (80 GB) in nvidia-smi
  // tables of public repositories.
  models.push_back(WithPower(A100Sxm4Gb40(), 400, 52));
  models.push_back(WithPower(A100Sxm4Gb80(), 400, 60));
  // H100 SXM5: "Up to 700W (configurable)" (the H100 datasheet); idle 67-73 W (one 92 W).
  models.push_back(WithPower(H100Sxm5Gb80(), 700, 70));
  // H200 SXM: nvidia-smi caps "/ 700W"; idle 73-76 W (120-122 W on other hosts).
  models.push_back(WithPower(H200Sxm5Gb141(), 700, 75));
  // A30: nvidia-smi caps "/ 165W"; idle 27 W with MIG off (one reading).
  models.push_back(WithPower(A30Gb24(), 165, 27));
  // V100s: p3 (16 GB) and p3dn (32 GB); Tesla-branded in NVML, hence the label prefix.
  // nvidia-smi caps "/ 300W"; idle 23-45 W (16 GB) and 39-44 W (32 GB).
  models.push_back(WithPower(NonMigModel("V100-SXM2-16GB", "Tesla-V100-SXM2-16GB", 16384, 80),
                             300, 25));
  models.push_back(WithPower(NonMigModel("V100-SXM2-32GB", "Tesla-V100-SXM2-32GB", 32768, 80),
                             300, 43));
  // A10G and T4 carry the memory the driver reports, not the marketing "24 GB" / "16 GB":
  // 22888 MiB is domain.md §5's usable A10G figure, and 15360 MiB is what nvidia-smi shows
  // for a T4 (the doc gives only "16 GB"). Jobs that fit by the nominal size would OOM.
  // A10G on g5: nvidia-smi caps "/ 300W", idle 9-11 W in P8; T4: "TDP 70 W", idle 9-16 W.
  models.push_back(WithPower(NonMigModel("A10G", "NVIDIA-A10G", 22888, 80), 300, 10));
  models.push_back(WithPower(NonMigModel("T4", "Tesla-T4", 15360, 40), 70, 9));
  return models;
}

std::span<const GpuModelAlias> GpuModelAliases() { return kAliases; }

}  // namespace migsim

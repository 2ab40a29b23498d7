#include "sim/cluster/mig_config.h"
#include "sim/core/text.h"

#include <array>

namespace migsim {
namespace {

constexpr std::string_view kAllDisabled = "all-disabled";
constexpr std::string_view kAllEnabled = "all-enabled";
constexpr std::string_view kAllBalanced = "all-balanced";

std::string AllProfileName(const MigProfile& profile) { return "all-" + profile.ResourceSuffix(); }

// mig-manager's generator picks, for each g, the base profile (not +me) with the highest
// max count: 1g.10gb rather than 1g.20gb on an A100-80GB (domain.md §2.3). Ties keep the
// first in catalog order. -1 when the model has no such profile.
int BalancedProfile(const GpuModel& model, int compute_slices) {
  int best = -1;
  for (size_t p = 0; p < model.profiles.size(); ++p) {
    const MigProfile& profile = model.profiles[p];
    if (profile.media_extensions || profile.compute_slices != compute_slices) continue;
    if (best < 0 || profile.max_count > model.profiles[best].max_count) {
      best = static_cast<int>(p);
    }
  }
  return best;
}

// 2 x 1g + 1 x 2g + 1 x 3g on 7-slot GPUs, 2 x 1g + 1 x 2g on 4-slot ones (the A30).
Result<MigLayout> BalancedLayout(const GpuModel& model) {
  struct SizeCount {
    int compute_slices;
    int count;
  };
  const bool seven_slots = model.compute_slices >= 7;
  const std::array<SizeCount, 3> wanted = {{{1, 2}, {2, 1}, {3, seven_slots ? 1 : 0}}};
  std::vector<ProfileCount> counts;
  for (const SizeCount& want : wanted) {
    if (want.count == 0) continue;
    int profile = BalancedProfile(model, want.compute_slices);
    if (profile < 0) {
      return Status::InvalidArgument(model.name + " has no " + std::to_string(want.compute_slices) +
                                     "g profile for all-balanced");
    }
    counts.push_back({profile, want.count});
  }
  return PlaceProfiles(model, counts);
}

Result<GpuMigSetting> Enabled(Result<MigLayout> layout) {
  if (!layout.ok()) return layout.status();
  return GpuMigSetting{.mig_enabled = true, .layout = std::move(layout).value()};
}

}  // namespace

std::vector<std::string> MigConfigNames(const GpuModel& model) {
  std::vector<std::string> names = {std::string(kAllDisabled)};
  if (!model.mig_capable()) return names;
  names.emplace_back(kAllEnabled);
  for (const MigProfile& profile : model.profiles) names.push_back(AllProfileName(profile));
  names.emplace_back(kAllBalanced);
  return names;
}

Result<GpuMigSetting> ResolveMigConfig(const GpuModel& model, std::string_view config_name) {
  if (config_name == kAllDisabled) return GpuMigSetting{};
  if (!model.mig_capable()) {
    return Status::InvalidArgument("MIG config '" + std::string(config_name) +
                                   "' cannot be applied: " + model.name +
                                   " does not support MIG (valid: all-disabled)");
  }
  if (config_name == kAllEnabled) return GpuMigSetting{.mig_enabled = true, .layout = {}};
  if (config_name == kAllBalanced) return Enabled(BalancedLayout(model));
  for (size_t p = 0; p < model.profiles.size(); ++p) {
    const MigProfile& profile = model.profiles[p];
    if (config_name != AllProfileName(profile)) continue;
    const std::array<ProfileCount, 1> counts = {{{static_cast<int>(p), profile.max_count}}};
    return Enabled(PlaceProfiles(model, counts));
  }
  return Status::NotFound("unknown MIG config '" + std::string(config_name) + "' for " +
                          model.name + " (valid: " + JoinNames(MigConfigNames(model)) + ")");
}

}  // namespace migsim

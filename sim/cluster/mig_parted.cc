#include "sim/cluster/mig_parted.h"

#include <algorithm>

#include "sim/cluster/mig_layout.h"

namespace migsim {
namespace {

bool Selects(const MigPartedSpec& spec, int gpu, const std::vector<uint32_t>& ids) {
  const bool index = spec.devices.empty() ||
                     std::find(spec.devices.begin(), spec.devices.end(), gpu) != spec.devices.end();
  const bool pci =
      spec.filter.empty() || std::any_of(spec.filter.begin(), spec.filter.end(), [&](uint32_t id) {
        return std::find(ids.begin(), ids.end(), id) != ids.end();
      });
  return index && pci;
}

Status SpecError(const MigPartedFile& file, const MigPartedSpec& spec, const std::string& why) {
  return Status::InvalidArgument(why, {file.path, "line " + std::to_string(spec.line)});
}

Result<GpuMigSetting> Apply(const MigPartedFile& file, const MigPartedSpec& spec,
                            const GpuModel& model) {
  if (!spec.mig_enabled) return GpuMigSetting{};
  if (!model.mig_capable()) return SpecError(file, spec, model.name + " does not support MIG");
  std::vector<ProfileCount> counts;
  for (const auto& [profile, count] : spec.mig_devices) {
    const int p = model.FindProfile(profile);
    if (p < 0) {
      return SpecError(file, spec, "'" + profile + "' is not a MIG profile of " + model.name);
    }
    if (count > 0) counts.push_back({p, count});
  }
  Result<MigLayout> layout = PlaceProfiles(model, counts);
  if (!layout.ok()) return SpecError(file, spec, layout.status().message());
  return GpuMigSetting{.mig_enabled = true, .layout = std::move(layout).value()};
}

}  // namespace

std::vector<uint32_t> MigPartedDeviceIds(const GpuModel& model) {
  // The classes of the default file's device filters. Its 80GB class covers A100 and H100
  // alike, which share their profile names.
  static const std::map<std::string, std::vector<uint32_t>, std::less<>> kIds = {
      {"A100-SXM4-40GB", {0x20B0, 0x20B1, 0x20F1, 0x20F6}},
      {"A100-SXM4-80GB", {0x2330, 0x2331, 0x2322, 0x20B2, 0x20B5, 0x20F3, 0x20F5, 0x2324}},
      {"H100-SXM5-80GB", {0x2330, 0x2331, 0x2322, 0x20B2, 0x20B5, 0x20F3, 0x20F5, 0x2324}},
      {"H200-SXM5-141GB", {0x2335, 0x233B}},
      {"A30-24GB", {0x20B7}},
  };
  const auto it = kIds.find(model.name);
  return it == kIds.end() ? std::vector<uint32_t>{} : it->second;
}

Result<std::vector<GpuMigSetting>> ResolveMigParted(const MigPartedFile& file,
                                                    const std::string& name, const GpuModel& model,
                                                    int gpu_count) {
  const auto config = file.configs.find(name);
  if (config == file.configs.end()) {
    std::string names;
    for (const auto& [known, specs] : file.configs) names += (names.empty() ? "" : ", ") + known;
    return Status::InvalidArgument("no MIG config '" + name + "' in " + file.path +
                                   " (it has: " + names + ")");
  }
  const std::vector<uint32_t> ids = MigPartedDeviceIds(model);
  std::vector<GpuMigSetting> gpus;
  for (int g = 0; g < gpu_count; ++g) {
    const MigPartedSpec* chosen = nullptr;
    for (const MigPartedSpec& spec : config->second) {
      if (!Selects(spec, g, ids)) continue;
      if (chosen != nullptr) {
        return SpecError(file, spec,
                         "config '" + name + "': GPU " + std::to_string(g) +
                             " is also selected by the spec on line " +
                             std::to_string(chosen->line));
      }
      chosen = &spec;
    }
    if (chosen == nullptr) {
      return Status::InvalidArgument("config '" + name + "' selects no spec for GPU " +
                                         std::to_string(g) + " (" + model.name + ")",
                                     {file.path, ""});
    }
    Result<GpuMigSetting> setting = Apply(file, *chosen, model);
    if (!setting.ok()) return setting.status();
    gpus.push_back(std::move(setting).value());
  }
  return gpus;
}

}  // namespace migsim

// A node pool's `mig` and `device_plugin` fields (see scenarios/README.md).

#include <algorithm>
#include <cstddef>

#include "sim/cluster/mig_layout.h"
#include "sim/cluster/mig_parted.h"
#include "sim/io/mig_parted_yaml.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

constexpr int64_t kMaxReplicas = 10000;
constexpr std::string_view kGpuResource = "nvidia.com/gpu";
constexpr std::string_view kMigResourcePrefix = "nvidia.com/mig-";

std::vector<std::string> ProfileNames(const GpuModel& model) {
  std::vector<std::string> names;
  for (const MigProfile& profile : model.profiles) names.push_back(profile.name);
  return names;
}

// One entry of a layout: "1g.5gb" (start < 0: to be placed) or "1g.5gb@3".
struct LayoutEntry {
  int profile = -1;
  int start = -1;
};

std::optional<LayoutEntry> ReadLayoutEntry(LoadContext* ctx, const JsonRef& ref,
                                           const GpuModel& model) {
  std::optional<std::string> text = ReadString(ctx, ref);
  if (!text) return std::nullopt;
  const size_t at = text->find('@');
  const std::string name = text->substr(0, at);
  LayoutEntry entry{.profile = model.FindProfile(name)};
  if (entry.profile < 0) {
    ctx->Fail(ref.pointer(), "unknown MIG profile '" + name + "' for " + model.name +
                                 " (valid: " + JoinNames(ProfileNames(model)) + ")");
    return std::nullopt;
  }
  if (at == std::string::npos) return entry;
  const std::string start = text->substr(at + 1);
  if (start.empty() || start.size() > 2 ||
      !std::all_of(start.begin(), start.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    ctx->Fail(ref.pointer(),
              "invalid GI '" + *text + "' (expected <profile> or <profile>@<memory slice>)");
    return std::nullopt;
  }
  entry.start = std::stoi(start);
  return entry;
}

// Explicit starts are checked as given (so the message names the GI that does not fit)
// and then sorted by start, the order PlaceProfiles and ResolveMigConfig produce.
Result<MigLayout> BuildLayout(const GpuModel& model, const std::vector<LayoutEntry>& entries) {
  const auto placed = std::count_if(entries.begin(), entries.end(),
                                    [](const LayoutEntry& e) { return e.start >= 0; });
  if (placed == 0) {
    std::vector<ProfileCount> counts;
    for (const LayoutEntry& e : entries) counts.push_back({e.profile, 1});
    return PlaceProfiles(model, counts);
  }
  if (placed != static_cast<std::ptrdiff_t>(entries.size())) {
    return Status::InvalidArgument("give a start (@) for every GI of a layout or for none");
  }
  MigLayout layout;
  for (const LayoutEntry& e : entries) layout.push_back({e.profile, e.start});
  if (Status valid = ValidateLayout(model, layout); !valid.ok()) return valid;
  std::sort(layout.begin(), layout.end(),
            [](const MigPlacement& a, const MigPlacement& b) { return a.start < b.start; });
  return layout;
}

std::optional<GpuMigSetting> LoadLayout(LoadContext* ctx, const JsonRef& ref,
                                        const GpuModel& model) {
  if (!ExpectArray(ctx, ref)) return std::nullopt;
  std::vector<LayoutEntry> entries;
  for (size_t i = 0; i < ref.value().size(); ++i) {
    std::optional<LayoutEntry> entry = ReadLayoutEntry(ctx, ref.Element(i), model);
    if (!entry) return std::nullopt;
    entries.push_back(*entry);
  }
  Result<MigLayout> layout = BuildLayout(model, entries);
  if (!layout.ok()) {
    ctx->Fail(ref.pointer(), layout.status().message());
    return std::nullopt;
  }
  return GpuMigSetting{.mig_enabled = true, .layout = std::move(layout).value()};
}

// One layout for every GPU, or one per GPU.
std::vector<GpuMigSetting> LoadLayouts(LoadContext* ctx, const JsonRef& ref, const NodeType& type) {
  if (!ExpectArray(ctx, ref)) return {};
  const GpuModel& model = *type.gpu;
  const size_t n = ref.value().size();
  if (!model.mig_capable()) {
    ctx->Fail(ref.pointer(), model.name + " does not support MIG");
    return {};
  }
  if (n != 1 && n != static_cast<size_t>(type.gpu_count)) {
    ctx->Fail(ref.pointer(), "has " + std::to_string(n) + " layouts but " + type.name + " has " +
                                 std::to_string(type.gpu_count) +
                                 " GPUs (give one layout for all GPUs, or one per GPU)");
    return {};
  }
  std::vector<GpuMigSetting> gpus;
  for (size_t g = 0; g < n; ++g) {
    std::optional<GpuMigSetting> setting = LoadLayout(ctx, ref.Element(g), model);
    if (!setting) return {};
    gpus.push_back(std::move(*setting));
  }
  if (n == 1) gpus.assign(static_cast<size_t>(type.gpu_count), gpus[0]);
  return gpus;
}

// The pool's mig-parted file (`mig_parted`, relative to the scenario) into node->mig_parted.
void ReadPoolMigParted(LoadContext* ctx, ObjectReader& r, NodeSpec* node) {
  const std::string file = r.NonEmptyString("mig_parted");
  if (!ctx->ok() || !ctx->MayReadNamedFile(r.Field("mig_parted").pointer())) return;
  Result<MigPartedFile> parsed = migsim::LoadMigPartedFile(ctx->ResolvePath(file));
  if (!parsed.ok()) {
    ctx->Fail(r.Field("mig_parted").pointer(), parsed.status().ToString());
    return;
  }
  node->mig_parted = std::make_shared<const MigPartedFile>(std::move(parsed).value());
}

void LoadMig(LoadContext* ctx, const JsonRef& ref, NodeSpec* node) {
  ObjectReader r(ctx, ref, {"config", "layouts", "mig_parted", "reconfigure_s"});
  if (!r.valid()) return;
  node->mig_reconfiguration = r.Seconds("reconfigure_s", node->mig_reconfiguration);
  if (r.Has("mig_parted")) {
    if (!r.Require("config")) return;
    ReadPoolMigParted(ctx, r, node);
    if (!ctx->ok()) return;
  }
  if (r.Has("config") == r.Has("layouts")) {
    ctx->Fail(ref.pointer(), r.Has("config") ? "give either 'config' or 'layouts', not both"
                                             : "missing required field 'config' (or 'layouts')");
    return;
  }
  if (r.Has("layouts")) {
    node->gpus = LoadLayouts(ctx, r.Field("layouts"), *node->type);
    node->mig_config.clear();
    return;
  }
  node->mig_config = r.String("config");
  if (!ctx->ok()) return;
  auto gpus = ResolveConfigForNode(ctx, r.Field("config"), *node);
  if (gpus) node->gpus = std::move(*gpus);
}

// What the GPU operator deploys: mixed on MIG-capable GPUs, none elsewhere.
DevicePluginConfig DefaultPlugin(const GpuModel& model) {
  return {.strategy = model.mig_capable() ? MigStrategy::kMixed : MigStrategy::kNone};
}

// nvidia.com/gpu and, on MIG-capable GPUs, the mixed strategy's MIG resources.
std::vector<std::string> TimeSliceableResources(const GpuModel& model) {
  std::vector<std::string> names = {std::string(kGpuResource)};
  for (const MigProfile& profile : model.profiles) {
    names.push_back(std::string(kMigResourcePrefix) + profile.ResourceSuffix());
  }
  return names;
}

void LoadSharedResources(LoadContext* ctx, const JsonRef& ref, const GpuModel& model, int replicas,
                         DevicePluginConfig* config) {
  const std::vector<std::string> names = ReadStringArray(ctx, ref);
  if (ctx->ok() && names.empty()) ctx->Fail(ref.pointer(), "must not be empty");
  const std::vector<std::string> valid = TimeSliceableResources(model);
  for (size_t i = 0; i < names.size() && ctx->ok(); ++i) {
    const std::string pointer = ref.Element(i).pointer();
    if (std::find(valid.begin(), valid.end(), names[i]) == valid.end()) {
      ctx->Fail(pointer, "cannot time-slice '" + names[i] + "' on " + model.name +
                             " (valid: " + JoinNames(valid) + ")");
    } else if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i) {
      ctx->Fail(pointer, "'" + names[i] + "' is listed twice");
    }
    config->shared.push_back({.name = names[i], .replicas = replicas});
  }
}

void LoadTimeSlicing(LoadContext* ctx, const JsonRef& ref, const GpuModel& model,
                     DevicePluginConfig* config) {
  ObjectReader r(ctx, ref,
                 {"replicas", "resources", "rename_by_default", "fail_requests_greater_than_one",
                  "switch_overhead"});
  r.Require("replicas");
  const int replicas = static_cast<int>(r.Int("replicas", 1, 1, kMaxReplicas));
  config->sharing = SharingMode::kTimeSlicing;
  if (r.Has("resources")) {
    LoadSharedResources(ctx, r.Field("resources"), model, replicas, config);
  } else {
    config->shared.push_back({.name = std::string(kGpuResource), .replicas = replicas});
  }
  config->rename_by_default = r.Bool("rename_by_default", false);
  config->fail_requests_greater_than_one = r.Bool("fail_requests_greater_than_one", false);
  config->switch_overhead = r.Number("switch_overhead", 0, 0, 0.99);
}

// MPS (marked experimental in the plugin): whole GPUs only, at most MaxMpsClients
// replicas; failRequestsGreaterThanOne defaults to true (domain.md §3.4).
void LoadMps(LoadContext* ctx, const JsonRef& ref, const GpuModel& model,
             DevicePluginConfig* config) {
  ObjectReader r(ctx, ref, {"replicas", "rename_by_default", "fail_requests_greater_than_one"});
  r.Require("replicas");
  const int replicas = static_cast<int>(r.Int("replicas", 1, 1, MaxMpsClients(model)));
  config->sharing = SharingMode::kMps;
  config->shared.push_back({.name = std::string(kGpuResource), .replicas = replicas});
  config->rename_by_default = r.Bool("rename_by_default", false);
  config->fail_requests_greater_than_one = r.Bool("fail_requests_greater_than_one", true);
}

// Fractional GPU shares (Alibaba's milli-GPU): each whole GPU offers `units` of the share
// resource; a pod takes its share from one GPU.
void LoadFractional(LoadContext* ctx, const JsonRef& ref, DevicePluginConfig* config) {
  ObjectReader r(ctx, ref, {"resource", "units"});
  const std::string resource = r.String("resource", "alibabacloud.com/gpu-milli");
  if (const std::string problem = ExtendedResourceProblem(resource);
      ctx->ok() && !problem.empty()) {
    ctx->Fail(r.Field("resource").pointer(), problem);
  } else if (ctx->ok() && (resource == "nvidia.com/gpu" || resource == "nvidia.com/gpu.shared" ||
                           resource.starts_with("nvidia.com/mig-"))) {
    // A pod asking for one nvidia.com/gpu would silently get 1/units of a GPU.
    ctx->Fail(r.Field("resource").pointer(),
              "'" + resource + "' is the device plugin's own resource; give the shares a name "
                               "of their own, such as example.com/gpu-milli");
  }
  const int units = static_cast<int>(r.Int("units", 1000, 1, 1000000));
  config->sharing = SharingMode::kFractional;
  config->shared = {{.name = resource, .replicas = units}};
}

DevicePluginConfig LoadDevicePlugin(LoadContext* ctx, const JsonRef& ref, const GpuModel& model) {
  ObjectReader r(ctx, ref, {"mig_strategy", "time_slicing", "mps", "fractional"});
  DevicePluginConfig config = DefaultPlugin(model);
  if (r.Has("mig_strategy")) {
    const std::string strategy = r.String("mig_strategy");
    if (strategy == "none") {
      config.strategy = MigStrategy::kNone;
    } else if (strategy == "single") {
      config.strategy = MigStrategy::kSingle;
    } else if (strategy == "mixed") {
      config.strategy = MigStrategy::kMixed;
    } else if (ctx->ok()) {
      ctx->Fail(r.Field("mig_strategy").pointer(),
                UnknownNameMessage("MIG strategy", strategy, {"none", "single", "mixed"}));
    }
  }
  if (r.Has("time_slicing")) LoadTimeSlicing(ctx, r.Field("time_slicing"), model, &config);
  if (ctx->ok() && r.Has("mps")) {
    if (r.Has("time_slicing")) {
      ctx->Fail(r.Field("mps").pointer(), "time-slicing and MPS are mutually exclusive");
    } else {
      LoadMps(ctx, r.Field("mps"), model, &config);
    }
  }
  if (ctx->ok() && r.Has("fractional")) {
    if (r.Has("time_slicing") || r.Has("mps")) {
      ctx->Fail(r.Field("fractional").pointer(), "fractional shares exclude time-slicing and MPS");
    } else {
      LoadFractional(ctx, r.Field("fractional"), &config);
    }
  }
  return config;
}

}  // namespace

std::optional<std::vector<GpuMigSetting>> ResolveConfigForNode(LoadContext* ctx,
                                                               const JsonRef& config,
                                                               const NodeSpec& node) {
  std::optional<std::string> name = ReadString(ctx, config);
  if (!name) return std::nullopt;
  const NodeType& type = *node.type;
  if (node.mig_parted) {
    Result<std::vector<GpuMigSetting>> gpus =
        ResolveMigParted(*node.mig_parted, *name, *type.gpu, type.gpu_count);
    if (!gpus.ok()) {
      ctx->Fail(config.pointer(), gpus.status().ToString());
      return std::nullopt;
    }
    return std::move(gpus).value();
  }
  Result<GpuMigSetting> setting = ResolveMigConfig(*type.gpu, *name);
  if (!setting.ok()) {
    ctx->Fail(config.pointer(), setting.status().message());
    return std::nullopt;
  }
  return std::vector<GpuMigSetting>(static_cast<size_t>(type.gpu_count), setting.value());
}

// A MIG-capable node without a `mig` field carries nvidia.com/mig.config=all-disabled,
// as the GPU operator labels such nodes; other nodes carry no such label.
void LoadNodeGpus(LoadContext* ctx, const ObjectReader& pool, NodeSpec* node) {
  const NodeType& type = *node->type;
  if (type.gpu_count == 0) {
    for (const char* field : {"mig", "device_plugin"}) {
      if (pool.Has(field)) {
        ctx->Fail(pool.Field(field).pointer(), "node type '" + type.name + "' has no GPUs");
      }
    }
    return;
  }
  const GpuModel& model = *type.gpu;
  node->gpus.assign(static_cast<size_t>(type.gpu_count), GpuMigSetting{});
  node->mig_config = model.mig_capable() ? "all-disabled" : "";
  if (pool.Has("mig")) LoadMig(ctx, pool.Field("mig"), node);
  node->plugin = DefaultPlugin(model);
  if (pool.Has("device_plugin")) {
    node->plugin = LoadDevicePlugin(ctx, pool.Field("device_plugin"), model);
    const bool mig_on = std::any_of(node->gpus.begin(), node->gpus.end(),
                                    [](const GpuMigSetting& g) { return g.mig_enabled; });
    if (ctx->ok() && node->plugin.sharing == SharingMode::kMps && mig_on) {
      ctx->Fail(pool.Field("device_plugin").PointerTo("mps"),
                "sharing using MPS is not supported for MIG devices (set mig to all-disabled)");
    }
    if (ctx->ok() && node->plugin.sharing == SharingMode::kFractional && mig_on) {
      ctx->Fail(pool.Field("device_plugin").PointerTo("fractional"),
                "fractional shares are of whole GPUs (set mig to all-disabled)");
    }
  }
}

}  // namespace migsim::io

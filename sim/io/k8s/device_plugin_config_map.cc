// The device plugin's config file inside a ConfigMap. The embedded text is parsed when the
// overlay names the ConfigMap (any other ConfigMap stays inert), with the lines of a literal
// block counted as the manifest's: the text is padded with the newlines before it.

#include "sim/io/k8s/device_plugin_config_map.h"

#include <algorithm>

#include "sim/io/yaml_documents.h"

namespace migsim::k8s {

ConfigMapObject ReadConfigMapObject(const ManifestNode& doc, ManifestLog* log) {
  ConfigMapObject out;
  const ManifestNode data = doc["data"];
  for (const std::string& key : data.Keys(log)) {
    const ManifestNode value = data[key];
    const YAML::Mark mark = value.yaml().Mark();
    out.data.push_back({.key = key,
                        .value = value.String(log),
                        .place = value.place(),
                        .offset = mark.is_null() ? -1 : mark.pos,
                        .first_line = 0});
  }
  return out;
}

void MarkLiteralBlocks(std::string_view text, ManifestSet* set) {
  for (ManifestObject& o : set->objects) {
    auto* config_map = std::get_if<ConfigMapObject>(&o.body);
    if (config_map == nullptr) continue;
    for (ConfigMapObject::Entry& e : config_map->data) {
      const bool literal = e.offset >= 0 && static_cast<size_t>(e.offset) < text.size() &&
                           text[static_cast<size_t>(e.offset)] == '|';
      if (literal) e.first_line = e.place.line + 1;  // the block starts below its indicator
    }
  }
}

namespace {

struct SharedEntry {
  std::string name;
  int replicas = 1;
  ManifestPlace place;
};

// The parts of the plugin's config file that can change a scheduling outcome.
struct PluginFile {
  std::optional<MigStrategy> strategy;  // nullopt: the pool's (the plugin's command line)
  SharingMode sharing = SharingMode::kNone;
  std::vector<SharedEntry> shared;
  bool rename_by_default = false;
  bool fail_requests_greater_than_one = false;
  ManifestPlace sharing_place;
};

constexpr int64_t kMaxReplicas = 10000;  // as the JSON's device_plugin.time_slicing

SharedEntry ReadSharedEntry(const ManifestNode& r, ManifestLog* log) {
  SharedEntry out{.name = "", .replicas = 1, .place = r.place()};
  if (!r.ExpectMap(log)) return out;
  for (const char* field : {"name", "replicas"}) {
    if (log->ok() && !r[field].present())
      r.Fail(log, "missing required field '" + std::string(field) + "'");
  }
  out.name = r["name"].String(log);
  out.place = r["name"].place();
  out.replicas = static_cast<int>(r["replicas"].Int(log, 1, 1, kMaxReplicas));
  if (const ManifestNode rename = r["rename"]; rename.present() && log->ok()) {
    rename.Fail(log, "renaming a shared resource is not modelled (use renameByDefault)");
  }
  if (const ManifestNode devices = r["devices"]; devices.present() && log->ok()) {
    if (devices.String(log) != "all") {
      devices.Fail(log, "sharing a subset of the GPUs is not modelled (give all, or leave it out)");
    }
  }
  return out;
}

void ReadSharing(const ManifestNode& node, SharingMode mode, ManifestLog* log, PluginFile* out) {
  out->sharing = mode;
  out->sharing_place = node.place();
  if (!node.ExpectMap(log)) return;
  const ManifestNode resources = node["resources"];
  for (const ManifestNode& r : resources.Elements(log)) {
    out->shared.push_back(ReadSharedEntry(r, log));
    if (!log->ok()) return;
  }
  if (out->shared.empty()) resources.Fail(log, "needs at least one resource");
  out->rename_by_default = node["renameByDefault"].Bool(log, false);
  // MPS fails a request for more than one shared device unless told otherwise (domain.md §3.4).
  out->fail_requests_greater_than_one =
      node["failRequestsGreaterThanOne"].Bool(log, mode == SharingMode::kMps);
}

void ReadPluginFile(const ManifestNode& root, ManifestLog* log, PluginFile* out) {
  if (!root.ExpectMap(log)) return;
  const ManifestNode version = root["version"];
  if (!version.present()) return root.Fail(log, "missing required field 'version'");
  version.Choice(log, "version", {"v1"});
  if (const ManifestNode strategy = root["flags"]["migStrategy"]; strategy.present()) {
    constexpr MigStrategy kStrategies[] = {MigStrategy::kNone, MigStrategy::kSingle,
                                           MigStrategy::kMixed};
    out->strategy = kStrategies[strategy.Choice(log, "migStrategy", {"none", "single", "mixed"})];
  }
  if (const ManifestNode renames = root["resources"]; renames.present() && log->ok()) {
    renames.Fail(log, "renaming the plugin's resources is not modelled");
  }
  const ManifestNode sharing = root["sharing"];
  const ManifestNode slicing = sharing["timeSlicing"], mps = sharing["mps"];
  if (slicing.present() && mps.present()) {
    return sharing.Fail(log, "timeSlicing and mps are mutually exclusive");
  }
  if (slicing.present()) ReadSharing(slicing, SharingMode::kTimeSlicing, log, out);
  if (mps.present()) ReadSharing(mps, SharingMode::kMps, log, out);
}

Result<PluginFile> ParsePluginFile(const ConfigMapObject::Entry& entry) {
  const int before = std::max(0, (entry.first_line > 0 ? entry.first_line : entry.place.line) - 1);
  const std::string text = std::string(static_cast<size_t>(before), '\n') + entry.value;
  // "k8s/a.yaml: document 1: data.any:line 9, column 5: malformed YAML: ..."
  const std::string label = entry.place.file + ": document " +
                            std::to_string(entry.place.document) + ": " + entry.place.path;
  Result<std::vector<YAML::Node>> docs = LoadYamlDocuments(text, label);
  if (!docs.ok()) return docs.status();
  ManifestPlace root_place = entry.place;
  if (docs.value().size() != 1) {
    return ErrorAt(root_place,
                   "expected one YAML document (the device plugin's config file), "
                   "got " +
                       std::to_string(docs.value().size()));
  }
  root_place.line = 0;
  ManifestLog log;
  PluginFile out;
  try {
    ReadPluginFile(ManifestNode(docs.value().front(), root_place), &log, &out);
  } catch (const YAML::Exception& e) {
    return Status::Internal(entry.place.ToString() + ": unexpected YAML error: " + e.msg);
  }
  if (!log.ok()) return log.status();
  return out;
}

}  // namespace

Status CheckDevicePluginConfig(const ConfigMapObject::Entry& entry) {
  const Result<PluginFile> file = ParsePluginFile(entry);
  return file.ok() ? Status::Ok() : file.status();
}

}  // namespace migsim::k8s

namespace migsim::io {
namespace {

using k8s::ErrorAt;
using k8s::ManifestPlace;
using k8s::PluginFile;

// The plugin the scenario gives a pool without `device_plugin` (mig_json.cc's default: what
// the GPU operator deploys, mixed on MIG-capable GPUs, none elsewhere).
DevicePluginConfig OperatorDefault(const GpuModel& model) {
  return {.strategy = model.mig_capable() ? MigStrategy::kMixed : MigStrategy::kNone};
}

// nvidia.com/gpu and, on MIG-capable GPUs, nvidia.com/mig-<profile> for time-slicing; only
// nvidia.com/gpu for MPS (whole GPUs only).
std::vector<std::string> Shareable(const GpuModel& model, SharingMode sharing) {
  std::vector<std::string> names = {"nvidia.com/gpu"};
  if (sharing == SharingMode::kMps) return names;
  for (const MigProfile& p : model.profiles)
    names.push_back("nvidia.com/mig-" + p.ResourceSuffix());
  return names;
}

// The node's plugin config, or an error in the ConfigMap.
Result<DevicePluginConfig> ConfigFor(const PluginFile& file, const NodeSpec& node) {
  const GpuModel& model = *node.type->gpu;
  DevicePluginConfig config = node.plugin;
  config.strategy = file.strategy.value_or(node.plugin.strategy);
  config.sharing = file.sharing;
  config.rename_by_default = file.rename_by_default;
  config.fail_requests_greater_than_one = file.fail_requests_greater_than_one;
  const std::vector<std::string> valid = Shareable(model, file.sharing);
  for (size_t i = 0; i < file.shared.size(); ++i) {
    const k8s::SharedEntry& e = file.shared[i];
    if (std::find(valid.begin(), valid.end(), e.name) == valid.end()) {
      return ErrorAt(e.place,
                     UnknownNameMessage("shared resource on " + model.name, e.name, valid));
    }
    for (size_t j = 0; j < i; ++j) {
      if (file.shared[j].name == e.name)
        return ErrorAt(e.place, "'" + e.name + "' is listed twice");
    }
    if (file.sharing == SharingMode::kMps && e.replicas > MaxMpsClients(model)) {
      return ErrorAt(e.place, "MPS allows at most " + std::to_string(MaxMpsClients(model)) +
                                  " clients per GPU on " + model.name + ", got " +
                                  std::to_string(e.replicas) + " replicas");
    }
    config.shared.push_back({.name = e.name, .replicas = e.replicas});
  }
  const bool mig_on = std::any_of(node.gpus.begin(), node.gpus.end(),
                                  [](const GpuMigSetting& g) { return g.mig_enabled; });
  if (file.sharing == SharingMode::kMps && mig_on) {
    return ErrorAt(file.sharing_place,
                   "sharing using MPS is not supported for MIG devices (node "
                   "'" +
                       node.name + "' has MIG enabled)");
  }
  return config;
}

const k8s::ConfigMapObject::Entry* FindEntry(LoadContext* ctx, const k8s::ManifestSet& set,
                                             const DevicePluginOverlay& overlay) {
  const k8s::ConfigMapObject* found = nullptr;
  std::vector<std::string> names;
  for (const k8s::ManifestObject& o : set.objects) {
    const auto* c = std::get_if<k8s::ConfigMapObject>(&o.body);
    if (c != nullptr && o.name == overlay.config_map) found = c;
    if (c != nullptr) names.push_back(o.name);
  }
  if (found == nullptr) {
    ctx->Fail(overlay.pointer + "/config_map",
              UnknownNameMessage("ConfigMap", overlay.config_map, names));
    return nullptr;
  }
  std::vector<std::string> keys;
  for (const k8s::ConfigMapObject::Entry& e : found->data) {
    if (e.key == overlay.key || (overlay.key.empty() && found->data.size() == 1)) return &e;
    keys.push_back(e.key);
  }
  if (overlay.key.empty()) {
    ctx->Fail(overlay.pointer, "ConfigMap '" + overlay.config_map + "' has " +
                                   std::to_string(keys.size()) +
                                   " data keys: name the config's with 'key'");
  } else {
    ctx->Fail(overlay.pointer + "/key", UnknownNameMessage("data key", overlay.key, keys));
  }
  return nullptr;
}

// The pools the overlay names, or every pool with GPUs.
std::vector<NodePoolRange> PoolsOf(LoadContext* ctx, const DevicePluginOverlay& overlay,
                                   const ClusterSpec& cluster) {
  std::vector<NodePoolRange> all = cluster.pools;
  if (all.empty()) all.push_back({"cluster", 0, static_cast<uint32_t>(cluster.nodes.size())});
  const auto has_gpus = [&](const NodePoolRange& p) {
    return p.count > 0 && cluster.nodes[p.first].type->gpu_count > 0;
  };
  std::vector<NodePoolRange> out;
  std::vector<std::string> names;
  for (const NodePoolRange& p : all) names.push_back(p.name);
  for (size_t i = 0; i < overlay.pools.size() && ctx->ok(); ++i) {
    const auto it = std::find(names.begin(), names.end(), overlay.pools[i]);
    const std::string pointer = overlay.pointer + "/pools/" + std::to_string(i);
    if (it == names.end()) {
      ctx->Fail(pointer, UnknownNameMessage("pool", overlay.pools[i], names));
    } else if (!has_gpus(all[static_cast<size_t>(it - names.begin())])) {
      ctx->Fail(pointer, "pool '" + overlay.pools[i] + "' has no GPUs");
    } else {
      out.push_back(all[static_cast<size_t>(it - names.begin())]);
    }
  }
  if (overlay.pools.empty())
    std::copy_if(all.begin(), all.end(), std::back_inserter(out), has_gpus);
  if (ctx->ok() && out.empty()) ctx->Fail(overlay.pointer, "no pool has GPUs");
  return out;
}

}  // namespace

DevicePluginOverlay ReadDevicePluginOverlay(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"config_map", "key", "pools"});
  DevicePluginOverlay out;
  out.pointer = ref.pointer();
  if (!r.valid()) return out;
  out.config_map = r.NonEmptyString("config_map");
  if (r.Has("key")) out.key = r.NonEmptyString("key");
  if (r.Has("pools")) out.pools = ReadStringArray(ctx, r.Field("pools"));
  return out;
}

void ApplyDevicePluginConfigMap(LoadContext* ctx, const k8s::ManifestSet& set,
                                const DevicePluginOverlay& overlay, Scenario* scenario) {
  const k8s::ConfigMapObject::Entry* entry = FindEntry(ctx, set, overlay);
  if (entry == nullptr) return;
  Result<PluginFile> file = k8s::ParsePluginFile(*entry);
  if (!file.ok()) return ctx->Fail(file.status());
  ClusterSpec& cluster = scenario->cluster;
  for (const NodePoolRange& pool : PoolsOf(ctx, overlay, cluster)) {
    for (uint32_t n = pool.first; n < pool.first + pool.count && ctx->ok(); ++n) {
      NodeSpec& node = cluster.nodes[n];
      if (node.plugin != OperatorDefault(*node.type->gpu)) {
        return ctx->Fail(overlay.pointer, "pool '" + pool.name +
                                              "' sets device_plugin in the scenario too: give "
                                              "its configuration in one place");
      }
      Result<DevicePluginConfig> config = ConfigFor(file.value(), node);
      if (!config.ok()) return ctx->Fail(config.status());
      node.plugin = std::move(config).value();
    }
  }
}

}  // namespace migsim::io

// `migsim import`, GPUs: what GPU Feature Discovery's labels and the resources the NVIDIA
// device plugin advertises say of a node's GPUs, written as a pool's `mig` and
// `device_plugin`.
//
// GFD's product label is "<model>[-MIG-<profile>|-MIG-INVALID][-SHARED]"
// (k8s-device-plugin, internal/lm/resource.go, productLabel: the parts joined with '-',
// "SHARED" appended when the resource is time-sliced and not renamed; the MIG profile as
// its resource suffix, '+' written '.', internal/resource/nvml-mig-device.go GetName).
// Under the single MIG strategy nvidia.com/gpu.count counts MIG devices, not GPUs, and
// nvidia.com/gpu.replicas is per device (internal/lm/mig-strategy.go,
// newMigStrategySingleLabeler); a node the single strategy refuses is labelled
// "<model>-MIG-INVALID" with count, replicas and memory 0 (newInvalidMigStrategyLabeler).
// With time-slicing each device is advertised `replicas` times (domain.md §3.3).

#include <algorithm>
#include <string_view>

#include "sim/cluster/device_plugin.h"
#include "sim/cluster/mig_config.h"
#include "sim/cluster/node_type.h"
#include "sim/io/k8s/gfd_product.h"
#include "sim/io/k8s/snapshot_model.h"

namespace migsim::k8s {
namespace {

constexpr std::string_view kMigPrefix = "nvidia.com/mig-";

// What the node says of its GPUs, before it is understood.
struct GpuFacts {
  const ManifestNode* item = nullptr;
  std::string node;
  std::string instance;
  std::string product;
  Labels labels;
  int count = -1;       // nvidia.com/gpu.count; -1 when absent
  int replicas = -1;    // nvidia.com/gpu.replicas; -1 when absent
  int advertised = -1;  // capacity nvidia.com/gpu (or nvidia.com/gpu.shared); -1 when absent
  bool renamed = false;  // advertised as nvidia.com/gpu.shared (renameByDefault)
  bool mps = false;      // nvidia.com/gpu.sharing-strategy=mps
  std::vector<std::pair<std::string, int>> mig_resources;  // resource suffix -> devices
  std::vector<std::pair<std::string, int>> mig_shared;     // time-sliced: resource -> replicas
};

ManifestNode LabelNode(const GpuFacts& f, const std::string& key) {
  return (*f.item)["metadata"]["labels"][key];
}

int OptionalCount(const ManifestNode& node, ManifestLog* log) {
  return node.present() ? DeviceCount(node, log) : -1;
}

// The mixed strategy's nvidia.com/mig-<profile> resources, each counted in devices: a
// time-sliced one advertises its devices nvidia.com/mig-<profile>.replicas times.
void ReadMigResources(const ManifestNode& capacity, GpuFacts* f, ManifestLog* log) {
  for (const std::string& key : capacity.Keys(log)) {
    if (!key.starts_with(kMigPrefix)) continue;
    int n = DeviceCount(capacity[key], log);
    const int replicas = OptionalCount(LabelNode(*f, key + ".replicas"), log);
    if (replicas > 1 && n % replicas == 0) {
      n /= replicas;
      f->mig_shared.emplace_back(key, replicas);
    }
    if (n > 0) f->mig_resources.emplace_back(key.substr(kMigPrefix.size()), n);
  }
}

GpuFacts ReadFacts(const ManifestNode& item, const std::string& node, const Labels& labels,
                   ManifestLog* log) {
  GpuFacts f;
  f.item = &item;
  f.node = node;
  f.labels = labels;
  f.instance = LabelValue(labels, "node.kubernetes.io/instance-type");
  if (f.instance.empty()) f.instance = LabelValue(labels, "beta.kubernetes.io/instance-type");
  f.product = LabelValue(labels, "nvidia.com/gpu.product");
  f.count = OptionalCount(LabelNode(f, "nvidia.com/gpu.count"), log);
  f.replicas = OptionalCount(LabelNode(f, "nvidia.com/gpu.replicas"), log);
  f.mps = LabelValue(labels, "nvidia.com/gpu.sharing-strategy") == "mps";
  const ManifestNode capacity = item["status"]["capacity"];
  const int whole = OptionalCount(capacity["nvidia.com/gpu"], log);
  const int shared = OptionalCount(capacity["nvidia.com/gpu.shared"], log);
  f.renamed = shared > 0;
  f.advertised = f.renamed ? shared : whole;
  ReadMigResources(capacity, &f, log);
  return f;
}

// The GPUs a catalog instance type of this model has, else 0: under the single strategy
// GFD counts MIG devices, and a refused node counts none.
int CatalogGpus(const GpuFacts& f, const GpuModel* model) {
  const NodeType* t = FindNodeType(f.instance);
  return t != nullptr && t->gpu == model ? t->gpu_count : 0;
}

// Devices and replicas per device, checked against what the node advertises: with
// time-slicing the plugin advertises count x replicas (domain.md §3.3).
struct Sharing {
  int devices = 0;
  int replicas = 1;
};

// `whole_only`: every device is an nvidia.com/gpu (no MIG device under the mixed strategy,
// which leaves nvidia.com/gpu to the GPUs with MIG off).
Sharing ReadSharing(const GpuFacts& f, const Product& p, bool whole_only, ManifestLog* log) {
  const ManifestNode labels = (*f.item)["metadata"]["labels"];
  Sharing s;
  s.replicas = std::max(f.replicas, 1);
  const bool said_shared = p.shared || f.renamed || f.mps;
  // A label set without gpu.replicas (an older GFD): the replicas are what each device is
  // advertised as.
  if (s.replicas == 1 && said_shared && f.count > 0 && f.advertised > f.count &&
      f.advertised % f.count == 0) {
    s.replicas = f.advertised / f.count;
  }
  s.devices = f.count >= 0 ? f.count : std::max(f.advertised, 0) / s.replicas;
  if (whole_only && f.count >= 0 && f.advertised >= 0 && f.advertised != f.count * s.replicas) {
    labels.Warn(log, "node '" + f.node + "': status.capacity advertises " +
                         std::to_string(f.advertised) + " " +
                         (f.renamed ? "nvidia.com/gpu.shared" : "nvidia.com/gpu") +
                         ", but nvidia.com/gpu.count x nvidia.com/gpu.replicas is " +
                         std::to_string(f.count) + " x " + std::to_string(s.replicas) + " = " +
                         std::to_string(f.count * s.replicas) +
                         ": the labels are used (GPU Feature Discovery relabels after the "
                         "device plugin; check the node's GPUs and plugin config)");
  }
  if (said_shared && s.replicas == 1) {
    labels.Warn(log, "node '" + f.node + "': GPU product '" + f.product +
                         "' says the GPUs are shared, but neither nvidia.com/gpu.replicas nor "
                         "the advertised count says how many ways: imported unshared");
  }
  return s;
}

// The pool's `device_plugin` sharing member for `s`, or nothing.
void AddSharing(const GpuFacts& f, const Sharing& s, OrderedJson* plugin) {
  if (s.replicas <= 1) return;
  OrderedJson sharing = {{"replicas", s.replicas}};
  if (f.renamed) sharing["rename_by_default"] = true;
  (*plugin)[f.mps ? "mps" : "time_slicing"] = std::move(sharing);
}

// The same MIG layout on every GPU, from the advertised nvidia.com/mig-<profile> counts
// (mixed strategy); empty when they do not divide evenly.
OrderedJson LayoutFromResources(const GpuFacts& f, const GpuModel& model, int gpus) {
  OrderedJson layout = OrderedJson::array();
  for (const auto& [suffix, count] : f.mig_resources) {
    const auto p =
        std::find_if(model.profiles.begin(), model.profiles.end(),
                     [&s = suffix](const MigProfile& m) { return m.ResourceSuffix() == s; });
    if (p == model.profiles.end() || gpus == 0 || count % gpus != 0) return {};
    for (int i = 0; i < count / gpus; ++i) layout.push_back(p->name);
  }
  return OrderedJson::array({layout});
}

// Whole GPUs, or the mixed strategy: the `mig` object (absent: the default, MIG off) from
// the nvidia.com/mig.config label or the advertised MIG devices.
bool MixedMig(const GpuFacts& f, const GpuModel& model, int gpus, SnapshotGpus* out,
              ManifestLog* log) {
  const std::string config = LabelValue(f.labels, "nvidia.com/mig.config");
  const bool configured = !config.empty() && config != "all-disabled";
  if (!configured && f.mig_resources.empty()) return true;
  if (configured && ResolveMigConfig(model, config).ok()) {
    out->mig = {{"config", config}};
  } else if (OrderedJson layouts = LayoutFromResources(f, model, gpus); !layouts.empty()) {
    if (configured) {
      (*f.item)["metadata"]["labels"].Warn(
          log, "MIG config '" + config + "' is not one migsim knows for the " + model.name +
                   ": the layout advertised in status.capacity is used");
    }
    out->mig = {{"layouts", std::move(layouts)}};
  } else {
    (*f.item)["status"]["capacity"].Warn(log, "node '" + f.node + "': MIG config '" + config +
                                                  "' and the advertised MIG devices give no "
                                                  "layout migsim can rebuild: left out");
    return false;
  }
  std::string strategy = LabelValue(f.labels, "nvidia.com/mig.strategy");
  if (strategy != "single" && strategy != "mixed") {
    strategy = f.mig_resources.empty() ? "single" : "mixed";
  }
  out->device_plugin = {{"mig_strategy", strategy}};
  return true;
}

// The mixed strategy's time-sliced MIG resources (nvidia.com/mig-<profile>.replicas above
// 1). A scenario gives one replica count for all shared resources.
bool MigSharing(const GpuFacts& f, OrderedJson* plugin, ManifestLog* log) {
  if (f.mig_shared.empty()) return true;
  OrderedJson resources = OrderedJson::array();
  for (const auto& [resource, replicas] : f.mig_shared) {
    if (replicas != f.mig_shared.front().second) {
      (*f.item)["metadata"]["labels"].Warn(
          log, "node '" + f.node + "': its MIG resources are time-sliced " +
                   std::to_string(f.mig_shared.front().second) + " and " +
                   std::to_string(replicas) +
                   " ways; a scenario gives one replica count: left out");
      return false;
    }
    resources.push_back(resource);
  }
  (*plugin)["time_slicing"] = {{"replicas", f.mig_shared.front().second},
                               {"resources", std::move(resources)}};
  return true;
}

bool WholeGpus(const GpuFacts& f, const Product& p, SnapshotGpus* out, ManifestLog* log) {
  const std::string config = LabelValue(f.labels, "nvidia.com/mig.config");
  const bool mig = !f.mig_resources.empty() || (!config.empty() && config != "all-disabled");
  const Sharing s = ReadSharing(f, p, !mig, log);
  out->gpus = s.devices;
  if (out->gpus == 0) return true;
  if (out->model->mig_capable() && !MixedMig(f, *out->model, out->gpus, out, log)) return false;
  OrderedJson plugin = out->device_plugin.is_null() ? OrderedJson::object() : out->device_plugin;
  if (out->mig.is_null()) {
    AddSharing(f, s, &plugin);
  } else if (!MigSharing(f, &plugin, log)) {
    return false;
  }
  if (!plugin.empty()) out->device_plugin = std::move(plugin);
  return true;
}

// How many GPUs hold `devices` MIG devices of `profile` under the single strategy, when the
// instance type does not say: the nvidia.com/mig.config label's layout, else the profile's
// maximum per GPU (mig-parted's all-<profile>), with a warning. 0 when neither divides.
int SingleStrategyGpus(const GpuFacts& f, const GpuModel& model, const MigProfile& profile,
                       int devices, ManifestLog* log) {
  const std::string config = LabelValue(f.labels, "nvidia.com/mig.config");
  if (Result<GpuMigSetting> s = ResolveMigConfig(model, config); s.ok()) {
    const auto per_gpu = static_cast<int>(s.value().layout.size());
    if (per_gpu > 0 && devices % per_gpu == 0) return devices / per_gpu;
  }
  if (profile.max_count <= 0 || devices % profile.max_count != 0) return 0;
  (*f.item)["metadata"]["labels"].Warn(
      log, "node '" + f.node + "': instance type '" + f.instance +
               "' is not a catalog type, so the GPUs behind its " + std::to_string(devices) +
               " MIG devices are assumed to hold " + std::to_string(profile.max_count) + " x " +
               profile.name + " each (all-" + profile.ResourceSuffix() + "): " +
               std::to_string(devices / profile.max_count) + " GPUs");
  return devices / profile.max_count;
}

// The single strategy with every GPU partitioned into one profile.
bool SingleProfile(const GpuFacts& f, const Product& p, SnapshotGpus* out, ManifestLog* log) {
  const GpuModel& model = *out->model;
  const ManifestNode labels = (*f.item)["metadata"]["labels"];
  const int index = [&] {
    for (size_t i = 0; i < model.profiles.size(); ++i) {
      if (model.profiles[i].ResourceSuffix() == p.mig) return static_cast<int>(i);
    }
    return -1;
  }();
  if (index < 0) {
    labels.Warn(log, "node '" + f.node + "': GPU product '" + f.product + "': '" + p.mig +
                         "' is not a MIG profile of the " + model.name + ": left out");
    return false;
  }
  const MigProfile& profile = model.profiles[index];
  const Sharing s = ReadSharing(f, p, true, log);
  const int catalog = CatalogGpus(f, &model);
  out->gpus = catalog > 0 ? catalog : SingleStrategyGpus(f, model, profile, s.devices, log);
  if (out->gpus == 0 || s.devices == 0 || s.devices % out->gpus != 0) {
    labels.Warn(log, "node '" + f.node + "': " + std::to_string(s.devices) + " MIG devices " +
                         profile.name + " (nvidia.com/gpu.count under the single strategy) do "
                         "not divide evenly over " + std::to_string(out->gpus) +
                         " GPUs: left out");
    return false;
  }
  const int per_gpu = s.devices / out->gpus;
  const std::string config = LabelValue(f.labels, "nvidia.com/mig.config");
  const Result<GpuMigSetting> named = ResolveMigConfig(model, config);
  const bool same = named.ok() && static_cast<int>(named.value().layout.size()) == per_gpu &&
                    std::all_of(named.value().layout.begin(), named.value().layout.end(),
                                [index](const MigPlacement& m) { return m.profile == index; });
  if (same) {
    out->mig = {{"config", config}};
  } else {
    if (!config.empty()) {
      labels.Warn(log, "node '" + f.node + "': MIG config '" + config + "' does not give the " +
                           std::to_string(per_gpu) + " x " + profile.name +
                           " per GPU that GPU Feature Discovery reports: the reported layout "
                           "is used");
    }
    out->mig = {{"layouts", OrderedJson::array({OrderedJson(std::vector<std::string>(
                                static_cast<size_t>(per_gpu), profile.name))})}};
  }
  out->device_plugin = {{"mig_strategy", "single"}};
  AddSharing(f, s, &out->device_plugin);
  out->single_profile = true;
  return true;
}

// A node the single strategy refuses: kept, with a MIG state migsim's device plugin
// refuses too, so that it advertises no GPU, as the real one does.
bool InvalidSingle(const GpuFacts& f, SnapshotGpus* out, ManifestLog* log) {
  const GpuModel& model = *out->model;
  const ManifestNode labels = (*f.item)["metadata"]["labels"];
  out->gpus = CatalogGpus(f, &model);
  if (out->gpus == 0) {
    labels.Warn(log, "node '" + f.node + "': GPU product '" + f.product +
                         "' (the single MIG strategy refused the node's MIG devices) and "
                         "instance type '" + f.instance +
                         "', not a catalog type, do not say how many GPUs it has: left out");
    return false;
  }
  std::string config = LabelValue(f.labels, "nvidia.com/mig.config");
  const Result<GpuMigSetting> named = ResolveMigConfig(model, config);
  const DevicePluginConfig single{.strategy = MigStrategy::kSingle};
  if (!named.ok() ||
      DerivePluginView(model, std::vector(static_cast<size_t>(out->gpus), named.value()), single)
          .healthy) {
    config = "all-enabled";  // MIG on without instances: refused as well
  }
  out->mig = {{"config", config}};
  out->device_plugin = {{"mig_strategy", "single"}};
  labels.Warn(log, "node '" + f.node + "': GPU product '" + f.product +
                       "': the device plugin's single MIG strategy refused the node's MIG "
                       "devices (more than one profile, or a MIG-enabled GPU without one), so "
                       "it advertises no nvidia.com/gpu. Imported so: MIG config '" + config +
                       "' under the single strategy, which migsim refuses too (its CPU and "
                       "memory still take pods; pods bound to it that ask for GPUs wait). Fix "
                       "the node with a one-profile nvidia.com/mig.config or the mixed "
                       "strategy (see the all-balanced variant)");
  return true;
}

}  // namespace

std::string LabelValue(const Labels& labels, const std::string& key) {
  const auto it = std::find_if(labels.begin(), labels.end(),
                               [&key](const auto& label) { return label.first == key; });
  return it == labels.end() ? "" : it->second;
}

int DeviceCount(const ManifestNode& node, ManifestLog* log) {
  if (!node.present()) return 0;
  const std::string text = node.String(log);
  if (!log->ok()) return 0;
  if (text.empty() || text.size() > 6 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    node.Fail(log, "expected a device count, got '" + text + "'");
    return 0;
  }
  return std::stoi(text);
}

SnapshotGpus ReadSnapshotGpus(const ManifestNode& item, const std::string& node,
                              const Labels& labels, ManifestLog* log) {
  SnapshotGpus out;
  const GpuFacts f = ReadFacts(item, node, labels, log);
  if (!log->ok()) return out;
  if (f.product.empty() && f.count <= 0 && f.advertised <= 0 && f.mig_resources.empty()) {
    return out;  // no GPU
  }
  const Product p = ParseProduct(f.product);
  out.model = FindGpuModel(p.model);
  if (out.model == nullptr) {
    item["metadata"]["labels"].Warn(log, "node '" + node + "': GPU product '" + f.product +
                                             "' is not in migsim's catalog: left out");
    out.usable = false;
    return out;
  }
  if (!p.mig.empty() && !out.model->mig_capable()) {
    item["metadata"]["labels"].Warn(log, "node '" + node + "': GPU product '" + f.product +
                                             "' names MIG, which the " + out.model->name +
                                             " does not have: left out");
    out.usable = false;
    return out;
  }
  out.usable = p.mig.empty()        ? WholeGpus(f, p, &out, log)
               : p.mig == kInvalidMig ? InvalidSingle(f, &out, log)
                                    : SingleProfile(f, p, &out, log);
  if (out.gpus == 0) out.model = nullptr;
  return out;
}

}  // namespace migsim::k8s

#include "policies/plugin/plugin_policy.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "policies/plugin/migsim_policy_plugin.h"
#include "policies/plugin/plugin_library.h"
#include "policies/plugin/plugin_queue_order.h"

namespace migsim {
namespace {

struct Symbols {
  uint32_t (*abi_version)();
  void* (*create)(const char*, char*, size_t);
  void (*destroy)(void*);
  const char* (*name)(void*);
  int (*place)(void*, const migsim_view*, const migsim_pod*, migsim_placement*);
  PluginQueueLess queue_less;  // version 2, optional: nullptr when not exported
};

// What the fits callback needs: the call's view and pod.
struct FitsContext {
  const ClusterView* view;
  const PodView* pod;
};

int Fits(const void* context, uint32_t node) {
  const auto* c = static_cast<const FitsContext*>(context);
  const auto nodes = c->view->nodes();
  return node < nodes.size() && c->view->Fits(*c->pod, nodes[node]) ? 1 : 0;
}

class PluginPolicy final : public Policy {
 public:
  // REQUIRES: `name` is not null.
  PluginPolicy(PluginLibrary library, const Symbols& symbols, void* instance, const char* name)
      : library_(std::move(library)), symbols_(symbols), instance_(instance), name_(name) {}
  ~PluginPolicy() override { symbols_.destroy(instance_); }
  PluginPolicy(const PluginPolicy&) = delete;
  PluginPolicy& operator=(const PluginPolicy&) = delete;

  std::string_view name() const override { return name_; }
  std::optional<Placement> Place(const ClusterView& view, const PodView& pod) override;
  std::unique_ptr<QueueOrder> SuppliedQueueOrder(const QueueNames& names) override {
    if (symbols_.queue_less == nullptr) return nullptr;
    return MakePluginQueueOrder(symbols_.queue_less, instance_, names);
  }

 private:
  void Convert(const ClusterView& view);
  bool SameShape(const ClusterView& view) const;
  void Rebuild(const ClusterView& view);
  void Refresh(const NodeInfo& node, size_t resources);
  void Fill(const NodeInfo& node, size_t resources, migsim_node& n, int32_t* counts,
            migsim_device* devices, migsim_label* labels) const;
  migsim_pod ConvertPod(const PodView& pod);

  PluginLibrary library_;  // closed after the instance is destroyed
  Symbols symbols_;
  void* instance_;
  std::string name_;
  // The C view, kept between calls: a node is rewritten only when its generation moved
  // (a bind, a release, a MIG change), everything when the shape changed (a MIG change
  // that altered a node's device or label count, a new resource name).
  std::vector<migsim_node> nodes_;
  std::vector<migsim_device> devices_;
  std::vector<migsim_label> labels_;
  std::vector<int32_t> counts_;        // per node: allocatable then requested, by resource
  std::vector<uint64_t> generations_;  // per node: the generation nodes_ shows
  std::vector<const char*> resource_names_;
  std::vector<migsim_request> requests_;
};

// Writes node `node` into `n` and its slices of the buffers (sized for it).
void PluginPolicy::Fill(const NodeInfo& node, size_t resources, migsim_node& n, int32_t* counts,
                        migsim_device* devices, migsim_label* labels) const {
  n.id = node.id.value();
  n.name = node.name.c_str();
  n.schedulable = node.schedulable ? 1 : 0;
  n.mig_pending = node.mig_pending ? 1 : 0;
  n.cpu_milli_allocatable = node.cpu_milli_allocatable;
  n.cpu_milli_requested = node.cpu_milli_requested;
  n.memory_mib_allocatable = node.memory_mib_allocatable;
  n.memory_mib_requested = node.memory_mib_requested;
  for (size_t r = 0; r < resources; ++r) {
    counts[r] = node.Allocatable(ResourceId(static_cast<ResourceId::Rep>(r)));
    counts[resources + r] = node.Requested(ResourceId(static_cast<ResourceId::Rep>(r)));
  }
  n.allocatable = counts, n.requested = counts + resources;
  for (size_t i = 0; i < node.labels.size(); ++i) {
    labels[i] = {node.labels[i].first.c_str(), node.labels[i].second.c_str()};
  }
  n.labels = labels, n.label_count = static_cast<uint32_t>(node.labels.size());
  n.gpu_model = node.gpu_model != nullptr ? node.gpu_model->name.c_str() : nullptr;
  for (size_t i = 0; i < node.devices.size(); ++i) {
    const DeviceInfo& d = node.devices[i];
    migsim_device& out = devices[i];
    out.gpu = d.gpu;
    out.mig_profile = d.mig ? d.mig->profile : -1;
    out.mig_profile_name = d.mig ? node.gpu_model->profiles[d.mig->profile].name.c_str() : nullptr;
    out.mig_start = d.mig ? d.mig->start : 0;
    out.resource = d.resource.value();
    out.capacity = d.capacity;
    out.used = d.used;
    out.shared = d.shared ? 1 : 0;
    out.fractional = d.fractional ? 1 : 0;
  }
  n.devices = devices, n.device_count = static_cast<uint32_t>(node.devices.size());
  n.pod_count = static_cast<uint32_t>(node.pods.size());
}

bool PluginPolicy::SameShape(const ClusterView& view) const {
  const std::span<const NodeInfo> nodes = view.nodes();
  if (nodes.size() != nodes_.size() || view.resources().size() != resource_names_.size()) {
    return false;
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].devices.size() != nodes_[i].device_count ||
        nodes[i].labels.size() != nodes_[i].label_count) {
      return false;
    }
  }
  return true;
}

void PluginPolicy::Rebuild(const ClusterView& view) {
  const std::span<const NodeInfo> nodes = view.nodes();
  const size_t resources = view.resources().size();
  size_t devices = 0, labels = 0;
  for (const NodeInfo& n : nodes) devices += n.devices.size(), labels += n.labels.size();
  nodes_.assign(nodes.size(), migsim_node{});
  devices_.assign(devices, migsim_device{});
  labels_.assign(labels, migsim_label{});
  counts_.assign(2 * resources * nodes.size(), 0);
  generations_.assign(nodes.size(), 0);
  devices = 0, labels = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    Fill(nodes[i], resources, nodes_[i], counts_.data() + 2 * resources * i,
         devices_.data() + devices, labels_.data() + labels);
    generations_[i] = nodes[i].generation;
    devices += nodes[i].devices.size(), labels += nodes[i].labels.size();
  }
}

// Cost per call: O(nodes) to compare generations, plus the nodes that changed.
void PluginPolicy::Convert(const ClusterView& view) {
  const size_t resources = view.resources().size();
  if (!SameShape(view)) {
    resource_names_.resize(resources);
    Rebuild(view);
  } else {
    const std::span<const NodeInfo> nodes = view.nodes();
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].generation == generations_[i]) continue;
      migsim_node& n = nodes_[i];
      Fill(nodes[i], resources, n, const_cast<int32_t*>(n.allocatable),
           const_cast<migsim_device*>(n.devices), const_cast<migsim_label*>(n.labels));
      generations_[i] = nodes[i].generation;
    }
  }
  // Names are re-read every call: the table may have moved them when it grew.
  for (size_t r = 0; r < resources; ++r) {
    resource_names_[r] = view.resources().name(ResourceId(static_cast<ResourceId::Rep>(r))).c_str();
  }
}

migsim_pod PluginPolicy::ConvertPod(const PodView& pod) {
  requests_.clear();
  for (const ResourceRequest& r : pod.requests->extended) {
    requests_.push_back({r.resource.value(), r.count});
  }
  migsim_pod p{};
  p.id = pod.id.value();
  p.created_us = pod.created.micros();
  p.cpu_milli = pod.requests->cpu_milli;
  p.memory_mib = pod.requests->memory_mib;
  p.requests = requests_.data();
  p.request_count = static_cast<uint32_t>(requests_.size());
  p.pending_alike = pod.pending_alike;
  return p;
}

std::optional<Placement> PluginPolicy::Place(const ClusterView& view, const PodView& pod) {
  Convert(view);
  const migsim_pod p = ConvertPod(pod);
  const FitsContext context{&view, &pod};
  migsim_view v{};
  v.struct_size = sizeof(migsim_view);
  v.now_us = view.now().micros();
  v.nodes = nodes_.data();
  v.node_count = static_cast<uint32_t>(nodes_.size());
  v.resource_names = resource_names_.data();
  v.resource_count = static_cast<uint32_t>(resource_names_.size());
  v.fits = &Fits;
  v.fits_context = &context;
  migsim_placement out{};
  if (symbols_.place(instance_, &v, &p, &out) == 0) return std::nullopt;
  Placement placement{NodeId(out.node)};
  // More choices than the array holds cannot be read: they come to the engine as none,
  // which it refuses for a pod that asks for devices.
  const uint32_t count = std::min<uint32_t>(out.device_count, MIGSIM_MAX_DEVICE_CHOICES);
  for (uint32_t i = 0; i < count; ++i) {
    placement.devices.push_back({out.devices[i].device, out.devices[i].count});
  }
  if (out.device_count > MIGSIM_MAX_DEVICE_CHOICES) placement.devices.assign(1, {~0u, 1});
  return placement;
}

template <typename F>
bool Find(const PluginLibrary& library, const char* symbol, F* out) {
  *out = reinterpret_cast<F>(library.Symbol(symbol));
  return *out != nullptr;
}

}  // namespace

Result<std::unique_ptr<Policy>> LoadPluginPolicy(const std::string& path,
                                                 const std::string& params_json) {
  Result<PluginLibrary> opened = PluginLibrary::Open(path);
  if (!opened.ok()) return opened.status();
  PluginLibrary library = std::move(opened).value();
  Symbols s{};
  const char* names[] = {"migsim_policy_abi_version", "migsim_policy_create",
                         "migsim_policy_destroy", "migsim_policy_name", "migsim_policy_place"};
  const bool found[] = {Find(library, names[0], &s.abi_version), Find(library, names[1], &s.create),
                        Find(library, names[2], &s.destroy), Find(library, names[3], &s.name),
                        Find(library, names[4], &s.place)};
  for (size_t i = 0; i < std::size(names); ++i) {
    if (!found[i]) {
      return Status::InvalidArgument("policy library '" + path + "' does not export " + names[i]);
    }
  }
  const uint32_t abi = s.abi_version();
  if (abi < MIGSIM_POLICY_ABI_OLDEST || abi > MIGSIM_POLICY_ABI_VERSION) {
    return Status::InvalidArgument(
        "policy library '" + path + "' is built for policy ABI version " + std::to_string(abi) +
        "; this migsim loads versions " + std::to_string(MIGSIM_POLICY_ABI_OLDEST) + " to " +
        std::to_string(MIGSIM_POLICY_ABI_VERSION));
  }
  // Version 1 has no queue order: a symbol of that name in such a library is not this
  // ABI's (it may have another signature), so it is not looked up.
  if (abi >= 2) Find(library, "migsim_policy_queue_less", &s.queue_less);
  char error[512] = {0};
  void* instance = s.create(params_json.c_str(), error, sizeof error);
  if (instance == nullptr) {
    error[sizeof error - 1] = '\0';
    return Status::ParseError("policy library '" + path + "' refused its params: " +
                              (error[0] != '\0' ? std::string(error) : "no reason given"));
  }
  const char* name = s.name(instance);
  if (name == nullptr || name[0] == '\0') {
    s.destroy(instance);
    return Status::InvalidArgument("policy library '" + path + "': migsim_policy_name returned " +
                                   (name == nullptr ? "NULL" : "an empty name") +
                                   "; it must return the policy's name");
  }
  return std::unique_ptr<Policy>(
      std::make_unique<PluginPolicy>(std::move(library), s, instance, name));
}

}  // namespace migsim

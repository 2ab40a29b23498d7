#include "sim/engine/node_runtime.h"

#include <algorithm>
#include <utility>

#include "sim/core/check.h"
#include "sim/engine/observer.h"

namespace migsim {
namespace {

int GpuUnits(const GpuModel& model) { return std::max(model.compute_slices, 1); }

std::string DeviceKind(const GpuModel& model, const GpuMigSetting& gpu, const PluginDevice& d) {
  if (d.gi < 0) return "gpu";
  return model.profiles[gpu.layout[d.gi].profile].name;
}

void SetLabel(Labels& labels, const std::string& key, const std::string& value) {
  auto it = std::lower_bound(labels.begin(), labels.end(), key,
                             [](const auto& l, const std::string& k) { return l.first < k; });
  if (it != labels.end() && it->first == key) {
    it->second = value;
  } else {
    labels.insert(it, {key, value});
  }
}

}  // namespace

NodeRuntime::NodeRuntime(const NodeSpec& spec, NodeId id, ResourceTable& resources,
                         NodeInfo& info)
    : spec_(&spec), gpus_(spec.gpus), mig_config_(spec.mig_config) {
  if (!mig_config_.empty()) mig_state_ = "success";
  info.id = id;
  info.name = spec.name;
  info.taints = spec.taints;
  info.cpu_milli_allocatable = int64_t{spec.type->vcpu} * 1000;
  info.memory_mib_allocatable = static_cast<int64_t>(spec.type->memory_gib * 1024);
  if (spec.type->gpu != nullptr && spec.dra) {
    BuildDraDevices();  // no device plugin on the node: its view stays empty
  } else if (spec.type->gpu != nullptr) {
    view_ = DerivePluginView(*spec.type->gpu, gpus_, spec.plugin);
    BuildDevices(view_, resources);
  }
  RefreshInfo(resources, info);
}

void NodeRuntime::BuildDevices(const PluginView& view, ResourceTable& resources) {
  const GpuModel& model = *spec_->type->gpu;
  devices_.clear();
  share_devices_.clear();
  for (const PluginDevice& d : view.devices) {
    Device dev;
    dev.plugin = d;
    dev.resource = resources.Intern(d.resource);
    dev.kind = DeviceKind(model, gpus_[d.gpu], d);
    dev.weight = d.compute_slices * kGpuWeight / GpuUnits(model);
    dev.healthy = gpu_healthy(d.gpu);
    dev.limit = dev.healthy ? d.replicas : 0;
    has_fractional_ = has_fractional_ || d.fractional;
    if (d.fractional) share_devices_.push_back(static_cast<uint32_t>(devices_.size()));
    devices_.push_back(std::move(dev));
  }
  // Advertised names with zero devices (nvidia.com/gpu: 0) still get an id, so they
  // show up in the node's allocatable as the real kubelet shows them.
  for (const auto& [name, count] : view.advertised) resources.Intern(name);
}

void NodeRuntime::RefreshInfo(const ResourceTable& resources, NodeInfo& info) const {
  ++info.generation;
  info.allocatable.assign(resources.size(), 0);
  info.requested.resize(resources.size(), 0);
  if (!reconfiguring_) {
    for (const auto& [name, count] : view_.advertised) {
      info.allocatable[resources.Find(name).value()] = count;
    }
    for (const Device& d : devices_) {
      if (!d.healthy && d.resource.valid()) {
        info.allocatable[d.resource.value()] -= d.plugin.replicas;
      }
    }
  }
  RefreshShares(info);
  RefreshLabels(info);
  RefreshDevices(info);
}

// The policy's copy of the GPUs and devices, rebuilt whenever the devices are.
void NodeRuntime::RefreshDevices(NodeInfo& info) const {
  info.gpu_model = spec_->type->gpu;
  info.gpus = gpus_;
  info.mig_pending = reconfiguring_;
  info.dra = dra_.get();
  info.devices.clear();
  for (uint32_t i = 0; i < devices_.size(); ++i) {
    const Device& d = devices_[i];
    DeviceInfo out;
    out.gpu = d.plugin.gpu;
    out.mig = DevicePlacement(i);
    out.resource = d.resource;
    out.capacity = d.plugin.replicas;
    out.used = d.used;
    out.shared = d.plugin.shared;
    out.fractional = d.plugin.fractional;
    out.healthy = d.healthy;
    if (!d.healthy) out.capacity = 0;
    info.devices.push_back(out);
  }
}

void NodeRuntime::SyncUsed(std::span<const Held> held, NodeInfo& info) const {
  for (const Held& h : held) info.devices[h.device].used = devices_[h.device].used;
}

void NodeRuntime::RefreshLabels(NodeInfo& info) const {
  Labels labels = spec_->extra_labels;
  SetLabel(labels, "kubernetes.io/hostname", spec_->name);
  SetLabel(labels, "node.kubernetes.io/instance-type", spec_->type->name);
  for (const auto& [key, value] : view_.labels) SetLabel(labels, key, value);
  if (!mig_config_.empty()) SetLabel(labels, "nvidia.com/mig.config", mig_config_);
  if (!mig_state_.empty()) SetLabel(labels, "nvidia.com/mig.config.state", mig_state_);
  info.labels = std::move(labels);
}

bool NodeRuntime::AdmissionRejects(const PodRequests& req) const {
  if (!spec_->plugin.fail_requests_greater_than_one) return false;
  for (const ResourceRequest& r : req.extended) {
    if (r.count <= 1) continue;
    for (const Device& d : devices_) {
      if (d.resource == r.resource && d.plugin.shared) return true;
    }
  }
  return false;
}

// A device counts whole once it has a tenant, except a fractional one, which counts the
// share of its units in use (design.md: "milli-GPU: allocated milli / total").
int64_t NodeRuntime::Weighted(const Device& d) const {
  if (d.plugin.fractional) return d.weight * d.used / d.plugin.replicas;
  return d.used > 0 ? d.weight : 0;
}

// Unlike Weighted, a shared device is split among its replicas: a pod's share of a
// time-sliced GPU is what its tenant booked, whoever else is on the device.
double NodeRuntime::GpusHeld(std::span<const Held> held) const {
  double gpus = 0;
  for (const Held& h : held) {
    const Device& d = devices_[h.device];
    gpus += static_cast<double>(d.weight) * h.count / d.plugin.replicas;
  }
  return gpus / static_cast<double>(kGpuWeight);
}

int64_t NodeRuntime::Occupy(Device& d, int32_t tenants) {
  const int64_t before = Weighted(d);
  d.used += tenants;
  MIGSIM_CHECK(d.used >= 0 && d.used <= d.plugin.replicas, "device over- or under-booked");
  const int64_t delta = Weighted(d) - before;
  allocated_weight_ += delta;
  return delta;
}

// A share comes from one device, the first with room (lowest index); a request for whole
// multiples of the units takes that many entirely free devices.
int64_t NodeRuntime::AllocateFractional(const ResourceRequest& r, std::vector<Held>& out) {
  int64_t delta = 0;
  int32_t left = r.count;
  for (size_t i = 0; i < devices_.size() && left > 0; ++i) {
    Device& d = devices_[i];
    if (d.resource != r.resource || !d.healthy) continue;
    const int32_t units = d.plugin.replicas;
    const int32_t take = r.count <= units ? r.count : units;
    if (r.count <= units ? d.plugin.replicas - d.used < take : d.used != 0) continue;
    delta += Occupy(d, take);
    out.push_back({static_cast<uint32_t>(i), take});
    left -= take;
  }
  MIGSIM_CHECK(left == 0, "Allocate called for a share that does not fit");
  return delta;
}

// The policy chose (validated by ValidChoices): devices in request order, then in the
// order chosen.
int64_t NodeRuntime::AllocateChosen(const PodRequests& req, std::vector<Held>& out,
                                    std::span<const DeviceChoice> choices) {
  int64_t delta = 0;
  for (const ResourceRequest& r : req.extended) {
    for (const DeviceChoice& c : choices) {
      if (devices_[c.device].resource != r.resource) continue;
      delta += Occupy(devices_[c.device], c.count);
      out.push_back({c.device, c.count});
    }
  }
  return delta;
}

int NodeRuntime::PickShared(ResourceId r, const std::vector<int>& taken_by_this_pod) const {
  // The plugin's "distributed" policy: fewest tenants first; ties to the device this
  // request used least, then to the lowest index.
  int best = -1;
  for (size_t i = 0; i < devices_.size(); ++i) {
    const Device& d = devices_[i];
    if (d.resource != r || d.used >= d.limit) continue;
    const int tie = taken_by_this_pod[i];
    if (best < 0 || d.used < devices_[best].used ||
        (d.used == devices_[best].used && tie < taken_by_this_pod[best])) {
      best = static_cast<int>(i);
      // No later device comes before an idle one this request has not used yet.
      if (d.used == 0 && tie == 0) break;
    }
  }
  return best;
}

bool NodeRuntime::ValidChoice(const ResourceRequest& r, const DeviceChoice& c) const {
  const Device& d = devices_[c.device];
  if (c.count < 1 || d.limit - d.used < c.count) return false;
  if (!d.plugin.fractional) return true;
  // A share comes from one device; more than a device's units, in whole free devices.
  const int32_t units = d.plugin.replicas;
  return r.count <= units ? c.count == r.count : c.count == units;
}

bool NodeRuntime::ValidChoices(const PodRequests& req, std::span<const DeviceChoice> choices) const {
  if (reconfiguring_) return false;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (choices[i].device >= devices_.size()) return false;
    for (size_t j = 0; j < i; ++j) {
      if (choices[j].device == choices[i].device) return false;
    }
  }
  size_t matched = 0;
  for (const ResourceRequest& r : req.extended) {
    int64_t total = 0;
    for (const DeviceChoice& c : choices) {
      if (devices_[c.device].resource != r.resource) continue;
      if (!ValidChoice(r, c)) return false;
      total += c.count;
      ++matched;
    }
    if (total != r.count) return false;
  }
  return matched == choices.size();  // every choice serves a requested resource
}

int64_t NodeRuntime::Allocate(const PodRequests& req, std::vector<Held>& out, NodeInfo& info,
                              std::span<const DeviceChoice> choices) {
  const size_t first = out.size();
  ++info.generation;
  info.BookCpuMemory(req, +1);
  for (const ResourceRequest& r : req.extended) info.requested[r.resource.value()] += r.count;
  int64_t delta = 0;
  if (!choices.empty()) {
    delta = AllocateChosen(req, out, choices);
  } else {
    for (const ResourceRequest& r : req.extended) {
      if (has_fractional_ && IsFractional(r.resource)) {
        delta += AllocateFractional(r, out);
        continue;
      }
      taken_.assign(devices_.size(), 0);  // reused: no allocation per bind once grown
      picked_.clear();
      for (int n = 0; n < r.count; ++n) {
        int pick = PickShared(r.resource, taken_);
        MIGSIM_CHECK(pick >= 0, "Allocate called for a pod that does not fit");
        if (taken_[pick]++ == 0) picked_.push_back(static_cast<uint32_t>(pick));
        delta += Occupy(devices_[pick], 1);
      }
      std::sort(picked_.begin(), picked_.end());
      for (uint32_t d : picked_) out.push_back({d, taken_[d]});
    }
  }
  SyncUsed(std::span<const Held>(out).subspan(first), info);
  RefreshShares(info);
  return delta;
}

int64_t NodeRuntime::Release(const PodRequests& req, std::span<const Held> held, NodeInfo& info) {
  info.BookCpuMemory(req, -1);
  for (const ResourceRequest& r : req.extended) info.requested[r.resource.value()] -= r.count;
  return ReleaseDevices(held, info);
}

int64_t NodeRuntime::ReleaseDevices(std::span<const Held> held, NodeInfo& info) {
  ++info.generation;
  int64_t delta = 0;
  for (const Held& h : held) delta += Occupy(devices_[h.device], -h.count);
  if (dra_) ReleaseClaims(held, info);
  SyncUsed(held, info);
  RefreshShares(info);
  return delta;
}

bool NodeRuntime::IsFractional(ResourceId r) const {
  for (const Device& d : devices_) {
    if (d.resource == r) return d.plugin.fractional;
  }
  return false;
}

// Per-device room for fractional resources (NodeInfo::device_shares); none while the
// plugin is withdrawn for a MIG change.
void NodeRuntime::RefreshShares(NodeInfo& info) const {
  if (!has_fractional_) return;
  info.device_shares.clear();
  info.share_free.clear();
  for (uint32_t d : share_devices_) {
    const Device& dev = devices_[d];
    info.share_free.push_back(reconfiguring_ || !dev.healthy ? 0 : dev.plugin.replicas - dev.used);
  }
  for (const Device& d : devices_) {
    if (!d.plugin.fractional) continue;
    if (info.device_shares.size() <= d.resource.value()) {
      info.device_shares.resize(d.resource.value() + 1);
    }
    DeviceShares& s = info.device_shares[d.resource.value()];
    s.units = d.plugin.replicas;
    if (reconfiguring_ || !d.healthy) continue;
    s.largest_free = std::max(s.largest_free, d.plugin.replicas - d.used);
    if (d.used == 0) ++s.whole_free;
  }
}

void NodeRuntime::AddProcess(uint32_t device, PodId pod, int64_t memory_mib) {
  devices_[device].processes.push_back(pod);
  devices_[device].process_memory_mib += memory_mib;
}

bool NodeRuntime::RemoveProcess(uint32_t device, PodId pod, int64_t memory_mib) {
  std::vector<PodId>& p = devices_[device].processes;
  auto it = std::find(p.begin(), p.end(), pod);
  if (it == p.end()) return false;
  p.erase(it);
  devices_[device].process_memory_mib -= memory_mib;
  return true;
}

double NodeRuntime::SetBusy(uint32_t device, double fraction) {
  Device& d = devices_[device];
  const double delta = (fraction - d.busy) * static_cast<double>(d.weight);
  if ((fraction > 0) != (d.busy > 0)) {
    active_weight_ += fraction > 0 ? static_cast<double>(d.weight) : -static_cast<double>(d.weight);
  }
  d.busy = fraction;
  busy_weight_ += delta;
  return delta;
}

int64_t NodeRuntime::capacity_weight() const {
  return int64_t{spec_->type->gpu_count} * kGpuWeight;
}

}  // namespace migsim

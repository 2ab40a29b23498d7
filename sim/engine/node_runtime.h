#pragma once
// The engine's state of one node: the devices its device plugin hands out, how many
// tenants each has, and the scheduler-facing NodeInfo derived from them.
//
// Devices come from DerivePluginView over the node's current MIG settings; the
// advertised counts and labels in NodeInfo are recomputed from them, never kept apart.

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/cluster/device_plugin.h"
#include "sim/engine/cluster_spec.h"
#include "sim/engine/device_time_share.h"
#include "sim/policy/cluster_view.h"
#include "sim/policy/policy.h"

namespace migsim {

class NodeRuntime {
 public:
  // Replicas of one device held by a pod.
  struct Held {
    uint32_t device = 0;
    int32_t count = 0;
  };

  struct Device {
    PluginDevice plugin;
    ResourceId resource;
    std::string kind;  // "gpu" or the MIG profile name: the key of JobClass::run_time
    int32_t used = 0;  // tenants; at most plugin.replicas
    int64_t weight = 0;  // GPU capacity units it stands for (see kGpuWeight)
    // Pods whose containers run on the device, in start order (time-sliced devices only:
    // they share its time; see Engine::Reshare).
    std::vector<PodId> processes;
    DeviceTimeShare time_share;      // their classes, clocks and ends (Engine::Reshare)
    int64_t process_memory_mib = 0;  // the GPU memory they hold together
    double busy = 0;  // fraction of the device's time spent computing, in [0, 1]
    uint64_t tick = 0;  // the live DeviceTick of the device (Engine::Reshare)
    bool healthy = true;  // false while its GPU is unhealthy: nothing more is allocated
    int32_t limit = 0;    // the tenants it may take: plugin.replicas, 0 while unhealthy
    // DRA: while a shared ResourceClaim holds the device, how its pods share it (plugin.shared
    // is set then, so that they are its processes); null otherwise. Owned by the engine.
    const dra::DeviceSharing* sharing = nullptr;
  };

  // Builds the node from `spec` and fills `info`. `spec` must outlive the runtime.
  NodeRuntime(const NodeSpec& spec, NodeId id, ResourceTable& resources, NodeInfo& info);

  std::span<const Device> devices() const { return devices_; }
  const std::vector<GpuMigSetting>& gpus() const { return gpus_; }
  const NodeSpec& spec() const { return *spec_; }
  bool reconfiguring() const { return reconfiguring_; }
  // The device plugin's current view (advertised names, labels, health).
  const PluginView& plugin_view() const { return view_; }

  // A process holding `memory_mib` of the device's memory starts or stops on it;
  // RemoveProcess is false when `pod` was not running on the device.
  void AddProcess(uint32_t device, PodId pod, int64_t memory_mib);
  bool RemoveProcess(uint32_t device, PodId pod, int64_t memory_mib);
  void set_tick(uint32_t device, uint64_t tick) { devices_[device].tick = tick; }
  DeviceTimeShare& time_share(uint32_t device) { return devices_[device].time_share; }
  const DeviceTimeShare& time_share(uint32_t device) const { return devices_[device].time_share; }
  // Sets the device's busy fraction; returns the change in busy GPU weight.
  double SetBusy(uint32_t device, double fraction);

  // True when kubelet admission rejects the pod: the plugin has
  // failRequestsGreaterThanOne and the pod asks for more than one shared device.
  bool AdmissionRejects(const PodRequests& req) const;

  // Takes devices for the extended requests and books the pod in `info`; appends what it
  // took to `out` (one entry per device: by request, then in device order, or in the order
  // of `choices`). With `choices` empty the plugin's preferred allocation picks (exclusive
  // devices: first free; time-sliced: the device with fewest tenants; a fractional share:
  // the first device with room). REQUIRES: the pod fits `info`, and `choices` is empty or
  // ValidChoices. Returns the change of allocated GPU weight.
  int64_t Allocate(const PodRequests& req, std::vector<Held>& out, NodeInfo& info,
                   std::span<const DeviceChoice> choices = {});
  // True when `choices` is a valid device choice for a pod with requests `req`: each names
  // a distinct existing device serving one of the requested resources, with room for its
  // count; the counts per resource sum to the request; a fractional request takes one
  // device (a share) or whole free devices (a multiple of the units).
  bool ValidChoices(const PodRequests& req, std::span<const DeviceChoice> choices) const;
  // DRA (a node whose spec has `dra`): allocates the devices of `claims` as the scheduler's
  // DRA plugin does (dra::Allocator::Find, then Commit), takes the matching devices and
  // appends them to `out` in allocation order. Returns the change of allocated GPU weight
  // and how many MIG instances the allocation created (dynamic MIG).
  // REQUIRES: a DRA node on which Find succeeds (the pod passed ClusterView::Fits).
  struct ClaimResult {
    int64_t weight = 0;
    uint32_t created = 0;
    std::vector<uint32_t> claims;  // by device appended: the index of its claim in `claims`
  };
  ClaimResult AllocateClaims(std::span<const dra::ResourceClaim> claims,
                             std::span<const dra::DeviceClass> classes, std::vector<Held>& out,
                             NodeInfo& info);
  // DRA: the devices of a shared ResourceClaim, each held with one tenant (by the claim),
  // become shared: the pods using the claim are their processes, sharing them as
  // `sharing` says, until ReleaseSharedClaim. `sharing` must outlive that.
  void ShareClaimDevices(std::span<const Held> devices, const dra::DeviceSharing& sharing,
                         NodeInfo& info);
  // Frees a shared claim's devices (as Release does: dynamic MIG instances are destroyed).
  // Returns the (negative) change of allocated GPU weight. REQUIRES: ShareClaimDevices.
  int64_t ReleaseSharedClaim(std::span<const Held> devices, NodeInfo& info);
  // The DRA allocation state; null on a node under the device plugin.
  const dra::Allocator* dra() const { return dra_.get(); }
  // The GPU instance a device stands for, or nullopt for a whole GPU.
  std::optional<MigPlacement> DevicePlacement(uint32_t device) const;
  // Undoes Allocate (and AllocateClaims: DRA devices are freed, dynamic MIG instances
  // destroyed; a device held with no tenant, a shared claim's, stays allocated). Returns
  // the (negative) change of allocated GPU weight.
  int64_t Release(const PodRequests& req, std::span<const Held> held, NodeInfo& info);

  // The GPUs whose MIG setting differs from `target`.
  std::vector<int> ChangingGpus(const std::vector<GpuMigSetting>& target) const;
  // The plugin is paused for a MIG change: GPU resources are withdrawn and
  // nvidia.com/mig.config.state becomes `pending` (NodeInfo::mig_pending).
  void Withdraw(const std::string& config, NodeInfo& info);
  // The change is applied: devices are rebuilt from `gpus`. A device whose GPU instance
  // (or whole GPU) is still there, at the same placement, keeps its tenants. Returns old
  // device index -> new index (or -1 when gone).
  std::vector<int> Apply(const std::vector<GpuMigSetting>& gpus, const std::string& config,
                         ResourceTable& resources, NodeInfo& info);

  // The device plugin marks GPU `gpu` unhealthy (an Xid error) or healthy again: its
  // devices (the whole GPU, its MIG devices or replicas) leave the node's allocatable and
  // take no new tenant while unhealthy; tenants already there stay booked until released.
  // Kept across MIG changes. REQUIRES: 0 <= gpu < the node's GPU count.
  void SetGpuHealthy(int gpu, bool healthy, const ResourceTable& resources, NodeInfo& info);
  bool gpu_healthy(int gpu) const { return unhealthy_.empty() || unhealthy_[gpu] == 0; }
  // Sets nvidia.com/mig.config.state (e.g. "failed" after a failed apply).
  void SetMigState(const std::string& state, NodeInfo& info);
  const std::string& mig_state() const { return mig_state_; }
  const std::string& mig_config() const { return mig_config_; }

  int64_t allocated_weight() const { return allocated_weight_; }
  // Busy GPU weight: the devices' busy fractions x their weights, summed.
  double busy_weight() const { return busy_weight_; }
  // Active GPU weight: the weights of the devices whose busy fraction is > 0 (a process runs).
  double active_weight() const { return active_weight_; }
  // The GPU capacity `held` stands for, in GPUs (see Pod::gpus): each device's weight x
  // the replicas held / its replicas, over kGpuWeight.
  double GpusHeld(std::span<const Held> held) const;
  int64_t capacity_weight() const;

 private:
  void BuildDevices(const PluginView& view, ResourceTable& resources);
  void RefreshShares(NodeInfo& info) const;
  bool IsFractional(ResourceId r) const;
  int64_t AllocateFractional(const ResourceRequest& r, std::vector<Held>& out);
  int64_t AllocateChosen(const PodRequests& req, std::vector<Held>& out,
                         std::span<const DeviceChoice> choices);
  bool ValidChoice(const ResourceRequest& r, const DeviceChoice& c) const;
  void RefreshDevices(NodeInfo& info) const;
  void SyncUsed(std::span<const Held> held, NodeInfo& info) const;
  int64_t Weighted(const Device& d) const;
  void RefreshInfo(const ResourceTable& resources, NodeInfo& info) const;
  void RefreshLabels(NodeInfo& info) const;
  int64_t Occupy(Device& d, int32_t tenants);
  int PickShared(ResourceId r, const std::vector<int>& taken_by_this_pod) const;

  const NodeSpec* spec_;
  std::vector<GpuMigSetting> gpus_;
  std::vector<Device> devices_;
  PluginView view_;                // the latest derived view (labels, health)
  std::string mig_config_;         // nvidia.com/mig.config
  std::string mig_state_;          // nvidia.com/mig.config.state
  bool reconfiguring_ = false;
  bool has_fractional_ = false;  // some device is a fractional share
  std::vector<uint32_t> share_devices_;  // device index of each fractional-share GPU
  int64_t allocated_weight_ = 0;
  double busy_weight_ = 0;
  double active_weight_ = 0;
  std::vector<int> taken_;  // Allocate's scratch: devices taken by the pod being bound
  std::vector<uint32_t> picked_;  // ... and which, in the order first taken
  std::vector<uint8_t> unhealthy_;  // by GPU, 1 when unhealthy; empty until a GPU fails
  // DRA: the slice and its allocations (a stable address: NodeInfo::dra points at it).
  std::unique_ptr<dra::Allocator> dra_;
  void BuildDraDevices();
  void ReleaseClaims(std::span<const Held> held, NodeInfo& info);
  // Release's second half: frees `held` (and their DRA allocations), not the requests.
  int64_t ReleaseDevices(std::span<const Held> held, NodeInfo& info);
};

}  // namespace migsim

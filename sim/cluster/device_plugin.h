#pragma once
// The NVIDIA device plugin's view of a node: which devices it hands out and which
// extended resources the node advertises, derived from the GPUs' MIG state and the
// plugin config (domain.md §3). Nothing is stored twice: callers keep the GPU state
// and call Derive again when it changes.

#include <map>
#include <span>
#include <string>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_config.h"

namespace migsim {

enum class MigStrategy { kNone, kSingle, kMixed };
enum class SharingMode { kNone, kTimeSlicing, kMps, kFractional };

struct SharedResource {
  std::string name{};  // "nvidia.com/gpu" or "nvidia.com/mig-<profile>"
  int replicas = 1;  // >= 1
  bool operator==(const SharedResource&) const = default;
};

struct DevicePluginConfig {
  MigStrategy strategy = MigStrategy::kNone;
  SharingMode sharing = SharingMode::kNone;
  // Time-slicing or MPS: the resources shared and their replicas. Fractional: one entry,
  // the share resource (e.g. alibabacloud.com/gpu-milli) with the units per GPU.
  std::vector<SharedResource> shared{};
  bool rename_by_default = false;      // advertise "<name>.shared"
  bool fail_requests_greater_than_one = false;
  // Fraction of speed a time-sliced process loses to context switches while it shares a
  // device with others, in [0, 1). Not a plugin setting: NVIDIA publishes no figure, and
  // domain.md §6.3 suggests 0-5% for long kernels.
  double switch_overhead = 0;
  bool operator==(const DevicePluginConfig&) const = default;
};

// One allocatable device as the plugin advertises it.
struct PluginDevice {
  int gpu = 0;              // index of the physical GPU on the node
  int gi = -1;              // index into that GPU's MIG layout, or -1 for a whole GPU
  std::string resource{};   // advertised resource name, e.g. "nvidia.com/mig-1g.5gb"
  int replicas = 1;         // > 1 when time-sliced
  bool shared = false;      // true when advertised through time-slicing or MPS
  bool mps = false;         // shared through CUDA MPS rather than time-slicing
  // Shared in units (replicas = units per GPU) that one pod takes from this device only:
  // a fractional GPU share such as Alibaba's milli-GPU.
  bool fractional = false;
  int compute_slices = 0;   // g of the GI; for a whole GPU, the model's compute slices (or 1)
  int memory_mib = 0;       // memory of the device
};

struct PluginView {
  // False when the plugin refuses the node's state (e.g. single strategy with mixed MIG
  // device types); then `devices` is empty and `error` says why.
  bool healthy = true;
  std::string error{};
  std::vector<PluginDevice> devices{};
  // Resource name -> count, including explicit zeros for nvidia.com/gpu on GPU nodes.
  std::map<std::string, int> advertised{};
  // GPU Feature Discovery labels (nvidia.com/gpu.product, gpu.count, mig.strategy, ...).
  std::map<std::string, std::string> labels{};
};

// The most MPS clients (replicas) the plugin allows per GPU of `model` (domain.md §3.4).
int MaxMpsClients(const GpuModel& model);

// Derives the plugin's view. REQUIRES: gpus.size() is the node's GPU count and each
// setting is valid for `model` (mig_enabled only if model.mig_capable()).
//
// Strategies: none gives one whole nvidia.com/gpu per GPU whatever its MIG state. Single
// gives one nvidia.com/gpu per GI, and is unhealthy when MIG-on and MIG-off GPUs are mixed,
// a MIG-on GPU has no GI, or GIs of more than one profile exist; a node with no MIG-on GPU
// is served as under none, as the real plugin does. Mixed gives nvidia.com/gpu per MIG-off
// GPU and nvidia.com/mig-<profile suffix> per GI. Devices are ordered by GPU, then GI start.
// Time-slicing sets `replicas` on the devices of the listed resources (renamed to
// "<resource>.shared" with rename_by_default); `advertised` counts replicas.
// Labels: nvidia.com/gpu.{product,count,memory,replicas,sharing-strategy} (under a healthy
// single strategy with GIs, for the GI profile, plus multiprocessors and slices.{gi,ci}),
// nvidia.com/mig.capable, nvidia.com/mig.strategy (MIG-capable models under single/mixed),
// and under mixed the same set per profile present, e.g. nvidia.com/mig-1g.5gb.count.
// A node without GPUs gets an empty view.
PluginView DerivePluginView(const GpuModel& model, std::span<const GpuMigSetting> gpus,
                            const DevicePluginConfig& config);

}  // namespace migsim

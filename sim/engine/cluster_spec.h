#pragma once
// The cluster a run starts from, and the MIG relabellings that happen during it.
// Built and validated by the scenario loader; the engine trusts it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cluster/device_plugin.h"
#include "sim/cluster/mig_config.h"
#include "sim/cluster/mig_parted.h"
#include "sim/cluster/node_type.h"
#include "sim/core/sim_time.h"
#include "sim/engine/node_group_spec.h"
#include "sim/engine/fault_spec.h"
#include "sim/policy/resources.h"
#include "sim/policy/taint.h"

namespace migsim {

// A pool whose GPUs are under Dynamic Resource Allocation: NVIDIA's DRA driver publishes
// them in a ResourceSlice (sim/dra/resource_slice.h) instead of the device plugin
// advertising extended resources, so pods get them through ResourceClaims only.
struct DraPoolSpec {
  // NVIDIA's DynamicMIG (alpha): MIG devices are created when allocated and destroyed when
  // released; otherwise the GPUs' MIG setting (the pool's mig config) is published as is.
  bool dynamic_mig = false;
  // How long creating one MIG instance takes (GPU instance + compute instance, then the
  // kubelet plugin's preparation); the pod waits on its node meanwhile.
  SimTime mig_create = SimTime::Seconds(5);
};

struct NodeSpec {
  std::string name;
  // A catalog type (SharedCatalogNodeType: not owned) or a scenario's custom type, owned
  // here and shared by the nodes of its pools. Never null once loaded.
  std::shared_ptr<const NodeType> type;
  Labels extra_labels;  // user labels, sorted by key
  DevicePluginConfig plugin;
  std::vector<GpuMigSetting> gpus;  // one per GPU of the type
  // Value of the nvidia.com/mig.config label (a mig-parted config name), or empty when
  // the GPUs were given as custom per-GPU layouts.
  std::string mig_config;
  // The mig-parted file whose names mig_config and relabels resolve in, when the pool gave
  // one; null: the catalog's named configs. Shared by the pool's nodes.
  std::shared_ptr<const MigPartedFile> mig_parted;
  // The MIG manager's pending window when a policy repartitions the node's GPUs
  // (MigReconfiguration): as long as a scripted relabel's default (domain.md §4.2).
  SimTime mig_reconfiguration = SimTime::Micros(60'000'000);
  Taints taints{};                   // the node's spec.taints (the pool's `taints`)
  std::optional<DraPoolSpec> dra{};  // set: the node's GPUs are under DRA
};

// Setting nvidia.com/mig.config on a node at a given time (domain.md §4.1): the node's
// state goes `pending`, its GPU resources are withdrawn for `duration`, then it comes
// back `success` with the new layout.
//
// Pods on GPUs whose layout changes lose their MIG device (mig-parted destroys and
// rebuilds the whole GPU; the operator does not evict) and end failed with reason
// DeviceLost; their controllers react as to any failure. Pods on GPUs whose layout does
// not change keep running. Relabelling to the config already applied does nothing.
struct Reconfiguration {
  SimTime at;
  uint32_t node = 0;  // index into ClusterSpec::nodes
  std::string mig_config;
  std::vector<GpuMigSetting> gpus;  // the config resolved for the node's GPU model
  SimTime duration;
};

// A node pool of the scenario: ClusterSpec::nodes[first, first + count).
struct NodePoolRange {
  std::string name;
  uint32_t first = 0;
  uint32_t count = 0;
};

struct ClusterSpec {
  std::vector<NodeSpec> nodes;
  std::vector<Reconfiguration> reconfigurations;
  std::vector<NodePoolRange> pools{};  // in file order; empty: one pool, "cluster"
  std::vector<Fault> faults{};         // sorted by time
  std::vector<FaultProcess> fault_processes{};
  // Autoscaled pools (none: every node runs the whole run) and the Cluster Autoscaler's
  // settings, read only when there are node groups.
  std::vector<NodeGroupSpec> node_groups{};
  Provisioner provisioner = Provisioner::kClusterAutoscaler;  // of the node groups
  ClusterAutoscalerSpec autoscaler{};
  KarpenterSpec karpenter{};
};

}  // namespace migsim

#include "policies/mig_node_state.h"

namespace migsim {

int ProfileOfResource(const GpuModel& model, const std::string& resource) {
  if (resource.rfind(kMigResourcePrefix, 0) != 0) return -1;
  for (size_t p = 0; p < model.profiles.size(); ++p) {
    if (resource.compare(kMigResourcePrefix.size(), std::string::npos,
                         model.profiles[p].ResourceSuffix()) == 0) {
      return static_cast<int>(p);
    }
  }
  return -1;
}

MigGpu GpuState(const NodeInfo& node, int g) {
  MigGpu gpu;
  for (const MigPlacement& p : node.gpus[static_cast<size_t>(g)].layout) {
    gpu.gis.push_back({p, false});
  }
  for (const DeviceInfo& d : node.devices) {
    // An unhealthy GPU's instances count as taken: neither placed on nor repartitioned.
    if (d.gpu != g || !d.mig || (d.used == 0 && d.healthy)) continue;
    for (MigGi& gi : gpu.gis) gi.occupied = gi.occupied || gi.placement == *d.mig;
  }
  return gpu;
}

bool FitsBesidesDevices(const PodView& pod, const NodeInfo& node) {
  const PodRequests& req = *pod.requests;
  return !node.mig_pending && node.gpu_model != nullptr &&
         node.cpu_milli_requested + req.cpu_milli <= node.cpu_milli_allocatable &&
         node.memory_mib_requested + req.memory_mib <= node.memory_mib_allocatable &&
         ClusterView::Admits(pod, node);
}

}  // namespace migsim

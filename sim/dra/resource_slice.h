#pragma once
// A node's ResourceSlice as NVIDIA's DRA driver publishes it, derived from the GPUs' state.
//
// Every device carries the attributes type ("gpu" or "mig"), productName (the catalog
// name, e.g. "A100-SXM4-40GB"), architecture ("Volta", "Turing", "Ampere", "Hopper"),
// index (the GPU's; parentIndex on a MIG device) and, on a MIG device, profile
// ("1g.5gb") and placementStart (its first memory slice); and the capacities memory (the
// framebuffer, as nvidia-smi reports it) and multiprocessors.
//
// Without dynamic MIG: a GPU with MIG off is one whole-GPU device; a GPU with MIG on
// publishes the GPU instances of its layout (pre-created, e.g. by mig-parted) and no
// whole GPU. With dynamic MIG (NVIDIA's DynamicMIG, alpha; KEP-4815 partitionable
// devices) a MIG-capable GPU publishes its whole GPU and every MIG profile at every
// allowed placement, all consuming its shared counters: one counter per memory slice
// (capacity 1; a device consumes the slices of its placement, which is how placement is
// enforced), the compute slices (capacity 7 on an A100) and the media extensions
// (capacity 1; a "+me" device consumes it). The whole GPU consumes every counter, so a GPU
// is either handed out whole or partitioned. A GPU's layout setting is ignored then: it
// starts empty.
//
// Devices are ordered by GPU; per GPU the whole GPU first, then the MIG devices in the
// placement table's order (profiles as the catalog lists them, starts ascending). The
// allocator takes the first devices that fit in this order.

#include <span>
#include <string>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_config.h"
#include "sim/dra/device.h"

namespace migsim::dra {

struct Counter {
  std::string name;  // "gpu-0-memory-slice-3", "gpu-0-compute-slices", ...
  int gpu = 0;
  int32_t capacity = 0;
};

struct ResourceSlice {
  std::vector<Counter> counters;  // the shared counter sets of all GPUs, by GPU
  std::vector<Device> devices;
};

// The slice of a node with `gpus.size()` GPUs of `model`. REQUIRES: each setting valid for
// `model`.
ResourceSlice BuildResourceSlice(const GpuModel& model, std::span<const GpuMigSetting> gpus,
                                 bool dynamic_mig);

// "Ampere" for A100 and A30, "Hopper" for H100 and H200, "Volta" for V100, "Turing" for T4,
// "Ampere" for A10G; "" for a model migsim does not know the architecture of.
std::string ArchitectureOf(const GpuModel& model);

}  // namespace migsim::dra

#pragma once
// The milli-GPU view of a node and a pod used by GPU-sharing (openb / FGD) policies and
// the fragmentation measure (docs: openb-protocol.md §3-§5). A GPU has 1000 milli; a
// sharing pod takes `gpu_milli` < 1000 of one GPU; a whole-GPU pod takes 1000 on each of
// `num_gpu` GPUs.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace migsim {

inline constexpr int32_t kMilliPerGpu = 1000;

// What a pod asks, as the openb simulator reduces it (PodResource): memory is not part.
struct PodShape {
  int64_t cpu_milli = 0;
  int32_t gpu_milli = 0;  // per GPU; 0 for CPU-only pods
  int32_t num_gpu = 0;
  std::string gpu_type;   // allowed models separated by '|'; empty = any
  auto operator<=>(const PodShape&) const = default;
};

// A node's free resources.
struct GpuShareNode {
  int64_t cpu_left_milli = 0;
  std::vector<int32_t> gpu_free_milli;  // per GPU, by index
  std::string model;                    // GPU model label, e.g. "G2", "T4"
  // GpuClustering's affinity tags of the GPU pods on the node (AffinityTag bits).
  uint32_t pod_tags = 0;

  int64_t idle_milli() const {
    int64_t sum = 0;
    for (int32_t g : gpu_free_milli) sum += g;
    return sum;
  }
};

// A GPU pod's affinity tag as a bit (openb-protocol.md §4.3): bit 0 "share-gpu", bit k
// "k-gpu" for k whole GPUs (k < 31); 0 for a CPU-only pod.
inline uint32_t AffinityTag(const PodShape& pod) {
  if (pod.num_gpu <= 0 || pod.gpu_milli <= 0) return 0;
  if (pod.num_gpu == 1 && pod.gpu_milli < kMilliPerGpu) return 1u;
  return 1u << (pod.num_gpu < 31 ? pod.num_gpu : 31);
}

// True when the pod's type constraint admits `model` (empty pieces ignored; no pieces or
// an empty string: any model).
bool ModelAllowed(const std::string& gpu_type, const std::string& model);

// The non-empty '|'-separated pieces of `gpu_type`, in order; empty = any model.
std::vector<std::string> GpuTypeModels(std::string_view gpu_type);

}  // namespace migsim

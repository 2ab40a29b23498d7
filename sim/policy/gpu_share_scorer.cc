#include "sim/policy/gpu_share_scorer.h"

#include <algorithm>

namespace migsim {

bool FitsGpuShare(const GpuShareNode& node, const PodShape& pod) {
  if (pod.gpu_milli <= 0 || pod.num_gpu <= 0) return true;
  if (node.gpu_free_milli.empty()) return false;
  return ModelAllowed(pod.gpu_type, node.model) && GpusFit(node, pod);
}

std::vector<int> LowestFreeGpus(const GpuShareNode& node, int count) {
  std::vector<int> gpus;
  for (size_t i = 0; i < node.gpu_free_milli.size() && static_cast<int>(gpus.size()) < count; ++i) {
    if (node.gpu_free_milli[i] == kMilliPerGpu) gpus.push_back(static_cast<int>(i));
  }
  return gpus;
}

std::vector<int> BestFitGpus(const GpuShareNode& node, const PodShape& pod) {
  if (pod.num_gpu <= 0 || pod.gpu_milli <= 0) return {};
  if (pod.gpu_milli >= kMilliPerGpu) return LowestFreeGpus(node, pod.num_gpu);
  // The tightest GPUs that fit, one after another (lowest index on ties).
  std::vector<int> picked;
  while (static_cast<int>(picked.size()) < pod.num_gpu) {
    int best = -1;
    for (size_t i = 0; i < node.gpu_free_milli.size(); ++i) {
      const int32_t free = node.gpu_free_milli[i];
      if (free < pod.gpu_milli || std::find(picked.begin(), picked.end(), i) != picked.end()) {
        continue;
      }
      if (best < 0 || free < node.gpu_free_milli[best]) best = static_cast<int>(i);
    }
    if (best < 0) break;
    picked.push_back(best);
  }
  return picked;
}

GpuShareNode WithPod(GpuShareNode node, const PodShape& pod, std::span<const int> gpus) {
  node.cpu_left_milli -= pod.cpu_milli;
  for (int g : gpus) node.gpu_free_milli[g] -= pod.gpu_milli;
  return node;
}

int64_t GpuLeftMilli(const GpuShareNode& node) { return node.idle_milli(); }

}  // namespace migsim

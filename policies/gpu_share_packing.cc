// GpuPacking (openb-protocol.md §4.4): partly used GPUs first, then nodes with partly used
// GPUs, then empty nodes with few GPUs.
#include <algorithm>
#include <numeric>

#include "policies/gpu_share_scorers.h"

namespace migsim {
namespace {

int64_t PackingScore(const GpuShareNode& node, const PodShape& pod) {
  if (pod.num_gpu <= 0 || pod.gpu_milli <= 0) return 0;  // CPU-only: pure tie-break
  const std::vector<int32_t>& free = node.gpu_free_milli;
  const int64_t gpus = static_cast<int64_t>(free.size());
  const int64_t fully_free = std::count(free.begin(), free.end(), kMilliPerGpu);
  if (fully_free == gpus) return std::max<int64_t>(33 - fully_free, fully_free);  // case 3
  std::vector<int> order(free.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return free[a] < free[b]; });
  int picked = 0;
  int64_t picked_free = 0, rounded = 0;
  for (int g : order) {
    if (picked == pod.num_gpu) break;
    if (free[g] < pod.gpu_milli) continue;
    ++picked;
    picked_free += free[g] == kMilliPerGpu ? 1 : 0;
    rounded += int64_t{free[g]} * 100 / 1000;
  }
  if (picked_free > 0) return std::max<int64_t>(50 - picked_free, 33);  // case 2
  return std::max<int64_t>(100 - rounded / 10, 50);                     // case 1
}

class GpuPackingPolicy final : public GpuShareScorer {
 public:
  std::string_view name() const override { return "gpu-packing"; }
  int64_t Score(const GpuShareNode& node, const PodShape& pod) override {
    return PackingScore(node, pod);
  }
  std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) override {
    return BestFitGpus(node, pod);
  }
};

}  // namespace

std::unique_ptr<GpuShareScorer> MakeGpuPackingPolicy() {
  return std::make_unique<GpuPackingPolicy>();
}

}  // namespace migsim

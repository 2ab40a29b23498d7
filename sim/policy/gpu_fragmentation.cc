#include "sim/policy/gpu_fragmentation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

namespace migsim {
namespace {

// Indexes of the accumulators, in the reference simulator's order (frag.go
// FragRatioDataMap), so that sums run in its order too.
enum Category { kQ1, kQ2, kQ3, kQ4, kXl, kXr, kNa, kCategories };

// How a pod's per-GPU request meets a node's GPUs.
struct GpuFit {
  int32_t fitting_gpus = 0;  // #{i : free_i >= request}
  int64_t milli_below = 0;   // Σ free_i over the GPUs with free_i < request
};

// The node's free list, summarised once per call. Most typical pods ask one GPU, and most
// GPUs are either untouched or hold no gap smaller than a typical request; the summary
// answers those cases without walking the list. Every answer is exact: the shortcuts only
// skip integer work whose result they already know.
class FreeGpus {
 public:
  explicit FreeGpus(std::span<const int32_t> free) : free_(free) {
    for (int32_t g : free) {
      idle_ += g;
      max_ = std::max(max_, g);
      if (g > 0) {
        min_positive_ = std::min(min_positive_, g);
        ++positive_;
      }
    }
  }

  int64_t idle() const { return idle_; }

  // Whether #{i : free_i >= request} >= gpus. REQUIRES: request > 0.
  bool Fits(int32_t request, int32_t gpus) const {
    if (gpus == 1) return max_ >= request;
    return Fit(request).fitting_gpus >= gpus;
  }

  // REQUIRES: request > 0.
  GpuFit Fit(int32_t request) const {
    // Every GPU with free milli is at least the request: the rest hold nothing.
    if (request <= min_positive_) return {positive_, 0};
    GpuFit fit;
    // Branch-free: on a partly used node whether a GPU fits is a coin toss to the
    // predictor, and this loop is the hot spot of the FGD scan.
    for (int32_t g : free_) {
      const bool fits = g >= request;
      fit.fitting_gpus += fits;
      fit.milli_below += fits ? 0 : g;
    }
    return fit;
  }

 private:
  std::span<const int32_t> free_;
  int64_t idle_ = 0;
  int32_t max_ = std::numeric_limits<int32_t>::min();
  int32_t min_positive_ = std::numeric_limits<int32_t>::max();
  int32_t positive_ = 0;
};

// Adds one typical pod's share of the node's idle milli-GPU to its category.
void AddPod(const TypicalPod& pod, int64_t cpu_left_milli, std::string_view model,
            const FreeGpus& gpus, std::array<double, kCategories>& amount) {
  const double idle = static_cast<double>(gpus.idle());
  const bool cpu_fits = cpu_left_milli >= pod.shape.cpu_milli;
  if (pod.cpu_only()) {
    amount[cpu_fits ? kXl : kXr] += pod.p * idle;
    return;
  }
  if (!pod.Admits(model)) {
    amount[kNa] += pod.p * idle;
    return;
  }
  const int32_t request = pod.shape.gpu_milli;
  if (!gpus.Fits(request, pod.shape.num_gpu)) {
    amount[cpu_fits ? kQ2 : kQ1] += pod.p * idle;
    return;
  }
  if (!cpu_fits) {
    amount[kQ4] += pod.p * idle;
    return;
  }
  // Q3: the pod fits, yet GPUs too small for it stay unusable to it.
  const int64_t below = gpus.Fit(request).milli_below;
  amount[kQ2] += pod.p * static_cast<double>(below);
  amount[kQ3] += pod.p * static_cast<double>(gpus.idle() - below);
}

FragBreakdown ToBreakdown(const std::array<double, kCategories>& amount) {
  return {amount[kQ1], amount[kQ2], amount[kQ3], amount[kQ4],
          amount[kXl], amount[kXr], amount[kNa]};
}

// (shape, count) pairs, one per distinct shape, in the typical-pod order of §5.1.
std::vector<std::pair<PodShape, int64_t>> CountShapes(std::span<const PodShape> pods) {
  std::vector<PodShape> sorted(pods.begin(), pods.end());
  // Descending, so that the stable sort by count below leaves ties in descending order.
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  std::vector<std::pair<PodShape, int64_t>> counts;
  for (PodShape& shape : sorted) {
    if (counts.empty() || counts.back().first != shape) {
      counts.emplace_back(std::move(shape), 0);
    }
    ++counts.back().second;
  }
  std::stable_sort(counts.begin(), counts.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return counts;
}

}  // namespace

TypicalPod::TypicalPod(PodShape pod_shape, double probability)
    : shape(std::move(pod_shape)), p(probability), models_(GpuTypeModels(shape.gpu_type)) {}

bool TypicalPod::AdmitsConstrained(std::string_view model) const {
  return std::find(models_.begin(), models_.end(), model) != models_.end();
}

std::vector<TypicalPod> TypicalPods(std::span<const PodShape> pods, double coverage) {
  std::vector<std::pair<PodShape, int64_t>> counts = CountShapes(pods);
  const double threshold = coverage * static_cast<double>(pods.size());
  size_t kept = 0;
  int64_t kept_pods = 0;
  // The shape whose count crosses the threshold is kept (the loop tests before adding).
  while (kept < counts.size() && static_cast<double>(kept_pods) < threshold) {
    kept_pods += counts[kept++].second;
  }
  std::vector<TypicalPod> typical;
  typical.reserve(kept);
  for (size_t i = 0; i < kept; ++i) {
    double p = static_cast<double>(counts[i].second) / static_cast<double>(kept_pods);
    typical.emplace_back(std::move(counts[i].first), p);
  }
  return typical;
}

FragBreakdown NodeFragmentationBreakdown(int64_t cpu_left_milli,
                                         std::span<const int32_t> gpu_free_milli,
                                         std::string_view model,
                                         std::span<const TypicalPod> typical) {
  const FreeGpus gpus(gpu_free_milli);
  // Nothing idle: every category gets p × 0. Saturated nodes are common late in a run.
  if (gpus.idle() == 0) return {};
  std::array<double, kCategories> amount{};
  for (const TypicalPod& pod : typical) AddPod(pod, cpu_left_milli, model, gpus, amount);
  return ToBreakdown(amount);
}

FragBreakdown NodeFragmentationBreakdown(const GpuShareNode& node,
                                         std::span<const TypicalPod> typical) {
  return NodeFragmentationBreakdown(node.cpu_left_milli, node.gpu_free_milli, node.model, typical);
}

double NodeFragmentation(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli,
                         std::string_view model, std::span<const TypicalPod> typical) {
  return NodeFragmentationBreakdown(cpu_left_milli, gpu_free_milli, model, typical).fragment();
}

double NodeFragmentation(const GpuShareNode& node, std::span<const TypicalPod> typical) {
  return NodeFragmentation(node.cpu_left_milli, node.gpu_free_milli, node.model, typical);
}

int64_t FgdScore(double frag_before, double frag_after) {
  const double sigmoid = 1.0 / (1.0 + std::exp(-(frag_before - frag_after) / 1000.0));
  return static_cast<int64_t>(100.0 * sigmoid);
}

}  // namespace migsim

#pragma once
// The scoring functions of the six GPU-sharing policies of the ATC'23 FGD study
// (openb-protocol.md §4), on the study's own node model (milli-GPU per GPU): a score for a
// pod on a node and the GPUs it takes there. They are not a policy API — a policy is a
// Policy (policy.h). GpuShareAdapter (policies/) makes each of them a Policy for
// scenarios; the fill experiment, which reproduces the study's simulator loop exactly
// (random node ranks, typical pods from the trace, its score cache), calls them directly.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "sim/core/rng.h"
#include "sim/policy/gpu_share.h"

namespace migsim {

struct TypicalPod;

// What a policy may use besides the node: the run's random stream (Random only) and the
// typical pods of the workload (FGD only). Both outlive the policy.
struct GpuShareContext {
  Rng* rng = nullptr;
  std::span<const TypicalPod> typical;
};

class GpuShareScorer {
 public:
  virtual ~GpuShareScorer() = default;
  virtual std::string_view name() const = 0;
  // The node's score for the pod, an integer in [0, 100]; higher wins, ties go to the
  // node with the lowest rank. REQUIRES: FitsGpuShare(node, pod) and the CPU fits.
  virtual int64_t Score(const GpuShareNode& node, const PodShape& pod) = 0;
  // Score, for a caller that already knows `frag`, the node's fragmentation
  // (NodeFragmentation) under the context's typical pods: FGD starts from it instead of
  // computing it again; the others ignore it. The same result as Score.
  virtual int64_t ScoreKnowingFrag(const GpuShareNode& node, const PodShape& pod, double frag) {
    (void)frag;
    return Score(node, pod);
  }
  // The GPUs the pod takes on `node` (empty for a CPU-only pod), as indices.
  // REQUIRES: FitsGpuShare(node, pod).
  virtual std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) = 0;
  // A policy that picks the node itself among `feasible` (indices into the caller's
  // list, at least two) returns it; scoring policies return nullopt.
  virtual std::optional<size_t> PickNode(size_t feasible_count) {
    (void)feasible_count;
    return std::nullopt;
  }
};

// The Open-Gpu-Share filter (openb-protocol.md §3(b)) for GPUs only: the model is
// allowed, and a sharing or 1-GPU pod finds one GPU with enough free milli, a multi-GPU
// pod num_gpu GPUs that each have that much free.
bool FitsGpuShare(const GpuShareNode& node, const PodShape& pod);
// FitsGpuShare without the model test: enough GPUs with enough free milli (always true
// for a CPU-only pod). Inline: the fill experiment's filter runs it per node and pod.
inline bool GpusFit(const GpuShareNode& node, const PodShape& pod) {
  if (pod.gpu_milli <= 0 || pod.num_gpu <= 0) return true;
  // One GPU per requested GPU. The reference filter lets a GPU give several slots while
  // its free milli covers the request, but its Reserve then takes whole GPUs; for the
  // trace's multi-GPU pods (always 1000 milli) both rules agree, and one slot per GPU
  // keeps the filter and BestFitGpus consistent for any request.
  int fitting = 0;
  for (int32_t free : node.gpu_free_milli) {
    if (free >= pod.gpu_milli && ++fitting >= pod.num_gpu) return true;
  }
  return false;
}

// GPU selection "best" (§4.7): a sharing pod takes the GPU with the least free milli that
// still fits (lowest index on ties); whole-GPU pods the lowest-index fully free GPUs.
std::vector<int> BestFitGpus(const GpuShareNode& node, const PodShape& pod);

// The lowest-index fully free GPUs, `count` of them (fewer if there are not).
std::vector<int> LowestFreeGpus(const GpuShareNode& node, int count);

// `node` with the pod placed on `gpus` (CPU taken, milli taken from each listed GPU).
GpuShareNode WithPod(GpuShareNode node, const PodShape& pod, std::span<const int> gpus);

// Total free milli-GPU of the node.
int64_t GpuLeftMilli(const GpuShareNode& node);

}  // namespace migsim

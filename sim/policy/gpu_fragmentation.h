#pragma once
// The FGD fragmentation measure (docs: openb-protocol.md §5) and the FGD score (§4.6).
//
// A node's fragmentation is the part of its idle milli-GPU that the next pod, drawn from
// the trace's typical pods, is expected to be unable to use. The FGD policy prefers the
// placement that lowers it most.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policy/gpu_share.h"

namespace migsim {

// A frequent pod shape of the trace and the probability that the next pod has it.
struct TypicalPod {
  // Splits `pod_shape.gpu_type` once, so that the fragmentation loop only compares
  // model names.
  TypicalPod(PodShape pod_shape, double probability);

  // True when the shape asks no GPU (gpu_milli or num_gpu is 0 or less).
  bool cpu_only() const { return shape.gpu_milli <= 0 || shape.num_gpu <= 0; }
  // ModelAllowed(shape.gpu_type, model), without splitting the string again.
  bool Admits(std::string_view model) const { return models_.empty() || AdmitsConstrained(model); }
  // The non-empty pieces of shape.gpu_type; empty = any model.
  const std::vector<std::string>& models() const { return models_; }

  PodShape shape;  // do not modify gpu_type after construction: models() derives from it
  double p = 0;    // in [0, 1]; the p of a list from TypicalPods sum to 1

 private:
  bool AdmitsConstrained(std::string_view model) const;

  std::vector<std::string> models_;
};

// The typical pods of a trace (openb-protocol.md §5.1). Counts each distinct PodShape
// (memory is not part of it), sorts by count descending with ties broken by the shape
// compared lexicographically descending (cpu_milli, gpu_milli, num_gpu, gpu_type), and
// keeps shapes in that order while the kept count is below coverage × pods.size(); the
// shape that crosses the threshold is kept. p = count / kept count.
// `pods` is the original trace (CPU-only pods included), not the tuned pod stream.
// REQUIRES: 0 < coverage <= 1. Returns an empty list for an empty trace.
std::vector<TypicalPod> TypicalPods(std::span<const PodShape> pods, double coverage = 0.95);

// A node's idle milli-GPU split by how each typical pod sees the node (§5.2), weighted by
// the pods' p. Categories, checked in this order for each typical pod:
//   xl / xr  CPU-only pod; the node's CPU fits it / does not;
//   na       the pod's type constraint excludes the node's model;
//   q3       its GPUs fit (#{i : free_i >= gpu_milli} >= num_gpu) and the CPU fits; the
//            milli on GPUs with free_i < gpu_milli goes to q2 instead;
//   q4       GPUs fit, CPU does not;
//   q2       CPU fits, GPUs do not;
//   q1       neither fits.
// Each category but q3's split takes p × (the node's idle milli-GPU).
struct FragBreakdown {
  double q1 = 0;
  double q2 = 0;
  double q3 = 0;
  double q4 = 0;
  double xl = 0;
  double xr = 0;
  double na = 0;

  // The fragmentation F: every category but q3 (XL counts: a CPU-only pod cannot use any
  // idle GPU). Summed in the reference simulator's order, so results compare bit for bit.
  double fragment() const { return q1 + q2 + q4 + xl + xr + na; }
  // All categories: the node's idle milli-GPU when the typical p sum to 1.
  double idle() const { return q1 + q2 + q3 + q4 + xl + xr + na; }
};

// The breakdown of a node with `cpu_left_milli` free CPU, per-GPU free milli
// `gpu_free_milli` and GPU model `model`. Allocates nothing; O(typical.size()) when every
// GPU is either fully free or holds nothing smaller than the pod's request, otherwise
// O(typical.size() × GPUs). It depends on `gpu_free_milli` as a multiset: any order of
// the same values gives the same result, bit for bit (FGD scores equal GPUs once).
FragBreakdown NodeFragmentationBreakdown(int64_t cpu_left_milli,
                                         std::span<const int32_t> gpu_free_milli,
                                         std::string_view model,
                                         std::span<const TypicalPod> typical);
FragBreakdown NodeFragmentationBreakdown(const GpuShareNode& node,
                                         std::span<const TypicalPod> typical);

// F = NodeFragmentationBreakdown(...).fragment(), bit for bit, in milli-GPU. Pass the
// pieces to score a hypothetical node held in a stack array without building a
// GpuShareNode.
double NodeFragmentation(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli,
                         std::string_view model, std::span<const TypicalPod> typical);
double NodeFragmentation(const GpuShareNode& node, std::span<const TypicalPod> typical);

// The FGD node score of a placement that moves the node's fragmentation from
// `frag_before` to `frag_after`: trunc(100 × sigmoid((before − after) / 1000)), in 0..99
// for |before − after| <= 8000; 50 when the placement leaves F unchanged.
int64_t FgdScore(double frag_before, double frag_after);

}  // namespace migsim

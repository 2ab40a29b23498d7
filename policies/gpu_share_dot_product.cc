// DotProd (openb-protocol.md §4.2, dimext "merge", norm "max"): the smaller the dot
// product of the node's free [cpu, gpu] and the pod's request, the higher the score.
#include "policies/gpu_share_scorers.h"

namespace migsim {
namespace {

constexpr double kMaxSpecCpu = 128000;  // open-gpu-share utils/const.go
constexpr double kMaxSpecGpu = 8000;

class DotProductPolicy final : public GpuShareScorer {
 public:
  std::string_view name() const override { return "dot-product"; }
  int64_t Score(const GpuShareNode& node, const PodShape& pod) override {
    const double node_cpu = static_cast<double>(node.cpu_left_milli) / kMaxSpecCpu;
    const double node_gpu = static_cast<double>(GpuLeftMilli(node)) / kMaxSpecGpu;
    const double pod_cpu = static_cast<double>(pod.cpu_milli) / kMaxSpecCpu;
    const double pod_gpu = static_cast<double>(int64_t{pod.gpu_milli} * pod.num_gpu) / kMaxSpecGpu;
    const double d = (node_cpu * pod_cpu + node_gpu * pod_gpu) / 2;
    return static_cast<int64_t>(100 * (1 - d));
  }
  std::vector<int> SelectGpus(const GpuShareNode& node, const PodShape& pod) override {
    return BestFitGpus(node, pod);
  }
};

}  // namespace

std::unique_ptr<GpuShareScorer> MakeDotProductPolicy() {
  return std::make_unique<DotProductPolicy>();
}

}  // namespace migsim

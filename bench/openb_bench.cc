// Packing-benchmark costs: one FGD placement decision over the whole openb cluster (filter
// and score all 1213 nodes, no cache), and one whole fill experiment.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "policies/gpu_share_scorers.h"
#include "sim/io/openb_csv.h"
#include "sim/policy/gpu_fragmentation.h"
#include "sim/study/openb/fill_experiment.h"

namespace migsim {
namespace {

std::string DataDir() {
  const char* env = std::getenv("MIGSIM_OPENB_DIR");
  return env ? env : std::string(MIGSIM_SOURCE_DIR) + "/../shared/data/openb";
}

struct Openb {
  std::vector<OpenbNode> nodes;
  std::vector<OpenbPod> pods;
  bool ok = false;
};

const Openb& Data() {
  static const Openb data = [] {
    Openb d;
    auto nodes = LoadOpenbNodes(DataDir() + "/openb_node_list_gpu_node.csv");
    auto pods = LoadOpenbPods(DataDir() + "/openb_pod_list_default.csv");
    if (nodes.ok() && pods.ok()) d = {nodes.value(), pods.value(), true};
    return d;
  }();
  return data;
}

void BM_FgdPlacementDecision(benchmark::State& state) {
  const Openb& d = Data();
  if (!d.ok) return state.SkipWithError("openb data not found (set MIGSIM_OPENB_DIR)");
  std::vector<PodShape> shapes;
  for (const OpenbPod& p : d.pods) shapes.push_back(p.shape);
  const std::vector<TypicalPod> typical = TypicalPods(shapes);
  Rng rng(42);
  std::unique_ptr<GpuShareScorer> fgd = MakeGpuShareScorer("fgd", {&rng, typical});
  std::vector<GpuShareNode> cluster;
  for (const OpenbNode& n : d.nodes) {
    cluster.push_back({n.cpu_milli, std::vector<int32_t>(n.gpus, kMilliPerGpu), n.model, 0});
  }
  size_t next = 0;
  for (auto _ : state) {
    const PodShape& pod = d.pods[next++ % d.pods.size()].shape;
    int64_t best = -1;
    size_t chosen = 0;
    for (size_t i = 0; i < cluster.size(); ++i) {
      if (cluster[i].cpu_left_milli < pod.cpu_milli || !FitsGpuShare(cluster[i], pod)) continue;
      const int64_t score = fgd->Score(cluster[i], pod);
      if (score > best) best = score, chosen = i;
    }
    benchmark::DoNotOptimize(chosen);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FgdPlacementDecision)->Unit(benchmark::kMillisecond);

void BM_FillDefaultTrace(benchmark::State& state) {
  const Openb& d = Data();
  if (!d.ok) return state.SkipWithError("openb data not found (set MIGSIM_OPENB_DIR)");
  std::vector<FillNode> nodes;
  for (const OpenbNode& n : d.nodes)
    nodes.push_back({n.name, n.cpu_milli, n.memory_mib, n.gpus, n.model});
  std::vector<FillPod> pods;
  for (const OpenbPod& p : d.pods) pods.push_back({p.name, p.memory_mib, p.shape});
  const std::string policy = GpuShareScorerNames()[static_cast<size_t>(state.range(0))];
  for (auto _ : state) {
    auto r = RunFill(nodes, pods, FillConfig{policy, 42, 1.3}, &MakeGpuShareScorer);
    benchmark::DoNotOptimize(r);
  }
  state.SetLabel(policy);
}
BENCHMARK(BM_FillDefaultTrace)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace migsim

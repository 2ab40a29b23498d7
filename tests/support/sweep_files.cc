#include "tests/support/sweep_files.h"

#include <catch2/catch.hpp>
#include <utility>

namespace migsim::test {

const char* const kSweepScenario = R"({"name": "t", "description": "d",
  "policy": {"name": "first-fit"},
  "cluster": {
    "node_types": {"box": {"vcpu": 4, "memory_gib": 16, "gpus": 1, "gpu_model": "T4",
                           "price_per_hour": 0.5}},
    "nodes": {"a": {"type": "box", "labels": {}}}},
  "job_classes": {"train": {"run_s": 10}},
  "workloads": {"w": {"kind": "Pod", "count": 3,
                      "template": {"job_class": "train", "resources": {"nvidia.com/gpu": 1}}}},
  "variants": {"one": {}, "spread": {"policy": {"name": "spread"}}}})";

const char* const kSmallSweep = R"("axes": {"/cluster/nodes/a/count": [1, 2],
                                            "/seed": [1, 2]},
                                   "points": [{"/cluster/nodes/a/count": 3}])";

std::string SweepText(const std::string& members) {
  return R"({"name": "s", "scenario": )" + std::string(kSweepScenario) + ", " + members + "}";
}

SweepFile LoadSweep(const std::string& members) {
  Result<SweepFile> sweep = ParseSweepText(SweepText(members), "s.json");
  if (!sweep.ok()) FAIL(sweep.status().ToString());
  return std::move(sweep).value();
}

std::filesystem::path SweepTempDir(const std::string& name) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("migsim-sweep-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

SweepRunOptions SweepThreads(int threads, std::optional<Shard> shard) {
  SweepRunOptions options;
  options.threads = threads;
  options.shard = shard;
  return options;
}

}  // namespace migsim::test

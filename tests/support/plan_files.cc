#include "tests/support/plan_files.h"

#include <utility>

namespace migsim::test {

const char* const kPlanScenario = R"({
  "name": "ten", "description": "ten one-GPU pods at once", "horizon_s": 50,
  "cluster": {"nodes": {"gpu": {"type": "g4dn.xlarge", "count": 3}}},
  "job_classes": {"infer": {"run_s": 100}},
  "workloads": {"w": {"kind": "Job", "completions": 10, "parallelism": 10,
                      "template": {"job_class": "infer", "resources": {"nvidia.com/gpu": 1}}}},
  "variants": {"other": {"seed": 5}}
})";

std::string PlanText(const std::string& extra, int max_nodes) {
  return R"({"name": "p", "description": "d", "scenario": "../s.json", "pool": "gpu",
    "configurations": {
      "whole": {"type": "g4dn.xlarge"},
      "ts2": {"device_plugin": {"time_slicing": {"replicas": 2}}}},
    "slo": {"max_pending": 0}, "max_nodes": )" +
         std::to_string(max_nodes) + extra + "}";
}

ReadTextFile FilesFromMap(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& path) -> Result<std::string> {
    auto it = files.find(path);
    if (it == files.end()) {
      return Status::IoError("cannot read file: No such file or directory", {path, ""});
    }
    return it->second;
  };
}

Result<PlanFile> LoadPlan(const std::string& plan, const std::string& scenario) {
  return ParsePlanText(plan, "plans/p.json", FilesFromMap({{"s.json", scenario}}));
}

}  // namespace migsim::test

#pragma once
// The results of running a scenario file's variants, and the writers that present
// them: the side-by-side table, the results JSON and the per-pod CSV. Every column and
// field is documented in README.md ("Output").

#include <string>
#include <vector>

#include "workloads/scenario.h"
#include "workloads/simulation.h"

namespace migsim {

struct RunReport {
  const ScenarioFile* file = nullptr;
  std::vector<VariantResult> variants;  // in the order they ran
};

// Metrics as rows, variants as columns.
std::string FormatSummaryTable(const RunReport& report);

// {"scenario": ..., "variants": [{"name", "metrics": {...}, "nodes": [...]}, ...]}
std::string FormatResultsJson(const RunReport& report);

// One row per pod: name,owner,node,device,created,bound,started,finished,state,reason.
std::string FormatPodsCsv(const VariantResult& variant);

}  // namespace migsim

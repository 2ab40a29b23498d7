#pragma once
// Plan files: a capacity question over a scenario. The scenario gives the workload; the
// plan names one of its node pools and candidate configurations of that pool (node type,
// MIG layout, device plugin; optionally with patches of the workloads and of the whole
// scenario, e.g. its Karpenter settings), objectives (SLOs) and the seeds to check them on.
// `migsim plan` finds, per configuration, the fewest nodes that meet the objectives.
// The format is specified in scenarios/README.md ("Plan files").

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/named_files.h"
#include "sim/metrics/slo.h"
#include "workloads/scenario.h"

namespace migsim {

struct PlanConfiguration {
  std::string name;
  std::string node_type;      // of the pool's nodes under this configuration
  double price_per_hour = 0;  // of one such node, USD
  // The scenario document with the pool, workload and scenario patches applied and
  // without "variants" (JSON text); the pool's count (or max) and the seed are set per
  // evaluation.
  std::string document;
};

// What ranks the configurations that meet the objectives: their price per hour, or the
// energy their runs used (kWh, mean over the seeds run); ties go to the other, then to
// the shorter makespan.
enum class PlanRankBy : uint8_t { kCost, kEnergy };

struct PlanFile {
  std::string path;
  std::string name;
  std::string description;
  std::string scenario_path;  // resolved against the plan file's directory
  std::string pool;
  std::vector<PlanConfiguration> configurations;  // file order, at least one
  PlanSlo slo;
  int max_nodes = 1;
  std::vector<uint64_t> seeds;  // not empty; the scenario's seed by default
  PlanRankBy rank_by = PlanRankBy::kCost;  // `rank_by`: "cost" (default) or "energy"
  // How the scenario's named files are treated, here and by PlanScenario.
  NamedFiles named_files = NamedFiles::kRead;
};

// Reads a whole file as text; IoError "cannot read file: <reason>" located at the path.
using ReadTextFile = std::function<Result<std::string>(const std::string& path)>;

// Reads a plan file and its scenario and checks both: every configuration (and its
// workload and scenario patches) must load as a scenario with 1 and with max_nodes nodes
// (with the first seed).
//
// Errors name the plan file and the JSON pointer of the offending element:
//  - the plan's own problems, as for scenario files (unknown field, wrong type, ...);
//  - "/scenario": the scenario's error, e.g. "s.json: cannot read file: ...";
//  - "/pool": "unknown pool 'x' (valid: gpu, cpu)";
//  - "/configurations/<c>": "does not load as a scenario: <pointer>: <message>", the
//    pointer being into the scenario document with the pool patched;
//  - "/workload_patches/<c>", "/scenario_patches/<c>": the same when that patch breaks it;
//    a patch for no configuration: "unknown configuration 'x' (valid: ...)";
//  - "/scenario_patches/<c>/cluster/nodes/<pool>/count" (or .../autoscaling/max, /seed,
//    /variants): what the plan sets, e.g. "the plan sets the pool's count: remove it".
Result<PlanFile> LoadPlanFile(const std::string& path);

// Same, from text; the scenario path is resolved against the directory of `file_label`
// and read with `read`; the files the scenario names are read unless `named_files`
// refuses them (named_files.h). For tests.
Result<PlanFile> ParsePlanText(std::string_view text, const std::string& file_label,
                               const ReadTextFile& read,
                               NamedFiles named_files = NamedFiles::kRead);

// The scenario `configuration` runs with `nodes` nodes in the plan's pool, loaded with
// `seed` (ScenarioLoadOptions::seed: its arrivals are drawn from it too). REQUIRES:
// `configuration` is one of plan.configurations; nodes >= 1. Fails only when the document
// does not load at that size and seed.
Result<Scenario> PlanScenario(const PlanFile& plan, const PlanConfiguration& configuration,
                              int nodes, uint64_t seed);

}  // namespace migsim

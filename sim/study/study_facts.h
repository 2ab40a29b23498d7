#pragma once
// What a sweep or plan file would run, without running it: `migsim validate` of a sweep
// or plan file prints these (FormatSweepFacts, FormatPlanFacts) after checking the file as
// `migsim sweep` and `migsim plan` do before they run anything.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/io/plan_json.h"
#include "sim/io/sweep_json.h"

namespace migsim {

struct SweepFacts {
  std::string scenario;              // the scenario file; the sweep's own path when inline
  std::vector<std::string> columns;  // the pointers the points set
  size_t points = 0;
  size_t runs = 0;  // (point, variant) pairs: one simulation each
};

SweepFacts DescribeSweep(const SweepFile& sweep);

// "sweep of S: 12 points, 24 runs\n  sets /a, /b\n": the lines after validate's first.
std::string FormatSweepFacts(const SweepFacts& facts);

struct PlanConfigurationFacts {
  std::string name, node_type;
  double price_per_hour = 0;  // of one node of the pool, USD
};

struct PlanFacts {
  std::string scenario;  // the scenario file
  std::string pool;
  int max_nodes = 1;
  std::vector<uint64_t> seeds;
  std::string rank_by;  // "cost" or "energy"
  std::vector<PlanConfigurationFacts> configurations;
};

PlanFacts DescribePlan(const PlanFile& plan);

// "plan over S: pool p, 1 to 8 nodes, seeds 1, 2, ranked by cost\n  configuration c:
// p4d.24xlarge nodes at $32.77/h\n": the lines after validate's first.
std::string FormatPlanFacts(const PlanFacts& facts);

}  // namespace migsim

#pragma once
// The --json output of `migsim validate`, `migsim calibrate` and `migsim import` (README
// "JSON of the other commands"): the facts, fit and warnings their text prints, as one
// JSON document each.

#include <string>
#include <string_view>
#include <vector>

#include "sim/perf/mig_curve.h"
#include "sim/study/scenario_facts.h"
#include "sim/study/study_facts.h"

namespace migsim {

// What `migsim validate` shows of the scenario file.
struct ValidatedFile {
  std::string path, name, description;
  std::vector<std::string> warnings;  // manifest fields migsim does not model
};

// {"path", "name", "description", "valid": true, "warnings": [..], "variants": [{"name",
// "policy", "seed", "horizon_s" | null, "nodes": [{"count", "type", "mig_config" | null,
// "advertised"}], "reconfigurations", "provisioner" | null, "node_groups", "shared_claims",
// "workloads", "warnings"}]} — the keys of migsim.validate from Python, without its "text".
std::string FormatValidateJson(const ValidatedFile& file,
                               const std::vector<VariantFacts>& variants);

// A sweep or plan file (without `warnings`: neither has manifests of its own):
// {"path", "name", "description", "valid": true, "kind": "sweep", "scenario", "sets": [..],
// "points", "runs"};
// {"path", "name", "description", "valid": true, "kind": "plan", "scenario", "pool",
// "max_nodes", "seeds", "rank_by", "configurations": [{"name", "node_type",
// "price_usd_per_h"}]}.
std::string FormatValidateSweepJson(const ValidatedFile& file, const SweepFacts& sweep);
std::string FormatValidatePlanJson(const ValidatedFile& file, const PlanFacts& plan);

// One measured point of `migsim calibrate`.
struct CalibrationRow {
  int line = 0;  // in the CSV
  std::string_view gpu_model, kind;
  CurvePoint point;
};

// {"alpha", "beta", "r_squared", "points_count", "compute_only", "ill_determined",
// "points": [{"line", "gpu_model", "kind", "compute_share", "memory_share", "measured",
// "fitted", "error_percent"}], "mig_curve": {"alpha", "beta"}}
std::string FormatCalibrationJson(const std::vector<CalibrationRow>& points, const CurveFit& fit);

// The table's error column: the fitted ratio's error relative to the measured one, in %.
double CalibrationErrorPercent(const CurvePoint& point, double fitted);
// Whether alpha or beta is outside [-10, 10]: the points barely separate compute from
// memory (the table then warns).
bool CalibrationIllDetermined(const CurveFit& fit);

// {"scenario_file": path, "name", "warnings": [..], "notices": [..]}: what `migsim import`
// says about the snapshot (on stderr without --json).
struct ImportReport {
  std::string scenario_file, name;
  std::vector<std::string> warnings, notices;
};
std::string FormatImportJson(const ImportReport& report);

}  // namespace migsim

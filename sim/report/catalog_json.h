#pragma once
// The catalog commands' --json output (README "JSON of the other commands"): `migsim gpus`,
// `profiles`, `layouts`, `nodes`, `policies` and `job-classes`, from the same catalog
// entries their tables print.

#include <string>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_layout.h"
#include "sim/cluster/node_type.h"
#include "sim/policy/policy_spec.h"

namespace migsim {

// A catalog entry and whether the user's --scenario file defined it.
template <typename T>
struct CatalogRow {
  const T* item = nullptr;
  bool user = false;
};

// {"models": [{"name", "product_label", "memory_mib", "sms", "max_watts", "idle_watts",
// "mig": {"compute_slices", "memory_slices"} | null, "profiles": [names],
// "placements_inferred", "from_scenario"}], "scenario": path | null}
std::string FormatGpusJson(const std::vector<CatalogRow<GpuModel>>& models,
                           const std::string& catalog_file);

// {"model", "mig": bool, "compute_slices", "memory_slices", "placements_inferred",
// "profiles": [{"name", "profile_id", "compute_slices", "memory_slices", "memory_gib", "sms",
// "max_count", "starts": [..], "resource"}]}
std::string FormatProfilesJson(const GpuModel& model);

// {"model", "profiles": "classic" | "all", "memory_slices", "compute_slices", "layouts":
// [{"instances": [{"profile", "start"}], "compute_slices_used", "description"}]}
std::string FormatLayoutsJson(const GpuModel& model, const std::vector<MigLayout>& layouts,
                              bool all_profiles);

// {"node_types": [{"name", "gpus", "gpu_model" | null, "vcpu", "memory_gib",
// "price_usd_per_h", "spot_price_usd_per_h" | null, "cloud" | null, "region" | null,
// "price_date" | null, "from_scenario"}], "scenario": path | null}
std::string FormatNodesJson(const std::vector<CatalogRow<NodeType>>& node_types,
                            const std::string& catalog_file);

// How `migsim policies` names a parameter's kind, in its text and its JSON: "number",
// "integer", "boolean", "string", "score plugins".
const char* ParamKindName(ParamKind kind);

// {"policies": [{"name", "summary", "scores", "params": [{"name", "kind", "required",
// "default", "doc"}]}], "plugin_abi": {"oldest", "current"}, "queue_orders": [{"name",
// "summary"}]}
std::string FormatPoliciesJson();

// {"job_classes": [{"name", "work", "work_unit", "startup_s", "duty_cycle", "run_times":
// [{"kind", "run_s", "speed_per_s"}], "source"}]}
std::string FormatJobClassesJson();

}  // namespace migsim

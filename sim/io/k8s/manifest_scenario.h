#pragma once
// Internal to sim/io: a scenario's `manifests` turned into its priority classes, workloads
// and disruption budgets, with `manifest_overlay` supplying what manifests do not say.
// Called by the scenario loader in this order: read, priority classes (before any
// template takes a class), workloads (after the JSON ones), budgets (after the JSON ones).

#include <optional>
#include <string>
#include <vector>

#include "sim/io/json_reader.h"
#include "sim/io/k8s/manifest_objects.h"
#include "workloads/scenario.h"

namespace migsim::io {

// Reads the files and directories the JSON array at `list` names (relative to the scenario;
// a directory's .yaml, .yml and .json files in name order, not recursively), then `extra`
// (paths as given, from the command line). nullopt after reporting a problem.
std::optional<k8s::ManifestSet> ReadManifests(LoadContext* ctx, const JsonRef* list,
                                              const std::vector<std::string>& extra);

void AddManifestPriorityClasses(LoadContext* ctx, const k8s::ManifestSet& set, Scenario* scenario);

// Also applies the overlay's device_plugin ConfigMap to its pools.
// `overlay`: the scenario's manifest_overlay, or null. REQUIRES: the JSON workloads are
// loaded (manifest objects may not take their names).
void AddManifestWorkloads(LoadContext* ctx, const k8s::ManifestSet& set, const JsonRef* overlay,
                          Scenario* scenario);

void AddManifestBudgets(LoadContext* ctx, const k8s::ManifestSet& set, Scenario* scenario);

}  // namespace migsim::io

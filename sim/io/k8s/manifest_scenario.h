#pragma once
// Internal to sim/io: a scenario's `manifests` turned into its priority classes, workloads
// and disruption budgets, with `manifest_overlay` supplying what manifests do not say.
// Called by the scenario loader in this order: read, priority classes (before any
// template takes a class), device classes and claim templates (before any template takes a
// claim), workloads (after the JSON ones), budgets (after the JSON ones).

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

// manifest_dra.cc: the DeviceClasses into scenario->device_classes, then every
// ResourceClaimTemplate checked as a claim (one no pod uses too), so that pods and JSON
// workloads may use them. A DeviceClass named as one of NVIDIA's (gpu.nvidia.com,
// mig.nvidia.com) is the driver's own, as `kubectl get deviceclasses -o yaml` exports it: it
// changes nothing when its selectors are the built-in's and is an error otherwise; one named
// as a class of `device_classes` or of another manifest is an error, and so is a
// ResourceClaimTemplate or ResourceClaim named as another of its namespace. ResourceClaims
// become shared claims named "<namespace>/<name>". REQUIRES: the scenario's own
// device_classes and resource_claims are loaded.
void AddManifestDraObjects(LoadContext* ctx, const k8s::ManifestSet& set, Scenario* scenario);

// Also applies the overlay's device_plugin ConfigMap to its pools.
// `overlay`: the scenario's manifest_overlay, or null. REQUIRES: the JSON workloads are
// loaded (manifest objects may not take their names).
void AddManifestWorkloads(LoadContext* ctx, const k8s::ManifestSet& set, const JsonRef* overlay,
                          Scenario* scenario);

void AddManifestBudgets(LoadContext* ctx, const k8s::ManifestSet& set, Scenario* scenario);

}  // namespace migsim::io

#pragma once
// Internal to sim/io: Dynamic Resource Allocation's objects from manifests
// (manifest_dra.cc). DeviceClasses join the scenario's device classes, ResourceClaims its
// shared claims, and ResourceClaimTemplates become the claims of the pods that name them,
// all loaded by the JSON's loaders (the JSON's fields are the API's), their errors
// reported at YAML paths.

#include <string>
#include <vector>

#include "sim/dra/device_class.h"
#include "sim/dra/resource_claim.h"
#include "sim/io/json_reader.h"
#include "sim/io/k8s/manifest_objects.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {

// The claims of a pod of namespace `ns` with pod spec `spec`: for each spec.resourceClaims
// entry, its ResourceClaimTemplate's claim, named by the entry, or the shared claim its
// ResourceClaim became (AddManifestDraObjects). A template or ResourceClaim no manifest of
// that namespace defines is an error at the entry's resourceClaimTemplateName or
// resourceClaimName. REQUIRES: the DRA objects were added to `scenario`.
PodClaims ManifestPodClaims(LoadContext* ctx, const k8s::ManifestSet& set, const std::string& ns,
                            const k8s::PodSpecModel& spec, const Scenario& scenario);

}  // namespace migsim::io

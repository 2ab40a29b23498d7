#pragma once
// Internal to sim/io: Dynamic Resource Allocation's objects from manifests
// (manifest_dra.cc). DeviceClasses join the scenario's device classes and
// ResourceClaimTemplates become the claims of the pods that name them, both loaded by
// dra_json.cc's loaders (the JSON's fields are the API's), their errors reported at YAML
// paths.

#include <string>
#include <vector>

#include "sim/dra/device_class.h"
#include "sim/dra/resource_claim.h"
#include "sim/io/json_reader.h"
#include "sim/io/k8s/manifest_objects.h"

namespace migsim::io {

// The claims of a pod of namespace `ns` with pod spec `spec`: for each spec.resourceClaims
// entry, its ResourceClaimTemplate's claim, named by the entry. A template no manifest of
// that namespace defines is an error at the entry's resourceClaimTemplateName. REQUIRES: the
// templates were checked (AddManifestDraObjects), `classes` are the scenario's.
std::vector<dra::ResourceClaim> ManifestPodClaims(LoadContext* ctx, const k8s::ManifestSet& set,
                                                  const std::string& ns,
                                                  const k8s::PodSpecModel& spec,
                                                  const std::vector<dra::DeviceClass>& classes);

}  // namespace migsim::io

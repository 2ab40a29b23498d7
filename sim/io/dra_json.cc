// Dynamic Resource Allocation in scenarios: a pool's `dra`, the scenario's
// `device_classes` and pod templates' `resource_claims`, of their own or naming a shared
// claim (scenarios/README.md, "DRA"; the shared claims themselves: shared_claim_json.cc).
// Claims follow resource.k8s.io/v1's spec.devices.requests field names.

#include <algorithm>
#include <array>

#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

std::vector<std::string> ClassNames(const std::vector<dra::DeviceClass>& classes) {
  std::vector<std::string> names;
  for (const dra::DeviceClass& c : classes) names.push_back(c.name);
  return names;
}

// A selector as the API writes it, {"cel": {"expression": "..."}}, or the expression alone.
std::optional<dra::Selector> LoadSelector(LoadContext* ctx, const JsonRef& ref) {
  std::optional<std::string> text;
  std::string pointer = ref.pointer();
  if (ref.value().is_object()) {
    ObjectReader outer(ctx, ref, {"cel"});
    if (!outer.Require("cel")) return std::nullopt;
    ObjectReader cel(ctx, outer.Field("cel"), {"expression"});
    if (!cel.Require("expression")) return std::nullopt;
    text = ReadString(ctx, cel.Field("expression"));
    pointer = cel.Field("expression").pointer();
  } else {
    text = ReadString(ctx, ref);
  }
  if (!text) return std::nullopt;
  Result<dra::Selector> selector = dra::Selector::Parse(*text);
  if (!selector.ok()) {
    ctx->Fail(pointer, selector.status().message());
    return std::nullopt;
  }
  return std::move(selector).value();
}

std::vector<dra::Selector> LoadSelectors(LoadContext* ctx, const JsonRef& ref) {
  std::vector<dra::Selector> out;
  if (!ExpectArray(ctx, ref)) return out;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    if (std::optional<dra::Selector> s = LoadSelector(ctx, ref.Element(i))) {
      out.push_back(std::move(*s));
    }
  }
  return out;
}

// Names of claims, requests and sub-requests: DNS labels, unique among their siblings.
std::string LoadName(LoadContext* ctx, ObjectReader& r, std::vector<std::string>& seen) {
  std::string name = r.NonEmptyString("name");
  if (!ctx->ok()) return name;
  if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
    ctx->Fail(r.Field("name").pointer(), "name '" + name + "' is used twice");
  }
  seen.push_back(name);
  return name;
}

// `exactly` or one `firstAvailable` entry.
dra::DeviceSubRequest LoadSubRequest(LoadContext* ctx, ObjectReader& r,
                                     const std::vector<dra::DeviceClass>& classes) {
  dra::DeviceSubRequest sub;
  sub.device_class = r.NonEmptyString("deviceClassName");
  if (ctx->ok() && dra::FindDeviceClass(classes, sub.device_class) == nullptr) {
    ctx->Fail(r.Field("deviceClassName").pointer(),
              UnknownNameMessage("device class", sub.device_class, ClassNames(classes)));
  }
  if (r.Has("selectors") && ctx->ok()) sub.selectors = LoadSelectors(ctx, r.Field("selectors"));
  const std::string mode = r.String("allocationMode", "ExactCount");
  if (mode == "All") {
    sub.mode = dra::AllocationMode::kAll;
    if (r.Has("count")) ctx->Fail(r.Field("count").pointer(), "count is for ExactCount only");
  } else if (mode != "ExactCount") {
    ctx->Fail(r.Field("allocationMode").pointer(),
              "allocationMode must be ExactCount or All (got '" + mode + "')");
  }
  sub.count = static_cast<int32_t>(r.Int("count", 1, 1, 64));
  return sub;
}

constexpr std::array<std::string_view, 5> kSubRequestFields = {
    "name", "deviceClassName", "selectors", "allocationMode", "count"};

dra::DeviceRequest LoadRequest(LoadContext* ctx, const JsonRef& ref,
                               const std::vector<dra::DeviceClass>& classes,
                               std::vector<std::string>& names) {
  dra::DeviceRequest request;
  ObjectReader r(ctx, ref, {"name", "exactly", "firstAvailable"});
  if (!r.valid()) return request;
  request.name = LoadName(ctx, r, names);
  if (r.Has("exactly") == r.Has("firstAvailable")) {
    ctx->Fail(ref.pointer(), "give either 'exactly' or 'firstAvailable'");
    return request;
  }
  if (r.Has("exactly")) {
    ObjectReader e(ctx, r.Field("exactly"),
                   {"deviceClassName", "selectors", "allocationMode", "count"});
    if (!e.valid()) return request;
    request.alternatives.push_back(LoadSubRequest(ctx, e, classes));
    request.alternatives.back().name = request.name;
    return request;
  }
  const JsonRef list = r.Field("firstAvailable");
  if (!ExpectArray(ctx, list)) return request;
  if (list.value().empty() || list.value().size() > 8) {
    ctx->Fail(list.pointer(), "firstAvailable lists 1 to 8 alternatives");
  }
  request.first_available = true;
  std::vector<std::string> sub_names;
  for (size_t i = 0; i < list.value().size() && ctx->ok(); ++i) {
    ObjectReader s(ctx, list.Element(i), kSubRequestFields);
    if (!s.valid()) break;
    std::string name = LoadName(ctx, s, sub_names);
    request.alternatives.push_back(LoadSubRequest(ctx, s, classes));
    request.alternatives.back().name = std::move(name);
  }
  return request;
}

dra::ResourceClaim LoadClaim(LoadContext* ctx, const JsonRef& ref,
                             const std::vector<dra::DeviceClass>& classes,
                             std::vector<std::string>& claim_names) {
  dra::ResourceClaim claim;
  ObjectReader r(ctx, ref, {"name", "requests"});
  if (!r.valid()) return claim;
  claim.name = LoadName(ctx, r, claim_names);
  if (ctx->ok()) claim.requests = LoadClaimRequests(ctx, r, classes);
  return claim;
}

std::vector<std::string> SharedClaimNames(std::span<const dra::SharedClaim> shared) {
  std::vector<std::string> names;
  for (const dra::SharedClaim& c : shared) names.push_back(c.claim.name);
  return names;
}

// An entry naming a shared claim: {"name": ..., "resource_claim_name": ...}.
void LoadClaimReference(LoadContext* ctx, const JsonRef& ref,
                        std::span<const dra::SharedClaim> shared,
                        std::vector<std::string>& claim_names, PodClaims& out) {
  ObjectReader r(ctx, ref, {"name", "resource_claim_name"});
  if (!r.valid()) return;
  LoadName(ctx, r, claim_names);
  const std::string name = r.NonEmptyString("resource_claim_name");
  if (!ctx->ok()) return;
  const auto it = std::find_if(shared.begin(), shared.end(),
                               [&name](const dra::SharedClaim& c) { return c.claim.name == name; });
  const JsonRef at = r.Field("resource_claim_name");
  if (it == shared.end()) {
    return ctx->Fail(at.pointer(),
                     UnknownNameMessage("shared ResourceClaim", name, SharedClaimNames(shared)) +
                         " (the scenario's resource_claims)");
  }
  const dra::SharedClaimId id(static_cast<dra::SharedClaimId::Rep>(it - shared.begin()));
  if (std::find(out.shared.begin(), out.shared.end(), id) != out.shared.end()) {
    return ctx->Fail(at.pointer(), "the pod names ResourceClaim '" + name + "' twice");
  }
  out.shared.push_back(id);
}

}  // namespace

void LoadDraPool(LoadContext* ctx, const ObjectReader& pool, NodeSpec* node) {
  const JsonRef ref = pool.Field("dra");
  ObjectReader r(ctx, ref, {"dynamic_mig", "mig_create_s"});
  if (!r.valid()) return;
  const GpuModel* model = node->type->gpu;
  if (model == nullptr || node->type->gpu_count == 0) {
    ctx->Fail(ref.pointer(), "node type '" + node->type->name + "' has no GPUs to put under DRA");
    return;
  }
  if (pool.Has("device_plugin")) {
    ctx->Fail(pool.Field("device_plugin").pointer(),
              "a pool's GPUs are under DRA or the device plugin, not both (remove "
              "'device_plugin' or 'dra')");
    return;
  }
  DraPoolSpec spec;
  spec.dynamic_mig = r.Bool("dynamic_mig", false);
  spec.mig_create = r.Seconds("mig_create_s", spec.mig_create);
  if (spec.dynamic_mig && !model->mig_capable()) {
    ctx->Fail(r.Field("dynamic_mig").pointer(), model->name + " does not support MIG");
  } else if (spec.dynamic_mig && pool.Has("mig")) {
    ctx->Fail(pool.Field("mig").pointer(),
              "with dra.dynamic_mig the GPUs start without MIG instances: remove 'mig'");
  } else if (!spec.dynamic_mig && r.Has("mig_create_s")) {
    ctx->Fail(r.Field("mig_create_s").pointer(), "mig_create_s needs dynamic_mig: true");
  }
  node->dra = spec;
}

void CheckDraReconfigurations(LoadContext* ctx, const JsonRef& list, const ClusterSpec& cluster) {
  for (const Reconfiguration& r : cluster.reconfigurations) {
    if (!cluster.nodes[r.node].dra) continue;
    ctx->Fail(list.pointer(),
              "node '" + cluster.nodes[r.node].name + "' is under DRA: no MIG manager relabels it");
    return;
  }
}

void LoadDeviceClasses(LoadContext* ctx, const JsonRef& ref,
                       std::vector<dra::DeviceClass>* classes) {
  if (!ExpectNamedObject(ctx, ref, "device class")) return;
  for (const auto& [name, value] : ref.value().items()) {
    const JsonRef item = ref.Member(name);
    if (dra::FindDeviceClass(*classes, name) != nullptr) {
      ctx->Fail(item.pointer(), "device class '" + name + "' is defined already (" +
                                    "NVIDIA's driver installs gpu.nvidia.com and mig.nvidia.com)");
      return;
    }
    ObjectReader r(ctx, item, {"selectors"});
    if (!r.Require("selectors")) return;
    dra::DeviceClass device_class{.name = name,
                                  .selectors = LoadSelectors(ctx, r.Field("selectors"))};
    if (!ctx->ok()) return;
    classes->push_back(std::move(device_class));
  }
}

std::vector<dra::DeviceRequest> LoadClaimRequests(LoadContext* ctx, ObjectReader& claim,
                                                  const std::vector<dra::DeviceClass>& classes) {
  std::vector<dra::DeviceRequest> out;
  if (!claim.Require("requests") || !ExpectArray(ctx, claim.Field("requests"))) return out;
  const JsonRef requests = claim.Field("requests");
  if (requests.value().empty()) ctx->Fail(requests.pointer(), "a claim needs at least one request");
  std::vector<std::string> names;
  for (size_t i = 0; i < requests.value().size() && ctx->ok(); ++i) {
    out.push_back(LoadRequest(ctx, requests.Element(i), classes, names));
  }
  return out;
}

PodClaims LoadResourceClaims(LoadContext* ctx, const JsonRef& ref,
                             const std::vector<dra::DeviceClass>& classes,
                             std::span<const dra::SharedClaim> shared) {
  PodClaims claims;
  if (!ExpectArray(ctx, ref)) return claims;
  std::vector<std::string> names;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    const JsonRef entry = ref.Element(i);
    if (entry.value().is_object() && entry.value().contains("resource_claim_name")) {
      LoadClaimReference(ctx, entry, shared, names, claims);
    } else {
      claims.own.push_back(LoadClaim(ctx, entry, classes, names));
    }
  }
  return claims;
}

}  // namespace migsim::io

// DeviceClasses, ResourceClaimTemplates and ResourceClaims from manifests, loaded by the
// scenario's DRA loaders (dra_json.cc, shared_claim_json.cc) from the JSON dra_objects.cc
// wrote, so that both inputs are checked
// and modelled alike. The loader's errors are reported at the YAML place recorded for their
// JSON pointer.

#include "sim/io/k8s/manifest_dra.h"

#include <algorithm>

#include "sim/io/k8s/manifest_scenario.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

using k8s::ClaimTemplateObject;
using k8s::DeviceClassObject;
using k8s::ErrorAt;
using k8s::ManifestObject;
using k8s::ManifestPlace;

// The loader's error, at the place `json` (loaded at `base`) recorded for its pointer, else
// at `fallback`.
void ReportAt(LoadContext* ctx, const Status& error, const std::string& base,
              const k8s::PlacedJson& json, const ManifestPlace& fallback) {
  const std::string& pointer = error.location().json_pointer;
  const ManifestPlace* place =
      PointerStartsWith(pointer, base) ? json.PlaceOf(pointer.substr(base.size())) : nullptr;
  ctx->Fail(ErrorAt(place != nullptr ? *place : fallback, error.message()));
}

bool SameSelectors(const dra::DeviceClass& a, const dra::DeviceClass& b) {
  return a.selectors.size() == b.selectors.size() &&
         std::equal(a.selectors.begin(), a.selectors.end(), b.selectors.begin());
}

std::string Expressions(const dra::DeviceClass& c) {
  std::string out;
  for (const dra::Selector& s : c.selectors)
    out += (out.empty() ? "'" : ", '") + s.expression() + "'";
  return out;
}

// A DeviceClass named as one of the scenario's: NVIDIA's own is accepted as it is.
void CheckRedefinition(LoadContext* ctx, const ManifestObject& o, const DeviceClassObject& body,
                       const dra::DeviceClass& existing, const dra::DeviceClass& loaded) {
  const std::vector<dra::DeviceClass> nvidia = dra::NvidiaDeviceClasses();
  if (dra::FindDeviceClass(nvidia, o.name) == nullptr) {
    return ctx->Fail(ErrorAt(o.place, "DeviceClass '" + o.name +
                                          "' is defined twice (in the scenario's "
                                          "device_classes or the manifests)"));
  }
  if (SameSelectors(existing, loaded)) return;
  const ManifestPlace* selectors = body.PlaceOf("/selectors");
  ctx->Fail(ErrorAt(selectors != nullptr ? *selectors : o.place,
                    "DeviceClass '" + o.name + "' is NVIDIA's DRA driver's, with the selector " +
                        Expressions(existing) +
                        ": other selectors are not modelled (give your class another name)"));
}

void AddDeviceClass(LoadContext* ctx, const ManifestObject& o, const DeviceClassObject& body,
                    Scenario* scenario) {
  Json classes = Json::object();
  classes[o.name] = Json::parse(body.json);
  std::vector<dra::DeviceClass> loaded;
  LoadContext inner("", ctx->named_files());
  LoadDeviceClasses(&inner, JsonRef(classes, "/device_classes"), &loaded);
  if (!inner.ok()) {
    return ReportAt(ctx, inner.status(), "/device_classes/" + EscapePointerToken(o.name), body,
                    o.place);
  }
  if (const dra::DeviceClass* existing = dra::FindDeviceClass(scenario->device_classes, o.name)) {
    return CheckRedefinition(ctx, o, body, *existing, loaded.front());
  }
  scenario->device_classes.push_back(std::move(loaded.front()));
}

// The object of kind `Body` called `name` in namespace `ns`, or null.
template <typename Body>
const ManifestObject* FindObject(const k8s::ManifestSet& set, const std::string& ns,
                                 const std::string& name) {
  for (const ManifestObject& o : set.objects) {
    if (std::holds_alternative<Body>(o.body) && o.ns == ns && o.name == name) return &o;
  }
  return nullptr;
}

template <typename Body>
std::vector<std::string> ObjectNames(const k8s::ManifestSet& set, const std::string& ns) {
  std::vector<std::string> names;
  for (const ManifestObject& o : set.objects) {
    if (std::holds_alternative<Body>(o.body) && o.ns == ns) names.push_back(o.name);
  }
  return names;
}

// A shared claim's name in the scenario: namespaced, as the manifests' claims are.
std::string SharedClaimName(const std::string& ns, const std::string& name) {
  return ns + "/" + name;
}

// A ResourceClaim loaded as a member of the scenario's `resource_claims`, unique in its
// namespace.
void AddSharedClaim(LoadContext* ctx, const k8s::ManifestSet& set, const ManifestObject& o,
                    Scenario* scenario) {
  if (FindObject<k8s::SharedClaimObject>(set, o.ns, o.name) != &o) {
    return ctx->Fail(ErrorAt(
        o.place, "ResourceClaim '" + o.name + "' is defined twice in namespace '" + o.ns + "'"));
  }
  const auto& body = std::get<k8s::SharedClaimObject>(o.body);
  const std::string name = SharedClaimName(o.ns, o.name);
  Json claims = Json::object();
  claims[name] = Json::parse(body.json);
  LoadContext inner("", ctx->named_files());
  LoadSharedClaims(&inner, JsonRef(claims, "/resource_claims"), scenario->device_classes,
                   &scenario->shared_claims);
  if (!inner.ok()) {
    ReportAt(ctx, inner.status(), "/resource_claims/" + EscapePointerToken(name), body, o.place);
  }
}

// A ResourceClaimTemplate loaded as a claim of its own name, unique in its namespace.
void CheckTemplate(LoadContext* ctx, const k8s::ManifestSet& set, const ManifestObject& o,
                   const std::vector<dra::DeviceClass>& classes) {
  if (FindObject<ClaimTemplateObject>(set, o.ns, o.name) != &o) {
    return ctx->Fail(ErrorAt(o.place, "ResourceClaimTemplate '" + o.name +
                                          "' is defined twice in namespace '" + o.ns + "'"));
  }
  const auto& body = std::get<ClaimTemplateObject>(o.body);
  const Json claims = Json::array({Json::parse(body.json)});
  LoadContext inner("", ctx->named_files());
  LoadResourceClaims(&inner, JsonRef(claims, "/resource_claims"), classes);
  if (!inner.ok()) ReportAt(ctx, inner.status(), "/resource_claims/0", body, o.place);
}

// An error of a pod's claims: at the pod's claim name or shared claim's name, or in its
// template. `templates[i]` is null for an entry naming a shared claim.
void ReportClaimError(LoadContext* ctx, const Status& error, const k8s::PodSpecModel& spec,
                      const std::vector<const ManifestObject*>& templates) {
  const std::string& pointer = error.location().json_pointer;
  for (size_t i = 0; i < templates.size(); ++i) {
    const std::string base = "/resource_claims/" + std::to_string(i);
    if (!PointerStartsWith(pointer, base)) continue;
    if (PointerStartsWith(pointer, base + "/name")) {
      return ctx->Fail(ErrorAt(spec.claims[i].name_place, error.message()));
    }
    if (templates[i] == nullptr) {
      return ctx->Fail(ErrorAt(spec.claims[i].claim_place, error.message()));
    }
    const auto& body = std::get<ClaimTemplateObject>(templates[i]->body);
    return ReportAt(ctx, error, base, body, templates[i]->place);
  }
  if (spec.claims.empty()) return ctx->Fail(error);
  ctx->Fail(ErrorAt(spec.claims.front().name_place, error.message()));
}

// The JSON of one spec.resourceClaims entry, and its template (null for a shared claim);
// nullopt after reporting a name no manifest of the namespace defines.
std::optional<std::pair<Json, const ManifestObject*>> PodClaim(LoadContext* ctx,
                                                               const k8s::ManifestSet& set,
                                                               const std::string& ns,
                                                               const k8s::PodClaimRef& ref) {
  const bool shared = !ref.claim_name.empty();
  const std::string& name = shared ? ref.claim_name : ref.template_name;
  const ManifestObject* o = shared ? FindObject<k8s::SharedClaimObject>(set, ns, name)
                                   : FindObject<ClaimTemplateObject>(set, ns, name);
  if (o == nullptr) {
    const std::vector<std::string> names = shared ? ObjectNames<k8s::SharedClaimObject>(set, ns)
                                                  : ObjectNames<ClaimTemplateObject>(set, ns);
    ctx->Fail(ErrorAt(
        shared ? ref.claim_place : ref.template_place,
        UnknownNameMessage(shared ? "ResourceClaim" : "ResourceClaimTemplate", name, names) +
            " in namespace '" + ns + "'"));
    return std::nullopt;
  }
  if (shared) {
    return std::pair(Json{{"name", ref.name}, {"resource_claim_name", SharedClaimName(ns, name)}},
                     nullptr);
  }
  Json claim = Json::parse(std::get<ClaimTemplateObject>(o->body).json);
  claim["name"] = ref.name;
  return std::pair(std::move(claim), o);
}

}  // namespace

void AddManifestDraObjects(LoadContext* ctx, const k8s::ManifestSet& set, Scenario* scenario) {
  for (const ManifestObject& o : set.objects) {
    if (const auto* body = std::get_if<DeviceClassObject>(&o.body); body != nullptr) {
      AddDeviceClass(ctx, o, *body, scenario);
    }
    if (!ctx->ok()) return;
  }
  for (const ManifestObject& o : set.objects) {
    if (std::holds_alternative<ClaimTemplateObject>(o.body)) {
      CheckTemplate(ctx, set, o, scenario->device_classes);
    } else if (std::holds_alternative<k8s::SharedClaimObject>(o.body)) {
      AddSharedClaim(ctx, set, o, scenario);
    }
    if (!ctx->ok()) return;
  }
}

PodClaims ManifestPodClaims(LoadContext* ctx, const k8s::ManifestSet& set, const std::string& ns,
                            const k8s::PodSpecModel& spec, const Scenario& scenario) {
  Json claims = Json::array();
  std::vector<const ManifestObject*> templates;
  for (const k8s::PodClaimRef& ref : spec.claims) {
    std::optional<std::pair<Json, const ManifestObject*>> claim = PodClaim(ctx, set, ns, ref);
    if (!claim) return {};
    claims.push_back(std::move(claim->first));
    templates.push_back(claim->second);
  }
  LoadContext inner("", ctx->named_files());
  PodClaims out = LoadResourceClaims(&inner, JsonRef(claims, "/resource_claims"),
                                     scenario.device_classes, scenario.shared_claims);
  if (inner.ok()) return out;
  ReportClaimError(ctx, inner.status(), spec, templates);
  return {};
}

}  // namespace migsim::io

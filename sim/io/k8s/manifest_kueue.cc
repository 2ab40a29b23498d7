// Kueue's objects from manifests, merged into the scenario's `kueue` section and loaded by
// its loader (kueue_json.cc), so that both are checked and modelled alike. The loader's
// errors about a manifest object are reported at the object's YAML path: every JSON pointer
// the object was written to is mapped back to its manifest place.

#include <algorithm>

#include "sim/io/k8s/manifest_training.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

using k8s::ErrorAt;
using k8s::KueueObject;
using k8s::ManifestObject;

// Where a manifest object went in the merged section.
struct Origin {
  std::string pointer;  // "/kueue/clusterQueues/team-a"
  const ManifestObject* object;
  const KueueObject* kueue;
};

std::string SectionOf(const std::string& kind) {
  if (kind == "ResourceFlavor") return "resourceFlavors";
  if (kind == "ClusterQueue") return "clusterQueues";
  return "localQueues";
}

// LocalQueues are named within their namespace: their key is "<namespace>/<name>" until
// loaded.
std::string KeyOf(const ManifestObject& o) {
  return o.kind == "LocalQueue" ? o.ns + "/" + o.name : o.name;
}

// The loader's error at `pointer`, at the manifest place recorded for it, or at the
// scenario's pointer when it is about the JSON section.
void Report(LoadContext* ctx, const Status& error, const std::vector<Origin>& origins) {
  const std::string& pointer = error.location().json_pointer;
  for (const Origin& o : origins) {
    if (!PointerStartsWith(pointer, o.pointer)) continue;
    const k8s::ManifestPlace* place = o.kueue->PlaceOf(pointer.substr(o.pointer.size()));
    return ctx->Fail(ErrorAt(place != nullptr ? *place : o.object->place, error.message()));
  }
  ctx->Fail(pointer, error.message());
}

// A LocalQueue of the manifests named as one of the JSON section in the same namespace.
void CheckLocalQueueNames(LoadContext* ctx, const std::vector<Origin>& origins,
                          const Scenario& scenario) {
  const std::vector<LocalQueueSpec>& queues = scenario.kueue->local_queues;
  for (const Origin& o : origins) {
    if (o.object->kind != "LocalQueue") continue;
    const auto same = std::count_if(queues.begin(), queues.end(), [&](const LocalQueueSpec& q) {
      return q.name == o.object->name &&
             scenario.namespaces[static_cast<size_t>(q.namespace_index)] == o.object->ns;
    });
    if (same > 1) {
      return ctx->Fail(ErrorAt(o.object->place, "LocalQueue '" + o.object->name +
                                                    "' is defined twice in namespace '" +
                                                    o.object->ns + "'"));
    }
  }
}

}  // namespace

void LoadKueueWithManifests(LoadContext* ctx, const JsonRef* kueue, const k8s::ManifestSet* set,
                            Scenario* scenario) {
  std::vector<const ManifestObject*> objects;
  for (size_t i = 0; set != nullptr && i < set->objects.size(); ++i) {
    if (std::holds_alternative<KueueObject>(set->objects[i].body)) {
      objects.push_back(&set->objects[i]);
    }
  }
  const bool mergeable = kueue == nullptr || kueue->value().is_object();
  if (objects.empty() || !mergeable) {
    if (kueue != nullptr) LoadKueue(ctx, *kueue, scenario);
    return;
  }
  Json merged = kueue != nullptr ? kueue->value() : Json::object();
  for (const char* section : {"resourceFlavors", "clusterQueues", "localQueues"}) {
    if (!merged.contains(section)) merged[section] = Json::object();
  }
  std::vector<Origin> origins;
  for (const ManifestObject* o : objects) {
    const std::string section = SectionOf(o->kind), key = KeyOf(*o);
    Json& members = merged[section];
    if (!members.is_object()) break;  // the loader reports it
    if (members.contains(key)) {
      return ctx->Fail(ErrorAt(o->place, o->kind + " '" + o->name +
                                             "' is defined twice (in the scenario's kueue "
                                             "section or the manifests)"));
    }
    const auto& body = std::get<KueueObject>(o->body);
    members[key] = Json::parse(body.json);
    origins.push_back({"/kueue/" + section + "/" + EscapePointerToken(key), o, &body});
  }
  LoadContext inner("", ctx->named_files());
  LoadKueue(&inner, JsonRef(merged, "/kueue"), scenario);
  if (!inner.ok()) return Report(ctx, inner.status(), origins);
  for (LocalQueueSpec& q : scenario->kueue->local_queues) {
    const auto slash = q.name.find('/');
    const bool manifest = std::any_of(origins.begin(), origins.end(), [&](const Origin& o) {
      return o.object->kind == "LocalQueue" && KeyOf(*o.object) == q.name;
    });
    if (manifest) q.name = q.name.substr(slash + 1);
  }
  CheckLocalQueueNames(ctx, origins, *scenario);
}

}  // namespace migsim::io

// DRA's DeviceClass, ResourceClaimTemplate and ResourceClaim (resource.k8s.io), written as
// the JSON the scenario's own loaders read (sim/io/dra_json.cc, shared_claim_json.cc): a
// DeviceClass as a member of `device_classes`, a ResourceClaimTemplate's spec.spec.devices
// as a claim of a pod template's `resource_claims`, a ResourceClaim's spec.devices as a
// member of the scenario's `resource_claims` (its config: claim_config.cc). The JSON's
// fields are the API's, so one loader checks both and they model the same; what the JSON
// has no field for and that could change allocation is warned about (a template's or a
// class's driver configuration, constraints) or refused (admin access).

#include <algorithm>
#include <string>
#include <vector>

#include "sim/io/k8s/manifest_json.h"
#include "sim/io/k8s/workload_objects.h"

namespace migsim::k8s {
namespace {

using io::Json;

// A claim from a template is one pod's: how pods share its devices does not arise. (A
// shared ResourceClaim's config is read: claim_config.cc.)
constexpr const char* kConfigWarning =
    "driver configuration (time-slicing, MPS, ...) is not modelled: each device is allocated "
    "to one claim, unshared";

// resource.k8s.io/v1 and v1beta2 write a request's device fields under `exactly`; v1beta1
// (Kubernetes 1.32, 1.33) writes them in the request itself. Earlier versions (v1alpha3)
// are refused. An object without apiVersion is read as v1.
enum class DraVersion { kV1, kV1beta1 };

DraVersion ReadDraVersion(const ManifestNode& doc, ManifestLog* log) {
  const size_t version = doc["apiVersion"].Choice(
      log, "apiVersion",
      {"resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1"});
  return version == 2 ? DraVersion::kV1beta1 : DraVersion::kV1;
}

// `exactly` or a `firstAvailable` entry: the JSON's fields (deviceClassName, selectors,
// allocationMode, count; any other is the loader's error), without those not modelled.
Json SubRequest(const ManifestNode& sub, const std::string& pointer,
                std::initializer_list<std::string_view> skip, ManifestLog* log,
                ManifestJsonBuilder* b) {
  if (!sub.yaml().IsMap()) return b->ToJson(sub, pointer);
  b->Place(pointer, sub.place());
  WarnEach(sub, log,
           {{"tolerations", "device taints are not modelled: no device has one to tolerate"},
            {"capacity", "consumable capacity is not modelled: each device is allocated whole"}});
  if (const ManifestNode admin = sub["adminAccess"]; admin.Bool(log, false)) {
    admin.Fail(log,
               "admin access (to devices allocated to other claims, for monitoring) is not "
               "modelled");
  }
  Json out = Json::object();
  std::vector<std::string_view> all = {"tolerations", "capacity", "adminAccess"};
  all.insert(all.end(), skip.begin(), skip.end());
  for (const std::string& key : sub.Keys(log)) {
    if (std::find(all.begin(), all.end(), key) != all.end()) continue;
    out[key] = b->ToJson(sub[key], pointer + "/" + io::EscapePointerToken(key));
  }
  return out;
}

Json FirstAvailable(const ManifestNode& list, const std::string& pointer, ManifestLog* log,
                    ManifestJsonBuilder* b) {
  if (!list.yaml().IsSequence()) return b->ToJson(list, pointer);
  b->Place(pointer, list.place());
  Json out = Json::array();
  const std::vector<ManifestNode> entries = list.Elements(log);
  for (size_t i = 0; i < entries.size(); ++i) {
    out.push_back(SubRequest(entries[i], pointer + "/" + std::to_string(i), {}, log, b));
  }
  return out;
}

Json Request(const ManifestNode& request, const std::string& pointer, bool v1beta1,
             ManifestLog* log, ManifestJsonBuilder* b) {
  if (!request.yaml().IsMap()) return b->ToJson(request, pointer);
  b->Place(pointer, request.place());
  Json out = Json::object();
  if (const ManifestNode name = request["name"]; name.present()) {
    out["name"] = b->ToJson(name, pointer + "/name");
  }
  if (v1beta1 && !request["firstAvailable"].present()) {
    out["exactly"] = SubRequest(request, pointer + "/exactly", {"name"}, log, b);
    return out;
  }
  for (const std::string& key : request.Keys(log)) {
    const std::string at = pointer + "/" + io::EscapePointerToken(key);
    if (key == "exactly") {
      out[key] = SubRequest(request[key], at, {}, log, b);
    } else if (key == "firstAvailable") {
      out[key] = FirstAvailable(request[key], at, log, b);
    } else if (key != "name") {
      out[key] = b->ToJson(request[key], at);
    }
  }
  return out;
}

Json Requests(const ManifestNode& list, bool v1beta1, ManifestLog* log, ManifestJsonBuilder* b) {
  if (!list.yaml().IsSequence()) return b->ToJson(list, "/requests");
  b->Place("/requests", list.place());
  Json out = Json::array();
  const std::vector<ManifestNode> requests = list.Elements(log);
  for (size_t i = 0; i < requests.size(); ++i) {
    out.push_back(Request(requests[i], "/requests/" + std::to_string(i), v1beta1, log, b));
  }
  return out;
}

// spec.spec.devices (a template's) or spec.devices (a claim's, `nested` false), after a
// failure at the first level missing or no mapping.
ManifestNode ClaimDevices(const ManifestNode& doc, bool nested, ManifestLog* log) {
  const ManifestNode spec = doc["spec"], claim = nested ? spec["spec"] : spec;
  const ManifestNode devices = claim["devices"];
  if (!spec.present()) {
    doc.Fail(log, "missing required field 'spec'");
  } else if (spec.ExpectMap(log) && !claim.present()) {
    spec.Fail(log, "missing required field 'spec'");
  } else if (claim.present() && claim.ExpectMap(log) && !devices.present()) {
    claim.Fail(log, "missing required field 'devices'");
  } else if (devices.present()) {
    devices.ExpectMap(log);
  }
  return devices;
}

// A claim's devices as the JSON's claim: its requests and any field the JSON does not have
// (the loader's error). Constraints are warned about, and config too unless `shared` (the
// caller reads a shared claim's).
Json ClaimJson(const ManifestNode& doc, const ManifestNode& devices, bool shared, ManifestLog* log,
               ManifestJsonBuilder* b) {
  const bool v1beta1 = ReadDraVersion(doc, log) == DraVersion::kV1beta1;
  b->Place("", devices.place());
  WarnEach(devices, log,
           {{"constraints",
             "constraints (matchAttribute) are not modelled: the claim's devices are picked "
             "without them"}});
  if (!shared) WarnEach(devices, log, {{"config", kConfigWarning}});
  Json json = Json::object();
  b->CopyMembers(devices, {"constraints", "config", "requests"}, "", &json);
  if (const ManifestNode requests = devices["requests"]; requests.present()) {
    json["requests"] = Requests(requests, v1beta1, log, b);
  }
  return json;
}

}  // namespace

DeviceClassObject ReadDeviceClassObject(const ManifestNode& doc, ManifestLog* log) {
  DeviceClassObject out;
  ManifestJsonBuilder b(log, &out);
  ReadDraVersion(doc, log);  // the versions share the DeviceClass's shape: only checked
  const ManifestNode spec = doc["spec"];
  b.Place("", spec.present() ? spec.place() : doc.place());
  Json json = Json::object();
  if (spec.present() && spec.ExpectMap(log)) {
    WarnEach(spec, log,
             {{"config", kConfigWarning},
              {"extendedResourceName",
               "extended resources backed by DRA (KEP-5004) are not modelled: pods asking for "
               "this resource do not get the class's devices"}});
    b.CopyMembers(spec, {"config", "extendedResourceName"}, "", &json);
  }
  // A class without selectors holds every device, as in Kubernetes.
  if (!json.contains("selectors")) json["selectors"] = Json::array();
  out.json = json.dump();
  return out;
}

ClaimTemplateObject ReadClaimTemplateObject(const ManifestNode& doc, const std::string& name,
                                            ManifestLog* log) {
  ClaimTemplateObject out;
  ManifestJsonBuilder b(log, &out);
  const ManifestNode devices = ClaimDevices(doc, true, log);
  if (!log->ok()) return out;
  Json json = ClaimJson(doc, devices, false, log, &b);
  json["name"] = name;
  b.Place("/name", doc["metadata"]["name"].place());
  out.json = json.dump();
  return out;
}

SharedClaimObject ReadSharedClaimObject(const ManifestNode& doc, ManifestLog* log) {
  SharedClaimObject out;
  ManifestJsonBuilder b(log, &out);
  const ManifestNode devices = ClaimDevices(doc, false, log);
  if (!log->ok()) return out;
  Json json = ClaimJson(doc, devices, true, log, &b);
  if (const ManifestNode config = devices["config"]; config.present()) {
    if (Json sharing = ClaimSharing(config, log, &b); !sharing.is_null()) {
      json["sharing"] = std::move(sharing);
    }
  }
  out.json = json.dump();
  return out;
}

}  // namespace migsim::k8s

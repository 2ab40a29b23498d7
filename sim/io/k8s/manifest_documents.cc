// Splitting a manifest file into its documents and objects, and dispatching on `kind`.

#include <array>

#include "sim/io/k8s/argo_workflow.h"
#include "sim/io/k8s/device_plugin_config_map.h"
#include "sim/io/k8s/manifest_node.h"
#include "sim/io/k8s/workload_objects.h"
#include "sim/io/yaml_documents.h"

namespace migsim::k8s {
namespace {

// Kinds that cannot change where or when a pod is scheduled: ignored without a word.
constexpr std::array<std::string_view, 13> kInert = {
    "Service",     "Secret",        "Namespace",          "ServiceAccount", "Role",
    "RoleBinding", "ClusterRole",   "ClusterRoleBinding", "Ingress",        "NetworkPolicy",
    "Endpoints",   "EndpointSlice", "PodTemplate"};

bool IsInert(std::string_view kind) {
  for (std::string_view k : kInert) {
    if (k == kind) return true;
  }
  return false;
}

void ReadBody(const ManifestNode& doc, ManifestObject* object, ManifestLog* log) {
  const std::string& kind = object->kind;
  if (kind == "Pod") {
    object->body = ReadPodObject(doc, log);
  } else if (kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet") {
    object->body = ReadReplicated(doc, log);
  } else if (kind == "Job") {
    object->body = ReadJobObject(doc, log);
  } else if (kind == "CronJob") {
    object->body = ReadCronJobObject(doc, log);
  } else if (kind == "PriorityClass") {
    object->body = ReadPriorityClassObject(doc, object->name, log);
  } else if (kind == "Workflow" || kind == "WorkflowTemplate" ||
             kind == "ClusterWorkflowTemplate" || kind == "CronWorkflow") {
    object->body = ReadWorkflowObject(doc, log);
  } else if (kind == "ConfigMap") {
    object->body = ReadConfigMapObject(doc, log);
  } else if (kind == "PyTorchJob") {
    object->body = ReadPyTorchJobObject(doc, log);
  } else if (kind == "JobSet") {
    object->body = ReadJobSetObject(doc, log);
  } else if (kind == "PodGroup") {
    object->body = ReadPodGroupObject(doc, log);
  } else if (kind == "ResourceFlavor" || kind == "ClusterQueue" || kind == "LocalQueue") {
    object->body = ReadKueueObject(doc, object->ns, log);
  } else if (kind == "DeviceClass") {
    object->body = ReadDeviceClassObject(doc, log);
  } else if (kind == "ResourceClaimTemplate") {
    object->body = ReadClaimTemplateObject(doc, object->name, log);
  } else if (kind == "ResourceClaim") {
    object->body = ReadSharedClaimObject(doc, log);
  } else {
    object->body = ReadBudgetObject(doc, log);
  }
}

bool Simulated(std::string_view kind) {
  return kind == "Pod" || kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" ||
         kind == "Job" || kind == "CronJob" || kind == "PriorityClass" ||
         kind == "PodDisruptionBudget" || kind == "Workflow" || kind == "WorkflowTemplate" ||
         kind == "ClusterWorkflowTemplate" || kind == "CronWorkflow" || kind == "ConfigMap" ||
         kind == "PyTorchJob" || kind == "JobSet" || kind == "PodGroup" ||
         kind == "ResourceFlavor" || kind == "ClusterQueue" || kind == "LocalQueue" ||
         kind == "DeviceClass" || kind == "ResourceClaimTemplate" || kind == "ResourceClaim";
}

// Why a kind migsim does not simulate is ignored, for the warning.
std::string IgnoredBecause(std::string_view kind) {
  return "kind " + std::string(kind) + " is not simulated: the object is ignored";
}

void ReadObject(const ManifestNode& doc, ManifestLog* log, ManifestSet* out);

void ReadList(const ManifestNode& doc, ManifestLog* log, ManifestSet* out) {
  for (const ManifestNode& item : doc["items"].Elements(log)) {
    ReadObject(item, log, out);
    if (!log->ok()) return;
  }
}

void ReadObject(const ManifestNode& doc, ManifestLog* log, ManifestSet* out) {
  if (!doc.ExpectMap(log)) return;
  const ManifestNode kind = doc["kind"];
  if (!kind.present()) return doc.Fail(log, "missing required field 'kind'");
  ManifestObject object;
  object.kind = kind.String(log);
  object.place = doc.place();
  if (object.kind == "List") return ReadList(doc, log, out);
  if (IsInert(object.kind)) return;
  if (!Simulated(object.kind)) {
    return kind.Warn(log, IgnoredBecause(object.kind));
  }
  const ManifestNode metadata = doc["metadata"];
  object.name = metadata["name"].String(log);
  // Kubernetes appends five random characters to a generateName; migsim keeps it as is.
  if (object.name.empty()) object.name = metadata["generateName"].String(log);
  if (log->ok() && object.name.empty()) {
    return metadata.Fail(log, "missing required field 'name'");
  }
  object.ns = metadata["namespace"].String(log, "default");
  if (const ManifestNode queue = metadata["labels"]["kueue.x-k8s.io/queue-name"]; queue.present()) {
    object.queue_name = queue.String(log);
    object.queue_place = queue.place();
  }
  ReadBody(doc, &object, log);
  if (log->ok()) out->objects.push_back(std::move(object));
}

}  // namespace

Result<ManifestSet> ParseManifests(std::string_view text, const std::string& file_label) {
  Result<std::vector<YAML::Node>> loaded = LoadYamlDocuments(text, file_label);
  if (!loaded.ok()) return loaded.status();
  const std::vector<YAML::Node>& documents = loaded.value();
  ManifestLog log;
  ManifestSet out;
  try {
    for (size_t i = 0; i < documents.size() && log.ok(); ++i) {
      const ManifestNode doc(documents[i],
                             ManifestPlace{file_label, static_cast<int>(i + 1), "", 0});
      if (doc.present()) ReadObject(doc, &log, &out);  // an empty document is allowed
    }
  } catch (const YAML::Exception& e) {
    return Status::Internal(file_label + ": unexpected YAML error: " + e.msg);
  }
  if (!log.ok()) return log.status();
  MarkLiteralBlocks(text, &out);
  out.warnings = log.warnings();
  return out;
}

}  // namespace migsim::k8s

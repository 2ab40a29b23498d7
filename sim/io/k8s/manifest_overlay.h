#pragma once
// Internal to sim/io: the scenario's `manifest_overlay`, what manifests do not say. Job
// classes (run times) for the pods, chosen by rules tried in order, the first match winning
// (a rule matches by a container image glob, by the pod's labels or by the object's name);
// and per object, by metadata.name, its creation time and a Deployment's scale events (the
// `kubectl scale` commands of a run). The format is in scenarios/README.md.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/io/json_reader.h"
#include "workloads/scenario.h"

namespace migsim::io {

struct JobClassRule {
  enum class By { kImage, kLabel, kName } by = By::kImage;
  std::string pattern;  // kImage, kName: a glob, '*' matching any run of characters
  Labels labels;        // kLabel: all must be on the pod
  JobClassId job_class;
};

struct ObjectOverlay {
  SimTime at;
  std::optional<std::vector<ScaleEvent>> scale;
  std::string pointer;  // of the object's entry, for errors
  // Argo Workflows: the wait before a step whose dependencies succeeded starts, and the
  // items of each withParam fan-out by step name (a count n reads as items 0 .. n-1).
  std::optional<SimTime> step_delay;
  std::map<std::string, std::vector<std::string>> params;
};

// manifest_overlay.device_plugin: the ConfigMap holding the NVIDIA device plugin's config.
struct DevicePluginOverlay {
  std::string config_map;          // the ConfigMap's metadata.name
  std::string key;                 // its data key; "" when it has exactly one
  std::vector<std::string> pools;  // empty: every pool with GPUs
  std::string pointer;             // of the overlay entry, for errors
};

struct ManifestOverlay {
  std::vector<JobClassRule> rules;
  std::map<std::string, ObjectOverlay> objects;  // by metadata.name
  std::optional<DevicePluginOverlay> device_plugin;

  // The job class of the first rule matching the object `name`, its pod `labels` or one of
  // its container `images`; nullopt when none does.
  std::optional<JobClassId> JobClassFor(const std::string& name, const Labels& labels,
                                        const std::vector<std::string>& images) const;
};

// REQUIRES: scenario.job_classes is loaded.
ManifestOverlay ReadManifestOverlay(LoadContext* ctx, const JsonRef& ref, const Scenario& scenario);

// True when `text` matches `pattern`, where '*' matches any run of characters.
bool GlobMatches(std::string_view pattern, std::string_view text);

}  // namespace migsim::io

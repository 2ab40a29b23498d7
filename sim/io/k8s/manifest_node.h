#pragma once
// Internal to sim/io/k8s: walking one YAML document of a Kubernetes manifest with the path
// of every node, so that errors and warnings name the file, the document, the YAML path and
// the line: "k8s/bert.yaml: document 2: spec.template.spec.containers[0].image (line 20): ...".
// Brings in yaml-cpp; only sim/io/k8s .cc files include it.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/k8s/manifest_objects.h"
#include "sim/policy/resources.h"

namespace migsim::k8s {

// The first error of a load and every warning, in the order found.
class ManifestLog {
 public:
  // Records InvalidArgument "<place>: <message>" at the place's file, unless an error is
  // recorded already.
  void Fail(const ManifestPlace& place, const std::string& message);
  // "<place>: <message>", once per distinct text.
  void Warn(const ManifestPlace& place, const std::string& message);
  bool ok() const { return error_.ok(); }
  const Status& status() const { return error_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  Status error_;
  std::vector<std::string> warnings_;
  std::set<std::string> seen_;
};

// A YAML node and its place. Reading helpers report a problem to the log and return a
// fallback; a missing member is a node for which present() is false.
class ManifestNode {
 public:
  ManifestNode(YAML::Node node, ManifestPlace place);

  bool present() const { return node_.IsDefined() && !node_.IsNull(); }
  const ManifestPlace& place() const { return place_; }
  const YAML::Node& yaml() const { return node_; }

  // Member `key` of a mapping (present() false when absent or when this is no mapping).
  ManifestNode operator[](std::string_view key) const;
  // The elements of a sequence; reports "expected a list" otherwise.
  std::vector<ManifestNode> Elements(ManifestLog* log) const;
  // The keys of a mapping in document order; reports "expected a mapping" otherwise.
  std::vector<std::string> Keys(ManifestLog* log) const;
  bool ExpectMap(ManifestLog* log) const;

  // A scalar; reports "expected a string" for a mapping or a list.
  std::string String(ManifestLog* log, std::string fallback = "") const;
  // A plain integer in [min, max].
  int64_t Int(ManifestLog* log, int64_t fallback, int64_t min, int64_t max) const;
  bool Bool(ManifestLog* log, bool fallback) const;
  // The index in `names` of the string here (names[0], the default, when absent); reports
  // "unknown <what> 'x' (valid: a, b)" and returns 0 for anything else.
  size_t Choice(ManifestLog* log, const std::string& what,
                std::initializer_list<std::string_view> names) const;
  // A mapping of strings (labels, nodeSelector), sorted by key.
  Labels StringMap(ManifestLog* log) const;

  void Fail(ManifestLog* log, const std::string& message) const { log->Fail(place_, message); }
  void Warn(ManifestLog* log, const std::string& message) const { log->Warn(place_, message); }

 private:
  YAML::Node node_;
  ManifestPlace place_;
};

// A warning at each of `fields` (field, why) present in the mapping `parent`: fields that
// could change a scheduling outcome and that migsim does not model.
void WarnEach(const ManifestNode& parent, ManifestLog* log,
              std::initializer_list<std::pair<const char*, const char*>> fields);

}  // namespace migsim::k8s

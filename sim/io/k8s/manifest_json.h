#pragma once
// Internal to sim/io/k8s: manifest objects written as the JSON one of the scenario's loaders
// reads (Kueue's objects as the `kueue` section, DRA's as `device_classes` and
// `resource_claims`), so that one loader checks both inputs and they model the same. Every
// value written is recorded with its manifest place under its JSON pointer (PlacedJson), so
// that the loader's errors are reported at YAML paths.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "sim/io/json_reader.h"
#include "sim/io/k8s/manifest_node.h"

namespace migsim::k8s {

class ManifestJsonBuilder {
 public:
  // `log` receives problems (a node nested too deeply, a key that is no string); `out`
  // receives the places. Both must outlive the builder.
  ManifestJsonBuilder(ManifestLog* log, PlacedJson* out) : log_(log), out_(out) {}

  // `node` as JSON (null when absent), the place of every value recorded under its pointer.
  // A plain scalar that reads as a number or a boolean is one, as YAML's core schema says; a
  // quoted one is a string.
  io::Json ToJson(const ManifestNode& node, const std::string& pointer, int depth = 0);

  // Records `place` for `pointer` (for values the caller writes itself).
  void Place(const std::string& pointer, const ManifestPlace& place);

  // The members of the mapping `node` but those in `skip`, each as ToJson writes it under
  // `pointer` + "/" + its key, into the object `out`.
  void CopyMembers(const ManifestNode& node, std::initializer_list<std::string_view> skip,
                   const std::string& pointer, io::Json* out);

 private:
  ManifestLog* log_;
  PlacedJson* out_;
  // Values written so far: yaml-cpp expands an alias wherever it is read, so a few lines
  // of anchors can stand for 10^7 values ("billion laughs"); past InputLimits::yaml_nodes
  // the object is refused at the value that went past.
  int64_t values_ = 0;
};

}  // namespace migsim::k8s

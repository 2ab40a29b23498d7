#pragma once
// Internal to sim/io/k8s: where each part of a scenario written by `migsim import` came from.
// The importer checks the scenario it writes with the scenario loader; a value the loader
// refuses is the snapshot's, so its error is reported at the snapshot's element (file,
// document, path, line), not at the generated scenario's JSON pointer.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/k8s/manifest_objects.h"

namespace migsim::k8s {

class SnapshotSources {
 public:
  // Records that the scenario's member at `tokens` (e.g. {"cluster", "nodes", "p4d"}; each
  // token as written, escaped here) was made from `place`. The first record of a member wins.
  void Add(const std::vector<std::string_view>& tokens, const ManifestPlace& place);

  // The place of the longest recorded member that is or contains the member at
  // `json_pointer` (a load error's location), or nullptr when none does.
  const ManifestPlace* Find(const std::string& json_pointer) const;

 private:
  std::map<std::string, ManifestPlace, std::less<>> places_;
};

// "/a~1b/c" for {"a/b", "c"} (RFC 6901).
std::string JsonPointer(const std::vector<std::string_view>& tokens);

}  // namespace migsim::k8s

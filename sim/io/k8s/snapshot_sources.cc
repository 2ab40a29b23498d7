#include "sim/io/k8s/snapshot_sources.h"

#include "sim/io/json_reader.h"

namespace migsim::k8s {

std::string JsonPointer(const std::vector<std::string_view>& tokens) {
  std::string out;
  for (std::string_view token : tokens) out += "/" + io::EscapePointerToken(token);
  return out;
}

void SnapshotSources::Add(const std::vector<std::string_view>& tokens,
                          const ManifestPlace& place) {
  places_.try_emplace(JsonPointer(tokens), place);
}

const ManifestPlace* SnapshotSources::Find(const std::string& json_pointer) const {
  // Escaped tokens hold no '/', so cutting at the last '/' drops exactly one token.
  for (std::string_view p = json_pointer; !p.empty(); p = p.substr(0, p.rfind('/'))) {
    if (const auto it = places_.find(p); it != places_.end()) return &it->second;
    if (p.rfind('/') == std::string_view::npos) break;
  }
  return nullptr;
}

}  // namespace migsim::k8s

#pragma once
// Internal to sim/io: the texts of the built-in catalog files (catalog/gpu_models/*.json,
// catalog/node_types/*.json), embedded at build time by sim/io/embed_catalog.cmake, so that
// the binary reads no file at run time and works from any directory.

#include <span>
#include <string_view>

namespace migsim::io {

struct EmbeddedFile {
  std::string_view path;  // relative to the repository, e.g. "catalog/node_types/aws.json"
  std::string_view text;
};

// The GPU model files first, then the node type files; each group in the order the build
// lists them (sim/io/CMakeLists.txt).
std::span<const EmbeddedFile> BuiltinCatalogFiles();

}  // namespace migsim::io

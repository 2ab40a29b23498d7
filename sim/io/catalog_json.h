#pragma once
// Internal to sim/io: reading GPU models and node types (README.md "GPU models and node
// types") into a HardwareCatalog. The built-in files, a scenario's `cluster` and the catalog
// files it names all go through these loaders, so a user's definition is checked as ours are.

#include <string_view>

#include "sim/io/hardware_catalog.h"
#include "sim/io/json_reader.h"

namespace migsim::io {

// A model or profile name: it becomes part of job-class keys ("<model>/<kind>"), resource
// names (nvidia.com/mig-<profile>) and CSV cells, so only [A-Za-z0-9._-] (a profile name may
// end in "+me", checked without it).
bool IsPlainName(std::string_view text);

// A model's `mig` object (mig_profiles_json.cc): its slices, placement source and profiles,
// into `model`, whose memory_mib and sms bound the profiles'.
void LoadMig(LoadContext* ctx, const JsonRef& ref, GpuModel* model);

// `{"<model>": {...}, ...}`: each model is checked and added to `catalog`, marked `user`.
// A name, product label or alias that any model of `catalog` answers to is refused. Each
// model's sources are `file_sources` (its catalog file's, for every entry) then its own.
void LoadGpuModels(LoadContext* ctx, const JsonRef& ref, bool user, HardwareCatalog* catalog,
                   const std::vector<std::string>& file_sources = {});

// `{"<type>": {...}, ...}`: each type is checked and added to `catalog`, marked `user`. Its
// gpu_model must be a model of `catalog`; a type name `catalog` has is refused.
// Sources as for models.
void LoadNodeTypes(LoadContext* ctx, const JsonRef& ref, bool user, HardwareCatalog* catalog,
                   const std::vector<std::string>& file_sources = {});

// Which members of a catalog document to read.
enum class CatalogSections { kGpuModels, kNodeTypes, kBoth };

// A catalog document: `{"sources": [...], "gpu_models": {...}, "node_types": {...}}`, all
// optional; `sources` cite what every entry of the document takes from them.
void LoadCatalogDocument(LoadContext* ctx, const JsonRef& root, bool user, CatalogSections sections,
                         HardwareCatalog* catalog);

// The user's definitions in a scenario's `cluster` object: the files of `catalog` (a path
// or an array of paths, relative to the scenario), then `gpu_models`, then `node_types`,
// added to `catalog` in that order. REQUIRES: cluster is an object.
void LoadClusterDefinitions(LoadContext* ctx, const JsonRef& cluster, HardwareCatalog* catalog);

}  // namespace migsim::io

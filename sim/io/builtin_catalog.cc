// The built-in GPU models and node types: the embedded catalog files, read once by the same
// loaders as a user's (catalog_json.cc). Defines the built-in lookups that
// sim/cluster/gpu_model.h and sim/cluster/node_type.h declare.

#include <vector>

#include "sim/core/check.h"
#include "sim/io/builtin_catalog_files.h"
#include "sim/io/catalog_json.h"

namespace migsim {
namespace {

// The built-ins in contiguous storage (AllGpuModels() and AllNodeTypes() are spans) and a
// catalog whose entries point into it. Built on first use and never modified afterwards, so
// the pointers it hands out stay valid for the program.
struct BuiltinStore {
  std::vector<GpuModel> gpu_models;
  std::vector<NodeType> node_types;
  HardwareCatalog catalog;
  Status status;
};

// A shared_ptr that owns nothing: the aliasing constructor with an empty owner, so copies
// cost no reference counting.
template <typename T>
std::shared_ptr<const T> Unowned(const T& item) {
  return std::shared_ptr<const T>(std::shared_ptr<const T>(), &item);
}

// One section of every file into `catalog`, or the first problem.
Status LoadSection(const std::vector<io::Json>& docs, io::CatalogSections section,
                   HardwareCatalog* catalog) {
  for (size_t i = 0; i < docs.size(); ++i) {
    const std::string label(io::BuiltinCatalogFiles()[i].path);
    io::LoadContext ctx(label, NamedFiles::kRefused);
    Status thrown = io::CatchJsonErrors(label, [&]() -> Status {
      io::LoadCatalogDocument(&ctx, io::JsonRef(docs[i], ""), /*user=*/false, section, catalog);
      return Status::Ok();
    });
    if (!thrown.ok()) return thrown;
    if (!ctx.ok()) return ctx.status();
  }
  return Status::Ok();
}

// Models first, copied into the store; then the node types, resolved against the stored
// models and copied in turn.
Status Build(BuiltinStore* store) {
  std::vector<io::Json> docs;
  for (const io::EmbeddedFile& file : io::BuiltinCatalogFiles()) {
    Result<io::Json> doc = io::ParseJson(file.text, std::string(file.path));
    if (!doc.ok()) return doc.status();
    docs.push_back(std::move(doc).value());
  }
  HardwareCatalog models;
  if (Status s = LoadSection(docs, io::CatalogSections::kGpuModels, &models); !s.ok()) return s;
  store->gpu_models.reserve(models.gpu_models().size());
  for (const auto& entry : models.gpu_models()) store->gpu_models.push_back(*entry.item);
  for (const GpuModel& model : store->gpu_models) store->catalog.Add(Unowned(model), false);
  HardwareCatalog types = store->catalog;
  if (Status s = LoadSection(docs, io::CatalogSections::kNodeTypes, &types); !s.ok()) return s;
  store->node_types.reserve(types.node_types().size());
  for (const auto& entry : types.node_types()) store->node_types.push_back(*entry.item);
  for (const NodeType& type : store->node_types) store->catalog.Add(Unowned(type), false);
  return Status::Ok();
}

const BuiltinStore& Store() {
  static const BuiltinStore store = [] {
    BuiltinStore built;
    built.status = Build(&built);
    return built;
  }();
  return store;
}

// The store, once its files loaded; a broken built-in file is a bug of this build (a test
// loads them), so it ends the program with the file and pointer rather than run without it.
const BuiltinStore& LoadedStore() {
  const BuiltinStore& store = Store();
  MIGSIM_CHECK(store.status.ok(), "the built-in catalog does not load: " + store.status.ToString());
  return store;
}

}  // namespace

const HardwareCatalog& BuiltinCatalog() { return LoadedStore().catalog; }

Status BuiltinCatalogStatus() { return Store().status; }

std::span<const GpuModel> AllGpuModels() { return LoadedStore().gpu_models; }

const GpuModel* FindGpuModel(std::string_view name) {
  return BuiltinCatalog().FindGpuModel(name).get();
}

std::span<const NodeType> AllNodeTypes() { return LoadedStore().node_types; }

const NodeType* FindNodeType(std::string_view name) {
  return BuiltinCatalog().FindNodeType(name).get();
}

std::shared_ptr<const NodeType> SharedCatalogNodeType(std::string_view name) {
  return BuiltinCatalog().FindNodeType(name);
}

}  // namespace migsim

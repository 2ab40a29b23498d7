#pragma once
// The GPU models and node types names resolve to: the built-in ones (catalog/*, embedded in
// the binary) and those a scenario defines (`cluster.gpu_models`, `cluster.node_types`,
// `cluster.catalog` files) in the same JSON format, specified in README.md "GPU models and
// node types".

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/node_type.h"
#include "sim/core/status.h"

namespace migsim {

// An ordered set of GPU models and node types, each marked built in or the user's. Copying
// one copies shared pointers: a scenario's catalog starts as a copy of the built-in one and
// grows. A built-in entry's pointer owns nothing (the built-ins live for the program).
class HardwareCatalog {
 public:
  template <typename T>
  struct Entry {
    std::shared_ptr<const T> item;
    bool user = false;  // defined by the user's scenario or catalog file
  };

  const std::vector<Entry<GpuModel>>& gpu_models() const { return gpu_models_; }
  const std::vector<Entry<NodeType>>& node_types() const { return node_types_; }

  // The model whose name, product label or alias is `name`, or nullptr.
  std::shared_ptr<const GpuModel> FindGpuModel(std::string_view name) const;
  // The type called `name`, or nullptr.
  std::shared_ptr<const NodeType> FindNodeType(std::string_view name) const;
  // Names in catalog order, for "unknown ..." messages.
  std::vector<std::string> GpuModelNames() const;
  std::vector<std::string> NodeTypeNames() const;
  // True when `model` (or a model of that name) is the user's.
  bool IsUser(const GpuModel& model) const;
  bool IsUser(const NodeType& type) const;

  // REQUIRES: no model answers to the new model's name, label or aliases; no type has its
  // name (the loaders check and report it first).
  void Add(std::shared_ptr<const GpuModel> model, bool user);
  void Add(std::shared_ptr<const NodeType> type, bool user);

 private:
  std::vector<Entry<GpuModel>> gpu_models_;
  std::vector<Entry<NodeType>> node_types_;
};

// The built-in catalog, parsed once on first use. The built-in files are checked by a test
// (BuiltinCatalogStatus); a binary whose files do not load reports why and aborts.
const HardwareCatalog& BuiltinCatalog();
// Ok, or the first problem of the built-in files, located at the file and JSON pointer.
Status BuiltinCatalogStatus();

// The built-ins and the user's models and node types defined by the file at `path`: a
// catalog file ({"gpu_models": ..., "node_types": ...}) or a scenario (its `cluster`'s
// `catalog`, `gpu_models` and `node_types`; the rest of the scenario is not read). Errors
// as the scenario loader reports them, located at the file and JSON pointer.
Result<HardwareCatalog> LoadUserCatalog(const std::string& path);

}  // namespace migsim

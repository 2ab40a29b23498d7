#pragma once
// Node types: the machines a cluster is made of (AWS GPU instance types and the like,
// domain.md §5) and their resources. The built-in types are the JSON files of
// catalog/node_types/, embedded in the binary and read once by sim/io/builtin_catalog.cc,
// which defines AllNodeTypes(), FindNodeType() and SharedCatalogNodeType() (a program that
// calls them links migsim::io); a scenario may define more in the same format.

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cluster/gpu_model.h"

namespace migsim {

struct NodeType {
  std::string name{};          // "p4d.24xlarge"
  int vcpu = 0;
  double memory_gib = 0;
  int gpu_count = 0;
  const GpuModel* gpu = nullptr;  // nullptr when gpu_count == 0; see gpu_owner
  double price_per_hour = 0;   // USD on-demand, in `region` on `price_date`
  std::optional<double> spot_price_per_hour{};  // USD, when known
  std::string cloud{};         // "aws", "gcp", "azure"; empty when not given
  std::string region{};        // where the prices hold, e.g. "us-east-1"
  std::string price_date{};    // when the prices were read: YYYY-MM-DD (or YYYY-MM, YYYY)
  std::vector<std::string> sources{};  // where the figures come from
  // Owns `gpu` when it is a scenario's own model, so that the model lives as long as any
  // node of this type; empty for a built-in model (the catalog lives for the program).
  std::shared_ptr<const GpuModel> gpu_owner{};

  bool operator==(const NodeType&) const = default;
};

// All built-in types, in a fixed order.
std::span<const NodeType> AllNodeTypes();

// The built-in type called `name`, or nullptr. Owned by the catalog, valid for the whole
// program.
const NodeType* FindNodeType(std::string_view name);

// The built-in type called `name` as a NodeSpec holds its type, or nullptr: a shared_ptr
// that owns nothing (the catalog lives for the whole program), so built-in types and the
// custom types a scenario owns fit one field.
std::shared_ptr<const NodeType> SharedCatalogNodeType(std::string_view name);

}  // namespace migsim

#pragma once
// The node-type catalog: AWS GPU instance types (domain.md §5) and their resources.

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "sim/cluster/gpu_model.h"

namespace migsim {

struct NodeType {
  std::string name{};          // "p4d.24xlarge"
  int vcpu = 0;
  double memory_gib = 0;
  int gpu_count = 0;
  const GpuModel* gpu = nullptr;  // nullptr when gpu_count == 0; owned by the GPU catalog
  double price_per_hour = 0;   // USD, us-east-1 on-demand (Karpenter data, 2026-07-20)

  bool operator==(const NodeType&) const = default;
};

std::span<const NodeType> AllNodeTypes();

// The type called `name`, or nullptr. Owned by the catalog, valid for the whole program.
const NodeType* FindNodeType(std::string_view name);

// The catalog type called `name` as a NodeSpec holds its type, or nullptr: a shared_ptr
// that owns nothing (the catalog lives for the whole program), so catalog types and the
// custom types a scenario owns fit one field.
std::shared_ptr<const NodeType> SharedCatalogNodeType(std::string_view name);

}  // namespace migsim

#include "sim/cluster/node_type.h"

#include <array>
#include <cassert>
#include <vector>

namespace migsim {
namespace {

struct NodeTypeRow {
  const char* name;
  int vcpu;
  double memory_gib;
  int gpu_count;
  const char* gpu;  // catalog name of the GPU model
  double price_per_hour;
};

// domain.md §5: Karpenter's instance-type data and its us-east-1 on-demand prices of
// 2026-07-20 (the "$/h now" column; P4/P5 prices fell in 2025).
constexpr std::array<NodeTypeRow, 25> kRows = {{
    {"p4d.24xlarge", 96, 1152, 8, "A100-SXM4-40GB", 21.9576},
    {"p4de.24xlarge", 96, 1152, 8, "A100-SXM4-80GB", 27.4471},
    {"p5.4xlarge", 16, 256, 1, "H100-SXM5-80GB", 6.88},
    {"p5.48xlarge", 192, 2048, 8, "H100-SXM5-80GB", 55.04},
    // p5e has no us-east-1 on-demand price; this is the Capacity Block rate the doc lists
    // (US-East-Ohio, about late 2024), the only published hourly figure for it.
    {"p5e.48xlarge", 192, 2048, 8, "H200-SXM5-141GB", 43.26},
    {"p5en.48xlarge", 192, 2048, 8, "H200-SXM5-141GB", 63.296},
    {"p3.2xlarge", 8, 61, 1, "V100-SXM2-16GB", 3.06},
    {"p3.8xlarge", 32, 244, 4, "V100-SXM2-16GB", 12.24},
    {"p3.16xlarge", 64, 488, 8, "V100-SXM2-16GB", 24.48},
    {"p3dn.24xlarge", 96, 768, 8, "V100-SXM2-32GB", 31.212},
    {"g5.xlarge", 4, 16, 1, "A10G", 1.006},
    {"g5.2xlarge", 8, 32, 1, "A10G", 1.212},
    {"g5.4xlarge", 16, 64, 1, "A10G", 1.624},
    {"g5.8xlarge", 32, 128, 1, "A10G", 2.448},
    {"g5.12xlarge", 48, 192, 4, "A10G", 5.672},
    {"g5.16xlarge", 64, 256, 1, "A10G", 4.096},
    {"g5.24xlarge", 96, 384, 4, "A10G", 8.144},
    {"g5.48xlarge", 192, 768, 8, "A10G", 16.288},
    {"g4dn.xlarge", 4, 16, 1, "T4", 0.526},
    {"g4dn.2xlarge", 8, 32, 1, "T4", 0.752},
    {"g4dn.4xlarge", 16, 64, 1, "T4", 1.204},
    {"g4dn.8xlarge", 32, 128, 1, "T4", 2.176},
    {"g4dn.12xlarge", 48, 192, 4, "T4", 3.912},
    {"g4dn.16xlarge", 64, 256, 1, "T4", 4.352},
    {"g4dn.metal", 96, 384, 8, "T4", 7.824},
}};

std::vector<NodeType> BuildNodeTypes() {
  std::vector<NodeType> types;
  types.reserve(kRows.size());
  for (const NodeTypeRow& row : kRows) {
    const GpuModel* gpu = row.gpu_count > 0 ? FindGpuModel(row.gpu) : nullptr;
    assert((row.gpu_count == 0 || gpu != nullptr) && "node type names an unknown GPU model");
    types.push_back(NodeType{.name = row.name,
                             .vcpu = row.vcpu,
                             .memory_gib = row.memory_gib,
                             .gpu_count = row.gpu_count,
                             .gpu = gpu,
                             .price_per_hour = row.price_per_hour});
  }
  return types;
}

// Built on first use and never modified, like the GPU catalog it points into.
const std::vector<NodeType>& Catalog() {
  static const std::vector<NodeType> catalog = BuildNodeTypes();
  return catalog;
}

}  // namespace

std::span<const NodeType> AllNodeTypes() { return Catalog(); }

const NodeType* FindNodeType(std::string_view name) {
  for (const NodeType& type : Catalog()) {
    if (type.name == name) return &type;
  }
  return nullptr;
}

std::shared_ptr<const NodeType> SharedCatalogNodeType(std::string_view name) {
  const NodeType* type = FindNodeType(name);
  if (type == nullptr) return nullptr;
  // The aliasing constructor with an empty owner: no control block, nothing to delete,
  // and copies cost no reference counting.
  return std::shared_ptr<const NodeType>(std::shared_ptr<const NodeType>(), type);
}

}  // namespace migsim

#include "sim/io/hardware_catalog.h"

#include <algorithm>

namespace migsim {

std::shared_ptr<const GpuModel> HardwareCatalog::FindGpuModel(std::string_view name) const {
  for (const Entry<GpuModel>& entry : gpu_models_) {
    const GpuModel& m = *entry.item;
    if (m.name == name || m.product_label == name ||
        std::find(m.aliases.begin(), m.aliases.end(), name) != m.aliases.end()) {
      return entry.item;
    }
  }
  return nullptr;
}

std::shared_ptr<const NodeType> HardwareCatalog::FindNodeType(std::string_view name) const {
  for (const Entry<NodeType>& entry : node_types_) {
    if (entry.item->name == name) return entry.item;
  }
  return nullptr;
}

std::vector<std::string> HardwareCatalog::GpuModelNames() const {
  std::vector<std::string> names;
  for (const Entry<GpuModel>& entry : gpu_models_) names.push_back(entry.item->name);
  return names;
}

std::vector<std::string> HardwareCatalog::NodeTypeNames() const {
  std::vector<std::string> names;
  for (const Entry<NodeType>& entry : node_types_) names.push_back(entry.item->name);
  return names;
}

bool HardwareCatalog::IsUser(const GpuModel& model) const {
  for (const Entry<GpuModel>& entry : gpu_models_) {
    if (entry.item->name == model.name) return entry.user;
  }
  return false;
}

bool HardwareCatalog::IsUser(const NodeType& type) const {
  for (const Entry<NodeType>& entry : node_types_) {
    if (entry.item->name == type.name) return entry.user;
  }
  return false;
}

void HardwareCatalog::Add(std::shared_ptr<const GpuModel> model, bool user) {
  gpu_models_.push_back({std::move(model), user});
}

void HardwareCatalog::Add(std::shared_ptr<const NodeType> type, bool user) {
  node_types_.push_back({std::move(type), user});
}

}  // namespace migsim

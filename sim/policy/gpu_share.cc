#include "sim/policy/gpu_share.h"

#include <string_view>

namespace migsim {

std::vector<std::string> GpuTypeModels(std::string_view gpu_type) {
  std::vector<std::string> models;
  while (!gpu_type.empty()) {
    size_t bar = gpu_type.find('|');
    std::string_view piece = gpu_type.substr(0, bar);
    gpu_type = bar == std::string_view::npos ? std::string_view() : gpu_type.substr(bar + 1);
    if (!piece.empty()) models.emplace_back(piece);
  }
  return models;
}

bool ModelAllowed(const std::string& gpu_type, const std::string& model) {
  // Scans the pieces in place: this runs inside the scheduler's filter for every
  // (pod, node) pair, so it must not allocate.
  std::string_view rest = gpu_type;
  bool any_piece = false;
  while (!rest.empty()) {
    size_t bar = rest.find('|');
    std::string_view piece = rest.substr(0, bar);
    rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
    if (piece.empty()) continue;
    if (piece == model) return true;
    any_piece = true;
  }
  return !any_piece;
}

}  // namespace migsim

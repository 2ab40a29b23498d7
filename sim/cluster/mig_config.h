#pragma once
// mig-parted's default named configs ("all-disabled", "all-1g.5gb", "all-balanced", ...)
// resolved for one GPU model (domain.md §2.2, §2.3).

#include <string>
#include <string_view>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_layout.h"
#include "sim/core/status.h"

namespace migsim {

// What a named config asks of each GPU of a model.
struct GpuMigSetting {
  bool mig_enabled = false;
  MigLayout layout{};  // empty when MIG is off, or "all-enabled"
  auto operator<=>(const GpuMigSetting&) const = default;
};

// Resolves `config_name` for `model`. NotFound / InvalidArgument with a reason when the
// config does not exist for that model (e.g. "all-1g.5gb" on an A100-80GB, or any MIG
// config on a GPU without MIG), listing the configs that do.
Result<GpuMigSetting> ResolveMigConfig(const GpuModel& model, std::string_view config_name);

// The names of the configs valid for `model`, in a fixed order.
std::vector<std::string> MigConfigNames(const GpuModel& model);

}  // namespace migsim

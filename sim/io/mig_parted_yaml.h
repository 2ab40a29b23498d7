#pragma once
// Reads a mig-parted config file (YAML, `version: v1`; domain.md §2.1) into a
// MigPartedFile. yaml-cpp stays inside this reader. Errors name the file and the line.

#include <string>
#include <string_view>

#include "sim/cluster/mig_parted.h"
#include "sim/core/status.h"

namespace migsim {

Result<MigPartedFile> ParseMigParted(std::string_view text, const std::string& path);
Result<MigPartedFile> LoadMigPartedFile(const std::string& path);

}  // namespace migsim

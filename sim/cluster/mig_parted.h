#pragma once
// A mig-parted config file (`version: v1`, domain.md §2.1) as data, and what one of its
// named configs makes of a node's GPUs. A cluster that runs the MIG manager with a
// custom config file has exactly these names, instead of the catalog's (mig_config.h).
//
// A spec selects GPUs by index (`devices`: all, or a list) and, optionally, by PCI ID
// (`device-filter`); each selected GPU gets MIG on or off and the GPU instances of
// `mig-devices`, placed as mig-parted places them (PlaceProfiles). A GPU that no spec of
// the config selects, or that two select, is an error here: mig-parted would leave the
// first untouched and apply both to the second, neither of which a scenario means.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_config.h"
#include "sim/core/status.h"

namespace migsim {

struct MigPartedSpec {
  int line = 0;                  // where the spec starts in its file, for errors
  std::vector<int> devices;      // GPU indices; empty = all
  std::vector<uint32_t> filter;  // PCI device IDs (0x20B0 of "0x20B010DE"); empty = any
  bool mig_enabled = false;
  std::vector<std::pair<std::string, int>> mig_devices;  // profile -> count, in file order
};

struct MigPartedFile {
  std::string path;
  std::map<std::string, std::vector<MigPartedSpec>> configs;  // name -> its specs
};

// The PCI device IDs mig-parted's default file filters `model` by (domain.md §2.2; models
// of one class share the list), empty for models without MIG.
std::vector<uint32_t> MigPartedDeviceIds(const GpuModel& model);

// The settings of each of `gpu_count` GPUs of `model` under config `name`. InvalidArgument
// naming the file and the spec's line for an unknown config or profile, an impossible
// layout, or a GPU selected by no spec or by two.
Result<std::vector<GpuMigSetting>> ResolveMigParted(const MigPartedFile& file,
                                                    const std::string& name, const GpuModel& model,
                                                    int gpu_count);

}  // namespace migsim

#pragma once
// GPU models with their MIG GPU-instance profiles and placement tables, as data (see
// ../shared/docs/domain.md §1). The built-in models are the JSON files of catalog/gpu_models/,
// embedded in the binary and read once by sim/io/builtin_catalog.cc, which defines
// AllGpuModels() and FindGpuModel() (a program that calls them links migsim::io); a scenario
// may define more in the same format (sim/io/hardware_catalog.h). Nothing here has state.

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace migsim {

// One MIG GPU-instance profile of a GPU model (one row of `nvidia-smi mig -lgip`).
struct MigProfile {
  std::string name{};     // "1g.5gb", "1g.5gb+me", "3g.20gb"
  int profile_id = 0;     // the GI profile ID nvidia-smi shows (19 for 1g.5gb); not the NVML enum
  int compute_slices = 0; // g: SM slices used (of GpuModel::compute_slices)
  int memory_slices = 0;  // memory slices used = placement size (of GpuModel::memory_slices)
  double memory_gib = 0;  // as nvidia-smi reports it
  int sms = 0;            // streaming multiprocessors of the GI
  int max_count = 0;      // at most this many GIs of this profile per GPU
  std::vector<int> starts{};  // allowed placement starts, in memory-slice units
  bool media_extensions = false;  // a "+me" profile: at most one per GPU
  // True for the profiles of the classic layout set (1g/2g/3g/4g/7g without +me and
  // without the double-memory 1g); the 19 maximal A100 layouts are built from these.
  bool classic = false;

  // The device-plugin resource suffix: '+' becomes '.', e.g. "1g.5gb.me".
  std::string ResourceSuffix() const;
};

struct GpuModel {
  std::string name{};         // catalog name, e.g. "A100-SXM4-40GB"
  std::string product_label{};  // GFD's nvidia.com/gpu.product, e.g. "NVIDIA-A100-SXM4-40GB"
  int memory_mib = 0;         // framebuffer of the whole GPU
  int sms = 0;                // SMs with MIG off
  int memory_slices = 0;      // 8 for A100/H100/H200, 4 for A30, 0 when MIG is not supported
  int compute_slices = 0;     // 7 for A100/H100/H200, 4 for A30, 0 when MIG is not supported
  std::vector<MigProfile> profiles{};  // empty when MIG is not supported
  // Board power, for energy: the default power limit (the TDP nvidia-smi shows as the cap)
  // and the draw of an idle GPU with no process (the median of published nvidia-smi
  // readings; HBM parts idle in P0). Sources in each model's `sources`.
  double max_watts = 0;
  double idle_watts = 0;
  std::vector<std::string> aliases{};  // other names FindGpuModel accepts, e.g. "A100-40GB"
  // The placement table was inferred (from a sibling's) rather than read from the vendor.
  bool inferred_placements = false;
  std::vector<std::string> sources{};  // where the figures come from, one citation each

  bool mig_capable() const { return !profiles.empty(); }
  // Index into `profiles` of the profile named `name`, or -1.
  int FindProfile(std::string_view profile_name) const;
};

// All built-in models, in a fixed order (sim/io/builtin_catalog.cc).
std::span<const GpuModel> AllGpuModels();

// The built-in model called `name` (catalog name, a short alias such as "A100-40GB",
// "H100-80GB" or "A30", or the GFD product label such as "NVIDIA-A100-SXM4-40GB"), or
// nullptr. The returned pointer is owned by the catalog and valid for the whole program.
// A scenario's own models are found through its HardwareCatalog instead.
const GpuModel* FindGpuModel(std::string_view name);

}  // namespace migsim

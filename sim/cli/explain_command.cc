#include "sim/cli/explain_command.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "sim/cli/failure.h"
#include "sim/cluster/gpu_model.h"
#include "sim/cluster/mig_layout.h"
#include "sim/cluster/node_type.h"
#include "sim/core/text.h"
#include "sim/io/hardware_catalog.h"
#include "sim/report/catalog_json.h"

namespace migsim {
namespace {

// The mark of the rows a --scenario file defined, and its footnote.
constexpr char kUserMark[] = "  [scenario]";

// The built-ins, and the user's definitions when `catalog_file` is given; nullopt after
// reporting a bad file.
std::optional<HardwareCatalog> Catalog(const std::string& catalog_file) {
  if (catalog_file.empty()) return BuiltinCatalog();
  Result<HardwareCatalog> catalog = LoadUserCatalog(catalog_file);
  if (!catalog.ok()) {
    Fail(catalog.status(), kBadInput);
    return std::nullopt;
  }
  return std::move(catalog).value();
}

void PrintUserFootnote(const std::string& catalog_file) {
  if (!catalog_file.empty()) std::printf("[scenario]: defined in %s\n", catalog_file.c_str());
}

std::shared_ptr<const GpuModel> FindOrComplain(const HardwareCatalog& catalog,
                                               const std::string& name) {
  std::shared_ptr<const GpuModel> model = catalog.FindGpuModel(name);
  if (model != nullptr) return model;
  std::cerr << "migsim: unknown GPU model '" << name
            << "' (valid: " << JoinNames(catalog.GpuModelNames()) << ")\n";
  return nullptr;
}

std::string Starts(const MigProfile& p) {
  std::string out = "{";
  for (size_t i = 0; i < p.starts.size(); ++i) out += (i ? "," : "") + std::to_string(p.starts[i]);
  return out + "}:" + std::to_string(p.memory_slices);
}

// One layout as its memory slices, each `kWidth` characters: "|1g.5gb|2g.10gb      |..."
// with '.' for slices no GI holds.
std::string Draw(const GpuModel& model, const MigLayout& layout) {
  constexpr int kWidth = 9;
  std::string row;
  for (int slice = 0; slice < model.memory_slices;) {
    const MigPlacement* at = nullptr;
    for (const MigPlacement& p : layout) {
      if (p.start == slice) at = &p;
    }
    if (at == nullptr) {
      row += "|" + std::string(kWidth - 1, '.');
      ++slice;
      continue;
    }
    const MigProfile& profile = model.profiles[at->profile];
    std::string cell =
        profile.name.substr(0, static_cast<size_t>(profile.memory_slices * kWidth - 1));
    cell.resize(static_cast<size_t>(profile.memory_slices * kWidth - 1), ' ');
    row += "|" + cell;
    slice += profile.memory_slices;
  }
  return row + "|";
}

// The catalog's entries as the JSON writers take them.
template <typename T>
std::vector<CatalogRow<T>> Rows(const std::vector<HardwareCatalog::Entry<T>>& entries) {
  std::vector<CatalogRow<T>> rows;
  for (const auto& entry : entries) rows.push_back({entry.item.get(), entry.user});
  return rows;
}

}  // namespace

int GpusCommand(const std::string& catalog_file, bool json) {
  const std::optional<HardwareCatalog> catalog = Catalog(catalog_file);
  if (!catalog) return kBadInput;
  if (json) {
    std::fputs(FormatGpusJson(Rows(catalog->gpu_models()), catalog_file).c_str(), stdout);
    return 0;
  }
  std::printf("%-16s %-24s %10s %5s %5s %6s %13s  %s\n", "model", "product label", "memory MiB",
              "SMs", "max W", "idle W", "MIG slots", "MIG profiles");
  for (const auto& entry : catalog->gpu_models()) {
    const GpuModel& m = *entry.item;
    std::vector<std::string> profiles;
    for (const MigProfile& p : m.profiles) profiles.push_back(p.name);
    const std::string slots = m.mig_capable() ? std::to_string(m.compute_slices) + " SM / " +
                                                    std::to_string(m.memory_slices) + " mem"
                                              : "no MIG";
    std::string marks = m.inferred_placements ? "  [placements inferred]" : "";
    if (entry.user) marks += kUserMark;
    std::printf("%-16s %-24s %10d %5d %5.0f %6.0f %13s  %s%s\n", m.name.c_str(),
                m.product_label.c_str(), m.memory_mib, m.sms, m.max_watts, m.idle_watts,
                slots.c_str(), JoinNames(profiles).c_str(), marks.c_str());
  }
  PrintUserFootnote(catalog_file);
  return 0;
}

int ProfilesCommand(const std::string& name, const std::string& catalog_file, bool json) {
  const std::optional<HardwareCatalog> catalog = Catalog(catalog_file);
  if (!catalog) return kBadInput;
  const std::shared_ptr<const GpuModel> m = FindOrComplain(*catalog, name);
  if (m == nullptr) return kBadInput;
  if (json) {
    std::fputs(FormatProfilesJson(*m).c_str(), stdout);
    return 0;
  }
  if (!m->mig_capable()) {
    std::printf("%s does not support MIG: it is shared whole, time-sliced or with MPS.\n",
                m->name.c_str());
    return 0;
  }
  std::printf(
      "%s: %d compute (SM) slices, %d memory slices; placements {starts}:size in memory "
      "slices%s\n",
      m->name.c_str(), m->compute_slices, m->memory_slices,
      m->inferred_placements ? " (inferred, not documented by the vendor)" : "");
  std::printf("%-12s %4s %3s %9s %8s %5s %4s  %-16s %s\n", "profile", "ID", "g", "mem slc", "GiB",
              "SMs", "max", "placements", "resource (mixed strategy)");
  for (const MigProfile& p : m->profiles) {
    std::printf("%-12s %4d %3d %9d %8.2f %5d %4d  %-16s nvidia.com/mig-%s\n", p.name.c_str(),
                p.profile_id, p.compute_slices, p.memory_slices, p.memory_gib, p.sms, p.max_count,
                Starts(p).c_str(), p.ResourceSuffix().c_str());
  }
  return 0;
}

int LayoutsCommand(const std::string& name, bool all_profiles, const std::string& catalog_file,
                   bool json) {
  const std::optional<HardwareCatalog> catalog = Catalog(catalog_file);
  if (!catalog) return kBadInput;
  const std::shared_ptr<const GpuModel> m = FindOrComplain(*catalog, name);
  if (m == nullptr) return kBadInput;
  if (json) {  // a model without MIG has no layouts
    const std::vector<MigLayout> layouts =
        m->mig_capable() ? EnumerateMaximalLayouts(*m, !all_profiles) : std::vector<MigLayout>{};
    std::fputs(FormatLayoutsJson(*m, layouts, all_profiles).c_str(), stdout);
    return 0;
  }
  if (!m->mig_capable()) {
    std::printf("%s does not support MIG.\n", m->name.c_str());
    return 0;
  }
  const std::vector<MigLayout> layouts = EnumerateMaximalLayouts(*m, !all_profiles);
  std::printf("%zu maximal layouts of %s (%s profiles), drawn as its %d memory slices:\n",
              layouts.size(), m->name.c_str(), all_profiles ? "all" : "classic", m->memory_slices);
  for (size_t i = 0; i < layouts.size(); ++i) {
    int g = 0;
    for (const MigPlacement& p : layouts[i]) g += m->profiles[p.profile].compute_slices;
    std::printf("%3zu  %s  %d/%d SM slices\n", i + 1, Draw(*m, layouts[i]).c_str(), g,
                m->compute_slices);
  }
  return 0;
}

int NodesCommand(const std::string& catalog_file, bool json) {
  const std::optional<HardwareCatalog> catalog = Catalog(catalog_file);
  if (!catalog) return kBadInput;
  if (json) {
    std::fputs(FormatNodesJson(Rows(catalog->node_types()), catalog_file).c_str(), stdout);
    return 0;
  }
  // Columns as wide as their longest entry: Azure's names run to 25 characters.
  int name_width = 16;
  int cloud_width = 6;
  for (const auto& entry : catalog->node_types()) {
    name_width = std::max(name_width, static_cast<int>(entry.item->name.size()));
    cloud_width = std::max(cloud_width, static_cast<int>(entry.item->cloud.size()));
  }
  std::printf("%-*s %5s %-18s %6s %9s %9s %9s %-*s %-12s %s\n", name_width, "node type", "GPUs",
              "GPU model", "vCPU", "mem GiB", "$/hour", "spot $/h", cloud_width, "cloud", "region",
              "price date");
  auto text = [](const std::string& s) { return s.empty() ? "-" : s; };
  for (const auto& entry : catalog->node_types()) {
    const NodeType& t = *entry.item;
    char spot[32] = "-";
    if (t.spot_price_per_hour) std::snprintf(spot, sizeof spot, "%.3f", *t.spot_price_per_hour);
    std::printf("%-*s %5d %-18s %6d %9.0f %9.3f %9s %-*s %-12s %s%s\n", name_width, t.name.c_str(),
                t.gpu_count, t.gpu ? t.gpu->name.c_str() : "-", t.vcpu, t.memory_gib,
                t.price_per_hour, spot, cloud_width, text(t.cloud).c_str(), text(t.region).c_str(),
                text(t.price_date).c_str(), entry.user ? kUserMark : "");
  }
  std::printf(
      "prices: USD per hour, Linux, on demand in the region on the date shown; spot is one sample "
      "of that date (spot prices move); p5e: Capacity Block rate. Sources: catalog/node_types/\n");
  PrintUserFootnote(catalog_file);
  return 0;
}

}  // namespace migsim

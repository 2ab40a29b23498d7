// A GPU model's `mig` object: its slices and MIG profiles (README.md "GPU models and node
// types"), checked so that every profile alone at each of its starts is a valid layout.

#include <algorithm>
#include <set>

#include "sim/cluster/mig_layout.h"
#include "sim/io/catalog_json.h"

namespace migsim::io {
namespace {

// Every MIG GPU has 8 memory slices or fewer; the layout enumeration (`migsim layouts`, the
// dynamic partitioners) grows fast with the slice count, so a larger table is refused.
constexpr int64_t kMaxSlices = 16;

constexpr std::string_view kMediaSuffix = "+me";

std::vector<int> ReadStarts(LoadContext* ctx, const JsonRef& ref, int last) {
  std::vector<int> starts;
  if (!ExpectArray(ctx, ref)) return starts;
  if (ref.value().empty()) ctx->Fail(ref.pointer(), "must list at least one start");
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    std::optional<int64_t> start = ReadInt(ctx, ref.Element(i), 0, last);
    if (!start) break;
    if (std::find(starts.begin(), starts.end(), *start) != starts.end()) {
      ctx->Fail(ref.Element(i).pointer(), "repeats start " + std::to_string(*start));
      break;
    }
    starts.push_back(static_cast<int>(*start));
  }
  return starts;
}

MigProfile LoadProfile(LoadContext* ctx, const JsonRef& ref, const GpuModel& model) {
  ObjectReader r(ctx, ref,
                 {"name", "id", "compute_slices", "memory_slices", "memory_gib", "sms", "max_count",
                  "starts", "classic"});
  MigProfile p;
  if (!r.valid()) return p;
  p.name = r.NonEmptyString("name");
  std::string_view base = p.name;
  p.media_extensions = base.ends_with(kMediaSuffix);
  if (p.media_extensions) base.remove_suffix(kMediaSuffix.size());
  if (ctx->ok() && !IsPlainName(base)) {
    ctx->Fail(r.Field("name").pointer(),
              "'" + p.name + "' is not a profile name: use letters, digits, '.', '_' and '-' " +
                  "(and \"+me\" at the end for media extensions)");
  }
  for (const char* key :
       {"id", "compute_slices", "memory_slices", "memory_gib", "sms", "max_count", "starts"}) {
    r.Require(key);
  }
  p.profile_id = static_cast<int>(r.Int("id", 0, 0));
  p.compute_slices = static_cast<int>(r.Int("compute_slices", 1, 1, model.compute_slices));
  p.memory_slices = static_cast<int>(r.Int("memory_slices", 1, 1, model.memory_slices));
  p.memory_gib = r.Number("memory_gib", 1, 0, model.memory_mib / 1024.0);
  if (ctx->ok() && p.memory_gib <= 0) ctx->Fail(r.Field("memory_gib").pointer(), "must be > 0");
  p.sms = static_cast<int>(r.Int("sms", 1, 1, model.sms));
  p.max_count = static_cast<int>(r.Int("max_count", 1, 1, model.compute_slices));
  if (ctx->ok()) {
    p.starts = ReadStarts(ctx, r.Field("starts"), model.memory_slices - p.memory_slices);
  }
  p.classic = r.Bool("classic", false);
  return p;
}

// Every profile alone at each of its starts is a valid layout (ValidateLayout): what the
// ranges above do not catch, e.g. a placement that does not fit the compute slices.
void CheckSingleLayouts(LoadContext* ctx, const JsonRef& profiles, const GpuModel& model) {
  for (size_t i = 0; i < model.profiles.size(); ++i) {
    const MigProfile& p = model.profiles[i];
    for (size_t s = 0; s < p.starts.size(); ++s) {
      const MigPlacement alone{static_cast<int>(i), p.starts[s]};
      if (Status st = ValidateLayout(model, std::span(&alone, 1)); !st.ok()) {
        ctx->Fail(profiles.Element(i).Member("starts").Element(s).pointer(), st.message());
        return;
      }
    }
  }
}

}  // namespace

void LoadMig(LoadContext* ctx, const JsonRef& ref, GpuModel* model) {
  ObjectReader r(ctx, ref, {"memory_slices", "compute_slices", "placements", "profiles"});
  if (!r.valid()) return;
  r.Require("memory_slices");
  r.Require("compute_slices");
  model->memory_slices = static_cast<int>(r.Int("memory_slices", 1, 1, kMaxSlices));
  model->compute_slices = static_cast<int>(r.Int("compute_slices", 1, 1, kMaxSlices));
  const std::string placements = r.String("placements", "documented");
  if (ctx->ok() && placements != "documented" && placements != "inferred") {
    ctx->Fail(r.Field("placements").pointer(),
              "'" + placements + "' is not a placement source (valid: documented, inferred)");
  }
  model->inferred_placements = placements == "inferred";
  if (!r.Require("profiles") || !ctx->ok() || !ExpectArray(ctx, r.Field("profiles"))) return;
  const JsonRef profiles = r.Field("profiles");
  if (profiles.value().empty()) ctx->Fail(profiles.pointer(), "must list at least one profile");
  std::set<std::string> names;
  for (size_t i = 0; i < profiles.value().size() && ctx->ok(); ++i) {
    MigProfile profile = LoadProfile(ctx, profiles.Element(i), *model);
    if (ctx->ok() && !names.insert(profile.name).second) {
      ctx->Fail(profiles.Element(i).Member("name").pointer(),
                "profile '" + profile.name + "' is listed twice");
    }
    model->profiles.push_back(std::move(profile));
  }
  if (ctx->ok()) CheckSingleLayouts(ctx, profiles, *model);
}

}  // namespace migsim::io

// Shared ResourceClaims in scenarios: the top-level `resource_claims`, named claims that
// pod templates name with `resource_claim_name` (scenarios/README.md, "DRA"). A claim's
// `requests` are a pod claim's; its `sharing` is NVIDIA's GpuConfig/MigDeviceConfig
// `sharing`, with the driver's field names.

#include <algorithm>
#include <array>

#include "sim/io/quantity.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

constexpr std::array<std::string_view, 4> kIntervals = {"Default", "Short", "Medium", "Long"};

dra::TimeSliceInterval LoadInterval(LoadContext* ctx, const JsonRef& ref) {
  ObjectReader r(ctx, ref, {"interval"});
  const std::string interval = r.String("interval", "Default");
  const auto it = std::find(kIntervals.begin(), kIntervals.end(), interval);
  if (it == kIntervals.end()) {
    ctx->Fail(r.Field("interval").pointer(),
              "interval must be Default, Short, Medium or Long (got '" + interval + "')");
    return dra::TimeSliceInterval::kDefault;
  }
  return static_cast<dra::TimeSliceInterval>(it - kIntervals.begin());
}

void LoadMpsConfig(LoadContext* ctx, const JsonRef& ref, dra::DeviceSharing& sharing) {
  ObjectReader r(ctx, ref, {"defaultActiveThreadPercentage", "defaultPinnedDeviceMemoryLimit"});
  sharing.active_thread_percentage =
      static_cast<int32_t>(r.Int("defaultActiveThreadPercentage", 100, 1, 100));
  if (!r.Has("defaultPinnedDeviceMemoryLimit") || !ctx->ok()) return;
  const JsonRef limit = r.Field("defaultPinnedDeviceMemoryLimit");
  const std::optional<std::string> text = ReadString(ctx, limit);
  if (!text) return;
  const Result<int64_t> mib = ParseMemoryMib(*text);
  if (!mib.ok()) return ctx->Fail(limit.pointer(), mib.status().message());
  if (mib.value() <= 0) return ctx->Fail(limit.pointer(), "the limit must be more than 0");
  sharing.pinned_memory_limit_mib = mib.value();
}

// {"strategy": "TimeSlicing", "timeSlicingConfig": {...}} or {"strategy": "MPS",
// "mpsConfig": {...}}; the other strategy's config is an error.
dra::DeviceSharing LoadSharing(LoadContext* ctx, const JsonRef& ref) {
  dra::DeviceSharing sharing;
  ObjectReader r(ctx, ref, {"strategy", "timeSlicingConfig", "mpsConfig"});
  const std::string strategy = r.NonEmptyString("strategy");
  if (!ctx->ok()) return sharing;
  const bool mps = strategy == "MPS";
  if (!mps && strategy != "TimeSlicing") {
    ctx->Fail(r.Field("strategy").pointer(),
              "strategy must be TimeSlicing or MPS (got '" + strategy + "')");
    return sharing;
  }
  const std::string_view other = mps ? "timeSlicingConfig" : "mpsConfig";
  if (r.Has(other)) {
    ctx->Fail(r.Field(other).pointer(),
              std::string(other) + " is for strategy " + (mps ? "TimeSlicing" : "MPS") + " only");
    return sharing;
  }
  sharing.strategy = mps ? dra::SharingStrategy::kMps : dra::SharingStrategy::kTimeSlicing;
  if (mps && r.Has("mpsConfig")) LoadMpsConfig(ctx, r.Field("mpsConfig"), sharing);
  if (!mps && r.Has("timeSlicingConfig")) {
    sharing.interval = LoadInterval(ctx, r.Field("timeSlicingConfig"));
  }
  return sharing;
}

}  // namespace

void LoadSharedClaims(LoadContext* ctx, const JsonRef& ref,
                      const std::vector<dra::DeviceClass>& classes,
                      std::vector<dra::SharedClaim>* claims) {
  if (!ExpectNamedObject(ctx, ref, "resource claim")) return;
  for (const auto& [name, value] : ref.value().items()) {
    const JsonRef item = ref.Member(name);
    const bool taken =
        std::any_of(claims->begin(), claims->end(),
                    [&n = name](const dra::SharedClaim& c) { return c.claim.name == n; });
    if (taken) return ctx->Fail(item.pointer(), "ResourceClaim '" + name + "' is defined twice");
    ObjectReader r(ctx, item, {"requests", "sharing"});
    if (!r.valid()) return;
    dra::SharedClaim claim;
    claim.claim.name = name;
    claim.claim.requests = LoadClaimRequests(ctx, r, classes);
    if (r.Has("sharing") && ctx->ok()) claim.sharing = LoadSharing(ctx, r.Field("sharing"));
    if (!ctx->ok()) return;
    claims->push_back(std::move(claim));
  }
}

}  // namespace migsim::io

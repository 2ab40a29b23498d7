#include "policies/registry.h"

#include <algorithm>

#include "policies/best_fit.h"
#include "policies/first_fit.h"
#include "policies/gpu_share_adapter.h"
#include "policies/mig_placement.h"
#include "policies/plugin/plugin_policy.h"
#include "policies/scored.h"
#include "policies/spread.h"

namespace migsim {
namespace {

std::unique_ptr<Policy> MakeFirstFit(const PolicySpec&) {
  return std::make_unique<FirstFitPolicy>();
}
std::unique_ptr<Policy> MakeBestFit(const PolicySpec& s) {
  return std::make_unique<BestFitPolicy>(s.name);
}
std::unique_ptr<Policy> MakeSpread(const PolicySpec& s) {
  return std::make_unique<SpreadPolicy>(s.name);
}
std::unique_ptr<Policy> MakeShare(const PolicySpec& s) {
  return std::make_unique<GpuShareAdapter>(s.name);
}
std::unique_ptr<Policy> MakeRandomShare(const PolicySpec& s) {
  return std::make_unique<GpuShareAdapter>(s.name, static_cast<uint64_t>(s.Integer("seed")));
}
std::unique_ptr<Policy> MakeMig(const PolicySpec& s) {
  return std::make_unique<MigPlacementPolicy>(s.name, s.Bool("dynamic"));
}
std::unique_ptr<Policy> MakeScored(const PolicySpec& s) {
  std::vector<ScoredPolicy::Plugin> plugins;
  for (const WeightedPlugin& p : s.Plugins("plugins")) {
    plugins.push_back({MakePolicy(p.plugin), p.weight});
  }
  return std::make_unique<ScoredPolicy>(std::move(plugins));
}

ParamSpec DynamicParam() {
  return {.name = "dynamic",
          .kind = ParamKind::kBool,
          .default_value = false,
          .doc =
              "repartition MIG-enabled GPUs through the MIG manager when a MIG pod fits "
              "nowhere (new GPU instances next to the busy ones; mixed strategy)"};
}

std::vector<PolicyInfo> BuildCatalog() {
  std::vector<PolicyInfo> c = {
      {"first-fit", "the first node, in cluster order, that fits", {}, false, &MakeFirstFit},
      {"best-fit",
       "the node most allocated with the pod on it (MostAllocated)",
       {},
       true,
       &MakeBestFit},
      {"spread",
       "the node least allocated with the pod on it (LeastAllocated)",
       {},
       true,
       &MakeSpread},
      {"most-allocated", "kube-scheduler's name for best-fit", {}, true, &MakeBestFit},
      {"least-allocated", "kube-scheduler's name for spread", {}, true, &MakeSpread},
  };
  c.push_back({"random",
               "openb study (ATC'23 FGD): a random feasible node",
               {{.name = "seed",
                 .kind = ParamKind::kInteger,
                 .default_value = int64_t{1},
                 .doc = "seed of the policy's own random stream (default: the run's seed)",
                 .min = 0,
                 .max = 9007199254740992.0}},
               false,
               &MakeRandomShare});
  const std::pair<std::string_view, std::string_view> share[] = {
      {"dot-product",
       "openb study: the smallest dot product of the node's free [cpu, gpu] and the request"},
      {"gpu-clustering", "openb study: GPU pods of a kind packed together"},
      {"gpu-packing",
       "openb study: partly used GPUs first, then nodes with some, then small empty nodes"},
      {"best-fit-share", "openb study: the node with the least CPU and GPU left after the pod"},
      {"fgd", "openb study: the least growth of GPU fragmentation (FGD)"}};
  for (const auto& [name, summary] : share) c.push_back({name, summary, {}, true, &MakeShare});
  const std::pair<std::string_view, std::string_view> mig[] = {
      {"mig-first-fit", "MIG: the first free GPU instance of the pod's profile"},
      {"mig-best-fit", "MIG: the instance that keeps the most maximal layouts open"},
      {"mig-fgd", "MIG: the instance that adds the least MIG fragmentation"}};
  for (const auto& [name, summary] : mig)
    c.push_back({name, summary, {DynamicParam()}, true, &MakeMig});
  c.push_back({"scored",
               "score plugins composed with weights, as a kube-scheduler profile",
               {{.name = "plugins",
                 .kind = ParamKind::kScorePlugins,
                 .default_value = std::vector<WeightedPlugin>{},
                 .doc = "[{\"name\": <a scoring policy>, \"weight\": <number > 0>, "
                        "\"params\": {...}}, ...], at least one",
                 .required = true}},
               false,
               &MakeScored});
  return c;
}

}  // namespace

std::span<const PolicyInfo> PolicyCatalog() {
  static const std::vector<PolicyInfo> catalog = BuildCatalog();
  return catalog;
}

const PolicyInfo* FindPolicy(std::string_view name) {
  for (const PolicyInfo& p : PolicyCatalog()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> PolicyNames() {
  std::vector<std::string> names;
  for (const PolicyInfo& p : PolicyCatalog()) names.emplace_back(p.name);
  return names;
}

PolicySpec WithDefaults(PolicySpec spec) {
  const PolicyInfo* info = FindPolicy(spec.name);
  for (const ParamSpec& p : info->params) spec.params.try_emplace(p.name, p.default_value);
  return spec;
}

bool PolicyDrawsAtRandom(const PolicySpec& spec) {
  const PolicyInfo* info = spec.library.empty() ? FindPolicy(spec.name) : nullptr;
  if (info == nullptr) return false;
  return std::any_of(info->params.begin(), info->params.end(),
                     [](const ParamSpec& p) { return p.name == kPolicySeedParam; });
}

void SeedPolicyStream(PolicySpec* spec, uint64_t run_seed) {
  if (PolicyDrawsAtRandom(*spec)) {
    spec->params[std::string(kPolicySeedParam)] = static_cast<int64_t>(run_seed);
  }
}

std::unique_ptr<Policy> MakePolicy(const PolicySpec& spec) {
  if (!spec.library.empty()) {
    Result<std::unique_ptr<Policy>> loaded = LoadPluginPolicy(spec.library, spec.params_json);
    return loaded.ok() ? std::move(loaded).value() : nullptr;
  }
  const PolicyInfo* info = FindPolicy(spec.name);
  return info == nullptr ? nullptr : info->make(spec);
}

std::unique_ptr<Policy> MakePolicy(std::string_view name) {
  if (FindPolicy(name) == nullptr) return nullptr;
  return MakePolicy(WithDefaults(PolicySpec{.name = std::string(name)}));
}

}  // namespace migsim

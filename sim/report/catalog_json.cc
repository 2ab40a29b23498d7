#include "sim/report/catalog_json.h"

#include "policies/plugin/migsim_policy_plugin.h"
#include "policies/queue/queue_orders.h"
#include "policies/registry.h"
#include "sim/report/document_json.h"
#include "workloads/builtin_job_classes.h"

namespace migsim {
namespace {

// A default as the JSON value a scenario would give; score plugins as [{"name", "weight"}].
OrderedJson DefaultJson(const ParamSpec& p) {
  if (p.required) return nullptr;
  return std::visit(
      [](const auto& v) -> OrderedJson {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<WeightedPlugin>>) {
          OrderedJson plugins = OrderedJson::array();
          for (const WeightedPlugin& w : v) {
            plugins.push_back({{"name", w.plugin.name}, {"weight", w.weight}});
          }
          return plugins;
        } else {
          return v;
        }
      },
      p.default_value);
}

}  // namespace

const char* ParamKindName(ParamKind kind) {
  switch (kind) {
    case ParamKind::kNumber:
      return "number";
    case ParamKind::kInteger:
      return "integer";
    case ParamKind::kBool:
      return "boolean";
    case ParamKind::kString:
      return "string";
    case ParamKind::kScorePlugins:
      return "score plugins";
  }
  return "";
}

std::string FormatGpusJson(const std::vector<CatalogRow<GpuModel>>& models,
                           const std::string& catalog_file) {
  OrderedJson rows = OrderedJson::array();
  for (const CatalogRow<GpuModel>& row : models) {
    const GpuModel& m = *row.item;
    OrderedJson profiles = OrderedJson::array();
    for (const MigProfile& p : m.profiles) profiles.push_back(p.name);
    rows.push_back({{"name", m.name},
                    {"product_label", m.product_label},
                    {"memory_mib", m.memory_mib},
                    {"sms", m.sms},
                    {"max_watts", m.max_watts},
                    {"idle_watts", m.idle_watts},
                    {"mig", m.mig_capable() ? OrderedJson{{"compute_slices", m.compute_slices},
                                                          {"memory_slices", m.memory_slices}}
                                            : OrderedJson(nullptr)},
                    {"profiles", std::move(profiles)},
                    {"placements_inferred", m.inferred_placements},
                    {"from_scenario", row.user}});
  }
  return JsonDocument({{"models", std::move(rows)}, {"scenario", JsonTextOrNull(catalog_file)}});
}

std::string FormatProfilesJson(const GpuModel& m) {
  OrderedJson profiles = OrderedJson::array();
  for (const MigProfile& p : m.profiles) {
    profiles.push_back({{"name", p.name},
                        {"profile_id", p.profile_id},
                        {"compute_slices", p.compute_slices},
                        {"memory_slices", p.memory_slices},
                        {"memory_gib", p.memory_gib},
                        {"sms", p.sms},
                        {"max_count", p.max_count},
                        {"starts", p.starts},
                        {"resource", "nvidia.com/mig-" + p.ResourceSuffix()}});
  }
  return JsonDocument({{"model", m.name},
                       {"mig", m.mig_capable()},
                       {"compute_slices", m.compute_slices},
                       {"memory_slices", m.memory_slices},
                       {"placements_inferred", m.inferred_placements},
                       {"profiles", std::move(profiles)}});
}

std::string FormatLayoutsJson(const GpuModel& m, const std::vector<MigLayout>& layouts,
                              bool all_profiles) {
  OrderedJson rows = OrderedJson::array();
  for (const MigLayout& layout : layouts) {
    OrderedJson instances = OrderedJson::array();
    int used = 0;
    for (const MigPlacement& p : layout) {
      const MigProfile& profile = m.profiles[static_cast<size_t>(p.profile)];
      instances.push_back({{"profile", profile.name}, {"start", p.start}});
      used += profile.compute_slices;
    }
    rows.push_back({{"instances", std::move(instances)},
                    {"compute_slices_used", used},
                    {"description", DescribeLayout(m, layout)}});
  }
  return JsonDocument({{"model", m.name},
                       {"mig", m.mig_capable()},
                       {"profiles", all_profiles ? "all" : "classic"},
                       {"compute_slices", m.compute_slices},
                       {"memory_slices", m.memory_slices},
                       {"layouts", std::move(rows)}});
}

std::string FormatNodesJson(const std::vector<CatalogRow<NodeType>>& node_types,
                            const std::string& catalog_file) {
  OrderedJson rows = OrderedJson::array();
  for (const CatalogRow<NodeType>& row : node_types) {
    const NodeType& t = *row.item;
    rows.push_back({{"name", t.name},
                    {"gpus", t.gpu_count},
                    {"gpu_model", t.gpu ? OrderedJson(t.gpu->name) : OrderedJson(nullptr)},
                    {"vcpu", t.vcpu},
                    {"memory_gib", t.memory_gib},
                    {"price_usd_per_h", t.price_per_hour},
                    {"spot_price_usd_per_h", JsonOrNull(t.spot_price_per_hour)},
                    {"cloud", JsonTextOrNull(t.cloud)},
                    {"region", JsonTextOrNull(t.region)},
                    {"price_date", JsonTextOrNull(t.price_date)},
                    {"from_scenario", row.user}});
  }
  return JsonDocument(
      {{"node_types", std::move(rows)}, {"scenario", JsonTextOrNull(catalog_file)}});
}

std::string FormatPoliciesJson() {
  OrderedJson policies = OrderedJson::array();
  for (const PolicyInfo& info : PolicyCatalog()) {
    OrderedJson params = OrderedJson::array();
    for (const ParamSpec& p : info.params) {
      params.push_back({{"name", p.name},
                        {"kind", ParamKindName(p.kind)},
                        {"required", p.required},
                        {"default", DefaultJson(p)},
                        {"doc", p.doc}});
    }
    policies.push_back({{"name", std::string(info.name)},
                        {"summary", std::string(info.summary)},
                        {"scores", info.scores},
                        {"params", std::move(params)}});
  }
  OrderedJson orders = OrderedJson::array();
  for (const QueueOrderInfo& info : QueueOrderCatalog()) {
    orders.push_back({{"name", std::string(info.name)}, {"summary", std::string(info.summary)}});
  }
  return JsonDocument(
      {{"policies", std::move(policies)},
       {"plugin_abi",
        {{"oldest", MIGSIM_POLICY_ABI_OLDEST}, {"current", MIGSIM_POLICY_ABI_VERSION}}},
       {"queue_orders", std::move(orders)}});
}

std::string FormatJobClassesJson() {
  OrderedJson classes = OrderedJson::array();
  for (const BuiltinJobClass& b : BuiltinJobClasses()) {
    const JobClass& jc = b.job_class;
    OrderedJson runs = OrderedJson::array();
    for (const auto& [kind, run] : jc.run_time) {
      runs.push_back(
          {{"kind", kind}, {"run_s", run.seconds()}, {"speed_per_s", jc.work / run.seconds()}});
    }
    classes.push_back({{"name", jc.name},
                       {"work", jc.work},
                       {"work_unit", jc.work_unit},
                       {"startup_s", jc.startup.seconds()},
                       {"duty_cycle", jc.duty_cycle},
                       {"run_times", std::move(runs)},
                       {"source", b.source}});
  }
  return JsonDocument({{"job_classes", std::move(classes)}});
}

}  // namespace migsim

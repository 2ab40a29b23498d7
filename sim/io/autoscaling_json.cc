// Node autoscaling: a pool's `autoscaling` and the cluster's `autoscaler` (sim/engine/
// node_group_spec.h; format in scenarios/README.md, "Autoscaling").

#include <algorithm>

#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

constexpr int64_t kMaxGroupNodes = 100000;  // as a pool's count
// What a node group's node takes from its launch to Ready by default (README
// "Autoscaling"): an assumption, not a measurement, so it is a parameter.
constexpr double kDefaultProvisioningS = 300;

CapacityType ReadCapacityType(LoadContext* ctx, ObjectReader& r) {
  const std::string type = r.String("capacity_type", "on-demand");
  if (type == "spot") return CapacityType::kSpot;
  if (type != "on-demand" && ctx->ok()) {
    ctx->Fail(r.Field("capacity_type").pointer(),
              "unknown capacity type '" + type + "' (valid: on-demand, spot)");
  }
  return CapacityType::kOnDemand;
}

Expander ReadExpander(LoadContext* ctx, ObjectReader& r) {
  const std::string name = r.String("expander", "random");
  for (Expander e : {Expander::kRandom, Expander::kMostPods, Expander::kLeastWaste,
                     Expander::kPrice, Expander::kPriority}) {
    if (ExpanderName(e) == name) return e;
  }
  if (ctx->ok()) {
    ctx->Fail(r.Field("expander").pointer(),
              UnknownNameMessage("expander", name,
                                 {"random", "most-pods", "least-waste", "price", "priority"}));
  }
  return Expander::kRandom;
}

// The MIG manager applies a MIG config once the GPU operator is up: a node whose GPUs boot
// into MIG is Ready one MIG manager window later (domain.md §4.2).
SimTime DefaultProvisioning(const NodeSpec& node) {
  const bool mig = std::any_of(node.gpus.begin(), node.gpus.end(),
                               [](const GpuMigSetting& g) { return g.mig_enabled; });
  return SimTime::Seconds(kDefaultProvisioningS) +
         (mig ? node.mig_reconfiguration : SimTime::Zero());
}

}  // namespace

std::optional<NodeGroupSpec> LoadNodeGroup(LoadContext* ctx, const JsonRef& ref,
                                           const NodeSpec& node, uint32_t pool) {
  ObjectReader r(ctx, ref,
                 {"min", "max", "initial", "capacity_type", "price_per_hour", "provisioning_s",
                  "priority"});
  if (!r.valid()) return std::nullopt;
  NodeGroupSpec group{.pool = pool};
  r.Require("max");
  group.max = static_cast<uint32_t>(r.Int("max", 1, 1, kMaxGroupNodes));
  group.min = static_cast<uint32_t>(r.Int("min", 0, 0, kMaxGroupNodes));
  group.initial = static_cast<uint32_t>(r.Int("initial", group.min, 0, kMaxGroupNodes));
  if (ctx->ok() && group.min > group.max) {
    ctx->Fail(r.Field("min").pointer(), "must be at most max (" + std::to_string(group.max) + ")");
  }
  if (ctx->ok() && (group.initial < group.min || group.initial > group.max)) {
    ctx->Fail(r.Field("initial").pointer(), "must be between min (" + std::to_string(group.min) +
                                                ") and max (" + std::to_string(group.max) + ")");
  }
  group.capacity = ReadCapacityType(ctx, r);
  if (group.capacity == CapacityType::kSpot && ctx->ok() && !r.Has("price_per_hour")) {
    ctx->Fail(ref.pointer(), "a spot node group needs its price_per_hour (spot prices vary; "
                             "the catalog has on-demand prices only)");
  }
  group.price_per_hour = r.Number("price_per_hour", node.type->price_per_hour, 0);
  group.provisioning = r.Seconds("provisioning_s", DefaultProvisioning(node));
  group.priority = static_cast<int32_t>(r.Int("priority", 0, -kMaxInt, kMaxInt));
  if (!ctx->ok()) return std::nullopt;
  return group;
}

void LoadAutoscaler(LoadContext* ctx, const JsonRef& ref, ClusterAutoscalerSpec* out) {
  ObjectReader r(ctx, ref,
                 {"scan_interval_s", "expander", "scale_down_utilization_threshold",
                  "scale_down_unneeded_time_s", "scale_down_delay_after_add_s",
                  "scale_down_delay_after_delete_s", "max_node_provision_time_s",
                  "node_group_backoff_s", "max_empty_bulk_delete", "max_drain_parallelism",
                  "scale_down_enabled"});
  if (!r.valid()) return;
  ClusterAutoscalerSpec& ca = *out;
  ca.scan_interval = r.Seconds("scan_interval_s", ca.scan_interval);
  if (ctx->ok() && ca.scan_interval <= SimTime::Zero()) {
    ctx->Fail(r.Field("scan_interval_s").pointer(), "must be greater than 0");
  }
  ca.expander = ReadExpander(ctx, r);
  ca.utilization_threshold =
      r.Number("scale_down_utilization_threshold", ca.utilization_threshold, 0, 1);
  ca.unneeded_time = r.Seconds("scale_down_unneeded_time_s", ca.unneeded_time);
  ca.delay_after_add = r.Seconds("scale_down_delay_after_add_s", ca.delay_after_add);
  // The autoscaler's default for this one is the scan interval.
  ca.delay_after_delete = r.Seconds("scale_down_delay_after_delete_s", ca.scan_interval);
  ca.max_node_provision_time =
      r.Seconds("max_node_provision_time_s", ca.max_node_provision_time);
  ca.node_group_backoff = r.Seconds("node_group_backoff_s", ca.node_group_backoff);
  ca.max_empty_bulk_delete =
      static_cast<uint32_t>(r.Int("max_empty_bulk_delete", ca.max_empty_bulk_delete, 1));
  ca.max_drain_parallelism =
      static_cast<uint32_t>(r.Int("max_drain_parallelism", ca.max_drain_parallelism, 1));
  ca.scale_down = r.Bool("scale_down_enabled", ca.scale_down);
}

namespace {

ConsolidationPolicy ReadConsolidationPolicy(LoadContext* ctx, ObjectReader& r) {
  const std::string name = r.String("consolidation_policy", "WhenEmptyOrUnderutilized");
  if (name == "WhenEmpty") return ConsolidationPolicy::kWhenEmpty;
  if (name != "WhenEmptyOrUnderutilized" && ctx->ok()) {
    ctx->Fail(r.Field("consolidation_policy").pointer(),
              UnknownNameMessage("consolidation policy", name,
                                 {"WhenEmpty", "WhenEmptyOrUnderutilized"}));
  }
  return ConsolidationPolicy::kWhenEmptyOrUnderutilized;
}

// A budget's `nodes`: a count ("5" or 5) or a percentage of the NodePool's nodes ("10%").
void ReadBudgetNodes(LoadContext* ctx, const JsonRef& ref, DisruptionBudgetSpec* budget) {
  const Json& v = ref.value();
  if (v.is_number_integer()) {
    budget->percent = false;
    budget->nodes = static_cast<uint32_t>(ReadInt(ctx, ref, 0, kMaxGroupNodes).value_or(0));
    return;
  }
  const std::optional<std::string> text = ReadString(ctx, ref);
  if (!text) return;
  std::string digits = *text;
  budget->percent = !digits.empty() && digits.back() == '%';
  if (budget->percent) digits.pop_back();
  const int64_t max = budget->percent ? 100 : kMaxGroupNodes;
  const bool number = !digits.empty() && digits.size() <= 6 &&
                      std::all_of(digits.begin(), digits.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  if (!number || std::stoll(digits) > max) {
    ctx->Fail(ref.pointer(), "'" + *text + "' is not a node count (0.." +
                                 std::to_string(kMaxGroupNodes) +
                                 ") or a percentage (0%..100%)");
    return;
  }
  budget->nodes = static_cast<uint32_t>(std::stoll(digits));
}

uint8_t ReadBudgetReasons(LoadContext* ctx, const JsonRef& ref) {
  uint8_t mask = 0;
  const std::vector<std::string> reasons = ReadStringArray(ctx, ref);
  for (size_t i = 0; i < reasons.size() && ctx->ok(); ++i) {
    const std::string& name = reasons[i];
    if (name == "Empty") {
      mask |= static_cast<uint8_t>(DisruptionReason::kEmpty);
    } else if (name == "Underutilized") {
      mask |= static_cast<uint8_t>(DisruptionReason::kUnderutilized);
    } else if (name == "Drifted") {
      mask |= static_cast<uint8_t>(DisruptionReason::kDrifted);
    } else {
      ctx->Fail(ref.Element(i).pointer(),
                UnknownNameMessage("disruption reason", name,
                                   {"Empty", "Underutilized", "Drifted"}));
    }
  }
  return mask;
}

// `schedule` and `duration_s` come together, as Karpenter requires.
void ReadBudgetSchedule(LoadContext* ctx, ObjectReader& r, DisruptionBudgetSpec* budget) {
  if (r.Has("schedule") != r.Has("duration_s")) {
    const bool has_schedule = r.Has("schedule");
    ctx->Fail(r.Field(has_schedule ? "schedule" : "duration_s").pointer(),
              has_schedule ? "a schedule needs duration_s (how long the budget applies)"
                           : "duration_s needs a schedule (when the budget starts to apply)");
    return;
  }
  if (!r.Has("schedule")) return;
  const std::string text = r.NonEmptyString("schedule");
  if (!ctx->ok()) return;
  Result<CronSchedule> schedule = CronSchedule::Parse(text);
  if (!schedule.ok()) {
    ctx->Fail(r.Field("schedule").pointer(),
              "'" + text + "' is not a cron schedule: " + schedule.status().message());
    return;
  }
  budget->duration = r.Seconds("duration_s", SimTime::Zero());
  if (ctx->ok() && budget->duration <= SimTime::Zero()) {
    ctx->Fail(r.Field("duration_s").pointer(), "must be greater than 0");
    return;
  }
  budget->schedule = std::move(schedule).value();
}

std::vector<DisruptionBudgetSpec> ReadBudgets(LoadContext* ctx, const JsonRef& ref) {
  std::vector<DisruptionBudgetSpec> budgets;
  if (!ExpectArray(ctx, ref)) return budgets;
  for (size_t i = 0; i < ref.value().size() && ctx->ok(); ++i) {
    ObjectReader r(ctx, ref.Element(i), {"nodes", "reasons", "schedule", "duration_s"});
    if (!r.valid()) break;
    DisruptionBudgetSpec budget;
    if (r.Require("nodes")) ReadBudgetNodes(ctx, r.Field("nodes"), &budget);
    if (r.Has("reasons") && ctx->ok()) budget.reasons_mask = ReadBudgetReasons(ctx, r.Field("reasons"));
    if (ctx->ok()) ReadBudgetSchedule(ctx, r, &budget);
    budgets.push_back(budget);
  }
  return budgets;
}

}  // namespace

void LoadKarpenter(LoadContext* ctx, const JsonRef& ref, KarpenterSpec* out) {
  ObjectReader r(ctx, ref,
                 {"batch_idle_s", "batch_max_s", "consolidation_policy", "consolidate_after_s",
                  "budgets", "registration_ttl_s", "unavailable_offering_ttl_s"});
  if (!r.valid()) return;
  KarpenterSpec& k = *out;
  k.batch_idle = r.Seconds("batch_idle_s", k.batch_idle);
  if (ctx->ok() && k.batch_idle <= SimTime::Zero()) {
    ctx->Fail(r.Field("batch_idle_s").pointer(), "must be greater than 0");
  }
  k.batch_max = r.Seconds("batch_max_s", k.batch_max);
  if (ctx->ok() && k.batch_max < k.batch_idle) {
    ctx->Fail(r.Field("batch_max_s").pointer(),
              "must be at least batch_idle_s (" + FormatNumber(k.batch_idle.seconds()) + ")");
  }
  k.consolidation_policy = ReadConsolidationPolicy(ctx, r);
  k.consolidate_after = r.Seconds("consolidate_after_s", k.consolidate_after);
  if (r.Has("budgets") && ctx->ok()) k.budgets = ReadBudgets(ctx, r.Field("budgets"));
  k.registration_ttl = r.Seconds("registration_ttl_s", k.registration_ttl);
  k.unavailable_offering_ttl = r.Seconds("unavailable_offering_ttl_s", k.unavailable_offering_ttl);
}

// Of the faults, only spot interruptions (scripted, or a spot-interruption process, which
// runs only there) are modelled on a node group's nodes (the instance is reclaimed and its
// slot may launch again); a node lost, a GPU failure, a
// drain or a failed MIG apply there would have to survive the node's terminations and
// relaunches, which is not modelled yet.
void CheckFaultsOffNodeGroups(LoadContext* ctx, const ClusterSpec& cluster) {
  std::vector<uint8_t> grouped(cluster.nodes.size(), 0);
  for (const NodeGroupSpec& g : cluster.node_groups) {
    const NodePoolRange& pool = cluster.pools[g.pool];
    std::fill_n(grouped.begin() + pool.first, pool.count, 1);
  }
  const auto hits = [&](const std::vector<uint32_t>& nodes) {
    return std::any_of(nodes.begin(), nodes.end(), [&](uint32_t n) { return grouped[n] != 0; });
  };
  const std::string why = "only spot interruptions are modelled on an autoscaled pool's nodes "
                          "(README \"Autoscaling\"); target a fixed pool";
  for (size_t i = 0; i < cluster.faults.size(); ++i) {
    if (cluster.faults[i].kind != FaultKind::kSpotInterruption &&
        hits(cluster.faults[i].target.nodes)) {
      return ctx->Fail("/faults/" + std::to_string(i), why);
    }
  }
  for (size_t i = 0; i < cluster.fault_processes.size(); ++i) {
    const FaultProcess& p = cluster.fault_processes[i];
    const bool spot = p.kind == FaultKind::kSpotInterruption;
    const bool all_grouped = std::all_of(p.nodes.begin(), p.nodes.end(),
                                         [&](uint32_t n) { return grouped[n] != 0; });
    if (spot && !all_grouped) {
      return ctx->Fail("/fault_processes/" + std::to_string(i),
                       "a spot-interruption process runs on an autoscaled pool's instances "
                       "(README \"Autoscaling\"); give 'pool' an autoscaled pool");
    }
    if (!spot && hits(p.nodes)) return ctx->Fail("/fault_processes/" + std::to_string(i), why);
  }
}

}  // namespace migsim::io

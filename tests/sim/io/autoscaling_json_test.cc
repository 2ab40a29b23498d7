// Loading node autoscaling: a pool's `autoscaling` and the cluster's `autoscaler`.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/scenario_text.h"

namespace migsim {
namespace {

std::string Doc(const std::string& pool, const std::string& cluster_extra = "",
                const std::string& top_extra = "") {
  return R"({"name": "t", "description": "d", )" + top_extra + R"(
    "cluster": {)" + cluster_extra + R"("nodes": {"g": )" + pool + R"(}},
    "job_classes": {"run": {"run_s": 10}},
    "workloads": {"p": {"kind": "Pod", "template": {"job_class": "run"}}}})";
}

}  // namespace

TEST_CASE("an autoscaled pool holds max nodes and its group reads its defaults",
          "[io][autoscaling]") {
  const Scenario s = test::LoadFirstVariant(
      Doc(R"({"type": "p4d.24xlarge", "mig": {"config": "all-1g.5gb"},
              "autoscaling": {"max": 4, "min": 1}})"));
  REQUIRE(s.cluster.nodes.size() == 4);
  REQUIRE(s.cluster.node_groups.size() == 1);
  const NodeGroupSpec& g = s.cluster.node_groups[0];
  CHECK(g.min == 1);
  CHECK(g.initial == 1);
  CHECK(g.capacity == CapacityType::kOnDemand);
  CHECK(g.price_per_hour == Approx(21.9576));
  // 5 min to Ready, plus the MIG manager's window (60 s) for a MIG config at boot.
  CHECK(g.provisioning.seconds() == 360);
  CHECK(s.cluster.autoscaler.expander == Expander::kRandom);
  CHECK(s.cluster.autoscaler.delay_after_delete.seconds() == 10);
}

TEST_CASE("the autoscaler's flags are read, and delay after delete follows the scan interval",
          "[io][autoscaling]") {
  const Scenario s = test::LoadFirstVariant(
      Doc(R"({"type": "p3.2xlarge", "autoscaling": {"max": 2, "provisioning_s": 90}})",
          R"("autoscaler": {"scan_interval_s": 30, "expander": "least-waste",
                            "scale_down_utilization_threshold": 0.3,
                            "scale_down_unneeded_time_s": 120}, )"));
  const ClusterAutoscalerSpec& ca = s.cluster.autoscaler;
  CHECK(ca.scan_interval.seconds() == 30);
  CHECK(ca.expander == Expander::kLeastWaste);
  CHECK(ca.utilization_threshold == 0.3);
  CHECK(ca.unneeded_time.seconds() == 120);
  CHECK(ca.delay_after_delete.seconds() == 30);
  CHECK(s.cluster.node_groups[0].provisioning.seconds() == 90);
}

TEST_CASE("bad autoscaling input is refused at its element", "[io][autoscaling]") {
  CHECK(test::LoadError(Doc(R"({"type": "p3.2xlarge", "count": 2, "autoscaling": {"max": 2}})")) ==
        "t.json:/cluster/nodes/g/count: an autoscaled pool has no count: its size is "
        "autoscaling's min ... max");
  CHECK(test::LoadError(Doc(R"({"type": "p3.2xlarge", "autoscaling": {"min": 3, "max": 2}})")) ==
        "t.json:/cluster/nodes/g/autoscaling/min: must be at most max (2)");
  CHECK(test::LoadError(Doc(R"({"type": "p3.2xlarge", "autoscaling": {"min": 1}})")) ==
        "t.json:/cluster/nodes/g/autoscaling: missing required field 'max'");
  CHECK(test::LoadError(
            Doc(R"({"type": "p3.2xlarge", "autoscaling": {"max": 2, "capacity_type": "spot"}})")) ==
        "t.json:/cluster/nodes/g/autoscaling: a spot node group needs its price_per_hour (spot "
        "prices vary; the catalog has on-demand prices only)");
  CHECK(test::LoadError(Doc(R"({"type": "p3.2xlarge"})", R"("autoscaler": {}, )")) ==
        "t.json:/cluster/autoscaler: no node pool is autoscaled (give a pool 'autoscaling')");
  CHECK(test::LoadError(Doc(R"({"type": "p3.2xlarge", "autoscaling": {"max": 2}})",
                            R"("autoscaler": {"expander": "cheapest"}, )")) ==
        "t.json:/cluster/autoscaler/expander: unknown expander 'cheapest' (valid: random, "
        "most-pods, least-waste, price, priority)");
  CHECK(test::LoadError(Doc(R"({"type": "p3.2xlarge", "autoscaling": {"max": 2}})", "",
                            R"("faults": [{"at_s": 5, "kind": "node-lost", "nodes": ["g-0"]}],)")) ==
        "t.json:/faults/0: only spot interruptions are modelled on an autoscaled pool's nodes "
        "(README \"Autoscaling\"); target a fixed pool");
  CHECK(test::LoadFirstVariant(
            Doc(R"({"type": "p3.2xlarge", "autoscaling": {"max": 2}})", "",
                R"("faults": [{"at_s": 5, "kind": "spot-interruption", "nodes": ["g-0"]}],)"))
            .cluster.faults.size() == 1);
}

TEST_CASE("Karpenter's settings are read with Karpenter v1's defaults", "[io][karpenter]") {
  const std::string pool = R"({"type": "p3.2xlarge", "autoscaling": {"max": 2}})";
  const Scenario d = test::LoadFirstVariant(Doc(pool, R"("karpenter": {}, )"));
  CHECK(d.cluster.provisioner == Provisioner::kKarpenter);
  CHECK(d.cluster.karpenter.batch_idle.seconds() == 1);
  CHECK(d.cluster.karpenter.batch_max.seconds() == 10);
  CHECK(d.cluster.karpenter.consolidation_policy ==
        ConsolidationPolicy::kWhenEmptyOrUnderutilized);
  CHECK(d.cluster.karpenter.consolidate_after.seconds() == 0);
  REQUIRE(d.cluster.karpenter.budgets.size() == 1);
  CHECK(d.cluster.karpenter.budgets[0].percent);
  CHECK(d.cluster.karpenter.budgets[0].nodes == 10);
  const Scenario s = test::LoadFirstVariant(Doc(pool, R"("karpenter": {
      "consolidation_policy": "WhenEmpty", "consolidate_after_s": 30,
      "budgets": [{"nodes": "20%", "reasons": ["Empty"]}, {"nodes": 2}, {"nodes": "3"}]}, )"));
  const KarpenterSpec& k = s.cluster.karpenter;
  CHECK(k.consolidation_policy == ConsolidationPolicy::kWhenEmpty);
  CHECK(k.consolidate_after.seconds() == 30);
  REQUIRE(k.budgets.size() == 3);
  CHECK(k.budgets[0].reasons_mask == static_cast<uint8_t>(DisruptionReason::kEmpty));
  CHECK((k.budgets[1].nodes == 2 && !k.budgets[1].percent));
  CHECK((k.budgets[2].nodes == 3 && !k.budgets[2].percent));
  CHECK(test::LoadFirstVariant(Doc(pool)).cluster.provisioner ==
        Provisioner::kClusterAutoscaler);
}

TEST_CASE("bad Karpenter input is refused at its element", "[io][karpenter]") {
  const std::string pool = R"({"type": "p3.2xlarge", "autoscaling": {"max": 2}})";
  CHECK(test::LoadError(Doc(pool, R"("karpenter": {}, "autoscaler": {}, )")) ==
        "t.json:/cluster/karpenter: give either 'autoscaler' (the Cluster Autoscaler) or "
        "'karpenter', not both");
  CHECK(test::LoadError(Doc(R"({"type": "p3.2xlarge"})", R"("karpenter": {}, )")) ==
        "t.json:/cluster/karpenter: no node pool is autoscaled (give a pool 'autoscaling')");
  CHECK(test::LoadError(Doc(pool, R"("karpenter": {"budgets": [{"nodes": "110%"}]}, )")) ==
        "t.json:/cluster/karpenter/budgets/0/nodes: '110%' is not a node count (0..100000) or "
        "a percentage (0%..100%)");
  CHECK(test::LoadError(Doc(pool, R"("karpenter": {"budgets": [{"reasons": ["Empty"]}]}, )")) ==
        "t.json:/cluster/karpenter/budgets/0: missing required field 'nodes'");
  CHECK(test::LoadError(
            Doc(pool, R"("karpenter": {"budgets": [{"nodes": 1, "reasons": ["Idle"]}]}, )")) ==
        "t.json:/cluster/karpenter/budgets/0/reasons/0: unknown disruption reason 'Idle' "
        "(valid: Empty, Underutilized, Drifted)");
  CHECK(test::LoadError(Doc(pool, R"("karpenter": {"consolidation_policy": "Never"}, )")) ==
        "t.json:/cluster/karpenter/consolidation_policy: unknown consolidation policy 'Never' "
        "(valid: WhenEmpty, WhenEmptyOrUnderutilized)");
  CHECK(test::LoadError(Doc(pool, R"("karpenter": {"batch_idle_s": 5, "batch_max_s": 2}, )")) ==
        "t.json:/cluster/karpenter/batch_max_s: must be at least batch_idle_s (5)");
}

TEST_CASE("a budget's schedule and duration are read together and checked",
          "[io][karpenter]") {
  const std::string pool = R"({"type": "p3.2xlarge", "autoscaling": {"max": 2}})";
  const Scenario s = test::LoadFirstVariant(Doc(pool, R"("karpenter": {"budgets": [
      {"nodes": 0, "schedule": "0 9 * * mon-fri", "duration_s": 28800}, {"nodes": 1}]}, )"));
  const std::vector<DisruptionBudgetSpec>& b = s.cluster.karpenter.budgets;
  REQUIRE(b.size() == 2);
  REQUIRE(b[0].schedule.has_value());
  CHECK(b[0].schedule->text() == "0 9 * * mon-fri");
  CHECK(b[0].duration.seconds() == 28800);
  CHECK(b[0].ActiveAt(SimTime::Seconds(10 * 3600)));  // Monday 10:00
  CHECK_FALSE(b[0].ActiveAt(SimTime::Seconds(18 * 3600)));
  CHECK_FALSE(b[1].schedule.has_value());
  CHECK(b[1].ActiveAt(SimTime::Seconds(18 * 3600)));
  const auto error = [&](const std::string& budget) {
    return test::LoadError(Doc(pool, R"("karpenter": {"budgets": [)" + budget + "]}, "));
  };
  CHECK(error(R"({"nodes": 0, "schedule": "@daily"})") ==
        "t.json:/cluster/karpenter/budgets/0/schedule: a schedule needs duration_s (how long "
        "the budget applies)");
  CHECK(error(R"({"nodes": 0, "duration_s": 60})") ==
        "t.json:/cluster/karpenter/budgets/0/duration_s: duration_s needs a schedule (when the "
        "budget starts to apply)");
  CHECK(error(R"({"nodes": 0, "schedule": "0 25 * * *", "duration_s": 60})") ==
        "t.json:/cluster/karpenter/budgets/0/schedule: '0 25 * * *' is not a cron schedule: "
        "hour '25' is out of range 0-23");
  CHECK(error(R"({"nodes": 0, "schedule": "@daily", "duration_s": 0})") ==
        "t.json:/cluster/karpenter/budgets/0/duration_s: must be greater than 0");
}

TEST_CASE("the autoscalers' pod annotations take true or false", "[io][autoscaling]") {
  const std::string pool = R"({"type": "p3.2xlarge", "autoscaling": {"max": 2}})";
  const auto doc = [&](const std::string& annotations) {
    std::string text = Doc(pool, R"("karpenter": {}, )");
    const std::string run = R"("job_class": "run")";
    REQUIRE(text.find(run) != std::string::npos);
    text.replace(text.find(run), run.size(), run + R"(, "annotations": )" + annotations);
    return text;
  };
  const Scenario s = test::LoadFirstVariant(
      doc(R"({"karpenter.sh/do-not-disrupt": "true", "example.com/owner": "ml",
              "cluster-autoscaler.kubernetes.io/safe-to-evict": "false"})"));
  REQUIRE_FALSE(s.templates.empty());
  CHECK(s.templates.back().do_not_disrupt);
  CHECK_FALSE(s.templates.back().safe_to_evict);
  CHECK_THAT(test::LoadError(doc(R"({"karpenter.sh/do-not-disrupt": "yes"})")),
             Catch::EndsWith("/annotations: annotation 'karpenter.sh/do-not-disrupt' is "
                             "\"yes\": give \"true\" or \"false\""));
}

}  // namespace migsim

// Whole plans: the search over simulations on a tiny scenario whose answer is known, and
// on README's worked example.
#include "sim/study/plan/plan_run.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "sim/report/plan_report.h"
#include "tests/support/plan_files.h"

namespace migsim {
namespace {

using test::LoadPlan;
using test::PlanText;

}  // namespace

TEST_CASE("ten one-GPU pods at once need ten g4dn.xlarge, or five time-sliced two ways", "[plan]") {
  Result<PlanFile> loaded = LoadPlan(PlanText(R"(, "seeds": [1, 2])"));
  REQUIRE(loaded.ok());
  const PlanResult result = RunPlan(loaded.value(), {.jobs = 2, .on_evaluation = nullptr});
  REQUIRE(result.configurations.size() == 2);
  const PlanAnswer& whole = result.configurations[0].answer;
  const PlanAnswer& ts2 = result.configurations[1].answer;
  CHECK(whole.nodes == 10);
  CHECK(ts2.nodes == 5);
  CHECK(whole.warning.empty());
  CHECK(whole.chosen().cost_per_hour == Approx(10 * 0.526));
  CHECK(whole.chosen().runs.size() == 2);  // both seeds met
  CHECK(whole.chosen().metrics.pods.running == 10);
  CHECK(ts2.chosen().cost_per_hour == Approx(5 * 0.526));
  // 1 2 4 8 16, then 12 10 9, then 11: a missed size stops at its first seed.
  std::vector<int> sizes;
  for (const auto& [nodes, e] : whole.evidence) sizes.push_back(nodes);
  CHECK(sizes == std::vector<int>{1, 2, 4, 8, 16, 12, 10, 9, 11});
  CHECK(whole.evidence[0].second.runs.size() == 1);
  CHECK(whole.evidence[0].second.why_not == "seed 1: 9 pods pending > 0");
  CHECK(RankConfigurations(result) == std::vector<size_t>{1, 0});

  SECTION("the result does not depend on the number of threads") {
    const PlanResult serial = RunPlan(loaded.value(), {.jobs = 1, .on_evaluation = nullptr});
    CHECK(FormatEvidenceCsv(serial) == FormatEvidenceCsv(result));
  }
  SECTION("the table ranks by cost and recommends the cheapest") {
    CHECK(FormatPlanTable(result) ==
          "plan p: the fewest 'gpu' nodes (at most 16) meeting pending pods <= 0, on seeds 1, 2\n"
          "\n"
          "configuration  nodes  node type    cost ($/h)  cost ($/month)  p95 latency (s)  "
          "longest wait (s)  never bound  makespan (s)  allocation  utilization  evaluations  "
          "energy (kWh)  energy ($)\n"
          "ts2                5  g4dn.xlarge        2.63            1920              0.0       "
          "        0.0            0             -       1.000        1.000            6          "
          "0.01        0.00\n"
          "whole             10  g4dn.xlarge        5.26            3840              0.0       "
          "        0.0            0             -       1.000        1.000            9          "
          "0.01        0.00\n"
          "(the table's latency, wait, never bound, makespan, allocation and utilization are the "
          "run of the seed that decided each size, the first that missed or else the longest "
          "p95; cost and energy are means over the seeds)\n"
          "\n"
          "over the seeds at each chosen size, mean \u00b1 95 % confidence interval (Student's t, "
          "n - 1 degrees of freedom):\n"
          "configuration  nodes  node type    seeds  p95 latency (s)  l"
          "ongest wait (s)  makespan (s)    allocation   utilization\n"
          "ts2                5  g4dn.xlarge      2         0.0 \u00b10.0   "
          "       0.0 \u00b10.0             -  1.000 \u00b10.000  1.000 \u00b10.000\n"
          "whole             10  g4dn.xlarge      2         0.0 \u00b10.0   "
          "       0.0 \u00b10.0             -  1.000 \u00b10.000  1.000 \u00b10.000\n"
          "\n"
          "recommendation: ts2 with 5 × g4dn.xlarge in `gpu` (varied) at $2.63/h ($1,920 a "
          "month)\n"
          "its energy: 0.01 kWh per run ($0.00, 0.00 kg CO2)\n");
  }
  SECTION("plan.csv has the table's rows, evidence.csv a row per simulation") {
    CHECK(FormatPlanCsv(result) ==
          "configuration,nodes,node_type,cost_per_hour,cost_per_month,p95_queueing_latency_s,"
          "longest_wait_s,pods_never_bound,makespan_s,gpu_allocation_ratio,"
          "gpu_compute_utilization,evaluations,note,pools,energy_kwh,energy_cost\n"
          "ts2,5,g4dn.xlarge,2.6300,1919.90,0.000000,0.000000,0,,1,1,6,,"
          "gpu:5:g4dn.xlarge:varied:2.6300:,0.005918,0.000864\n"
          "whole,10,g4dn.xlarge,5.2600,3839.80,0.000000,0.000000,0,,1,1,9,,"
          "gpu:10:g4dn.xlarge:varied:5.2600:,0.011835,0.001728\n");
    const std::string evidence = FormatEvidenceCsv(result);
    CHECK_THAT(evidence, Catch::StartsWith(
                             "configuration,nodes,seed,meets,why_not,cost_per_hour,makespan_s,"
                             "queueing_p95_s,queueing_mean_s,queueing_max_s,gpu_allocation_ratio,"
                             "gpu_compute_utilization,pods_submitted,pods_completed,pods_failed,"
                             "pods_running,pods_pending,pods_deleted,restarts,pods_deleted_unbound,"
                             "pods_never_bound,longest_wait_s,pending_peak,pending_mean,"
                             "energy_kwh,energy_cost,co2_kg\n"
                             "whole,1,1,false,9 pods pending > "
                             "0,0.5260,,0.000000,0.000000,0.000000,1,1,10,0,0,1,9,0,0,"
                             "0,9,50.000000,9,9,0.001184,0.000173,0.000433\n"));
  }
}

TEST_CASE("a plan that no size meets recommends nothing and says why", "[plan]") {
  Result<PlanFile> loaded = LoadPlan(PlanText("", 3));
  REQUIRE(loaded.ok());
  const PlanResult result = RunPlan(loaded.value());
  CHECK_FALSE(result.configurations[0].answer.nodes.has_value());
  CHECK_THAT(FormatPlanTable(result),
             Catch::Contains("\nwhole            > 3  g4dn.xlarge           -") &&
                 Catch::Contains("whole: 3 nodes miss: 7 pods pending > 0\n") &&
                 Catch::Contains("recommendation: none: no configuration meets the objectives "
                                 "with at most 3 nodes\n"));
}

TEST_CASE("a plan asked to stop misses at once, saying it stopped", "[plan]") {
  Result<PlanFile> loaded = LoadPlan(PlanText("", 3));
  REQUIRE(loaded.ok());
  const PlanFile& plan = loaded.value();
  const PlanEvaluation e = EvaluatePlan(plan, plan.configurations[0], 3, [] { return true; });
  CHECK_FALSE(e.meets);
  CHECK(e.why_not == "stopped");
  CHECK(e.runs.empty());
  // Asked again after the first check: the run itself stops at its first event time.
  int asked = 0;
  const PlanEvaluation later =
      EvaluatePlan(plan, plan.configurations[0], 3, [&asked] { return ++asked > 1; });
  CHECK(later.why_not == "stopped");
  CHECK(asked == 2);
}

TEST_CASE(
    "seeds of a plan over a scenario that draws nothing at random are said to change "
    "nothing",
    "[plan]") {
  Result<PlanFile> one = LoadPlan(PlanText("", 3));
  REQUIRE(one.ok());
  CHECK(PlanSeedsChangeNothing(one.value()).empty());  // one seed: nothing to say
  Result<PlanFile> two = LoadPlan(PlanText(R"(, "seeds": [1, 2])", 3));
  REQUIRE(two.ok());
  CHECK_THAT(PlanSeedsChangeNothing(two.value()),
             Catch::StartsWith("seeds 1, 2 changes nothing: scenario"));
}

// The worked example of README "Capacity planning": its answers are the README's.
TEST_CASE("the capacity-inference-mix plan recommends four time-sliced p4d nodes", "[plan]") {
  const std::string path =
      std::string(MIGSIM_SOURCE_DIR) + "/scenarios/plans/capacity-inference-mix.plan.json";
  Result<PlanFile> loaded = LoadPlanFile(path);
  REQUIRE(loaded.ok());
  CHECK(loaded.value().scenario_path ==
        std::filesystem::path(std::string(MIGSIM_SOURCE_DIR) +
                              "/scenarios/capacity-inference-mix.json")
            .lexically_normal()
            .string());
  const PlanResult result = RunPlan(loaded.value());
  std::vector<std::pair<std::string, std::optional<int>>> answers;
  for (const ConfigurationAnswer& c : result.configurations) {
    answers.emplace_back(c.configuration->name, c.answer.nodes);
    CHECK(c.answer.warning.empty());
  }
  CHECK(answers ==
        std::vector<std::pair<std::string, std::optional<int>>>{
            {"p4d-whole", 12}, {"p4d-balanced", 5}, {"p4d-split-1g-7g", 6}, {"p4d-timeslice4", 4}});
  CHECK_THAT(FormatPlanTable(result),
             Catch::Contains("recommendation: p4d-timeslice4 with 4 × p4d.24xlarge in `gpu` "
                             "(varied) at $87.83/h ($64,116 a month)\n"));
}

// README "Autoscaled configurations": the plan searches a node group's max and costs what
// the runs billed.
TEST_CASE("an autoscaled configuration is sized by its group's max and costs what it billed",
          "[plan][autoscaling]") {
  const std::string path =
      std::string(MIGSIM_SOURCE_DIR) + "/scenarios/plans/autoscaling-inference.plan.json";
  Result<PlanFile> loaded = LoadPlanFile(path);
  REQUIRE(loaded.ok());
  const PlanFile& plan = loaded.value();
  REQUIRE(plan.configurations.size() == 3);
  Result<Scenario> five = PlanScenario(plan, plan.configurations[1], 5, 1);  // g5-autoscaled
  REQUIRE(five.ok());
  REQUIRE(five.value().cluster.node_groups.size() == 1);
  CHECK(five.value().cluster.node_groups[0].max == 5);
  const PlanResult result = RunPlan(plan);
  const PlanEvaluation& fixed = result.configurations[0].answer.chosen();
  const PlanEvaluation& g5 = result.configurations[1].answer.chosen();
  const PlanEvaluation& g4dn = result.configurations[2].answer.chosen();
  CHECK(result.configurations[0].answer.nodes == 16);
  CHECK(result.configurations[1].answer.nodes == 16);
  CHECK(fixed.cost_per_hour == Approx(16 * 1.006));
  // Billed over 39 h: less than the fixed pool, which pays for the peak all the time.
  CHECK(g5.cost_per_hour == Approx(9.78).margin(0.005));
  CHECK(g4dn.cost_per_hour == Approx(5.11).margin(0.005));
  CHECK(RankConfigurations(result).front() == 2);
  CHECK_THAT(FormatPlanTable(result),
             Catch::Contains("recommendation: g4dn-autoscaled with up to 16 × g4dn.xlarge in "
                             "`a10g` (varied, autoscaled: billed $5.11/h, at most 16 at once) at "
                             "$5.11/h ($3,732 a month)\n"));
  REQUIRE(g4dn.pools.size() == 1);
  CHECK(g4dn.pools[0].cost_per_hour == Approx(g4dn.cost_per_hour));
}

// A scenario whose pods arrive at random: each seed of a plan must see its own arrivals,
// drawn when the scenario is loaded with that seed.
TEST_CASE("each seed of a plan draws an Arrivals scenario's arrivals from that seed",
          "[plan][seed]") {
  const std::string scenario = R"({"name": "arrivals", "description": "d", "horizon_s": 3000,
    "cluster": {"nodes": {"gpu": {"type": "g4dn.xlarge", "count": 1}}},
    "workloads": {"w": {"kind": "Arrivals", "until_s": 2000, "rate_per_s": 0.02,
      "run_time": {"distribution": "exponential", "mean_s": 60},
      "template": {"resources": {"nvidia.com/gpu": 1}}}}})";
  Result<PlanFile> loaded = LoadPlan(
      R"({"name": "p", "description": "d", "scenario": "../s.json", "pool": "gpu",
          "configurations": {"whole": {}}, "slo": {"max_pending": 1000}, "max_nodes": 2,
          "seeds": [1, 2]})",
      scenario);
  REQUIRE(loaded.ok());
  const PlanEvaluation e = EvaluatePlan(loaded.value(), loaded.value().configurations[0], 1);
  REQUIRE(e.runs.size() == 2);
  const RunMetrics& one = e.runs[0].metrics;
  const RunMetrics& two = e.runs[1].metrics;
  CHECK(one.pods.submitted != two.pods.submitted);
  CHECK(one.queueing.mean_s != two.queueing.mean_s);
}

// The recommendation names every pool whose cost it includes.
TEST_CASE("a plan's recommendation names the varied pool and the fixed ones it pays for",
          "[plan]") {
  const std::string scenario = R"({"name": "two", "description": "d", "horizon_s": 50,
    "cluster": {"nodes": {"infer": {"type": "g4dn.xlarge", "count": 1},
                          "train": {"type": "p3.8xlarge", "count": 1}}},
    "job_classes": {"infer": {"run_s": 100}},
    "workloads": {"w": {"kind": "Job", "completions": 3, "parallelism": 3,
      "template": {"job_class": "infer", "resources": {"nvidia.com/gpu": 1},
                   "node_selector": {"node.kubernetes.io/instance-type": "g4dn.xlarge"}}}}})";
  Result<PlanFile> loaded = LoadPlan(
      R"({"name": "p", "description": "d", "scenario": "../s.json", "pool": "infer",
          "configurations": {"t4": {}}, "slo": {"max_pending": 0}, "max_nodes": 8})",
      scenario);
  REQUIRE(loaded.ok());
  const PlanResult result = RunPlan(loaded.value());
  REQUIRE(result.configurations[0].answer.nodes == 3);
  CHECK_THAT(FormatPlanTable(result),
             Catch::Contains("recommendation: t4 with 3 × g4dn.xlarge in `infer` (varied, "
                             "$1.58/h) + 1 × p3.8xlarge in `train` (fixed, $12.24/h) at "
                             "$13.82/h ($10,087 a month)\n"));
  CHECK_THAT(FormatPlanCsv(result),
             Catch::Contains(",infer:3:g4dn.xlarge:varied:1.5780:;train:1:p3.8xlarge:fixed:"
                             "12.2400:,"));
}

}  // namespace migsim

namespace migsim {

// scenarios/plans/autoscaling-superres.plan.json: scenario patches choose Karpenter and its
// disruption per configuration; the recommendation names the fixed pool it includes.
TEST_CASE("configurations that patch the scenario's Karpenter settings are costed apart",
          "[plan][autoscaling]") {
  Result<PlanFile> loaded = LoadPlanFile(std::string(MIGSIM_SOURCE_DIR) +
                                         "/scenarios/plans/autoscaling-superres.plan.json");
  REQUIRE(loaded.ok());
  const PlanFile& plan = loaded.value();
  Result<Scenario> karpenter = PlanScenario(plan, plan.configurations[2], 7, 1);
  Result<Scenario> after = PlanScenario(plan, plan.configurations[3], 7, 1);
  REQUIRE((karpenter.ok() && after.ok()));
  CHECK(karpenter.value().cluster.provisioner == Provisioner::kKarpenter);
  CHECK(karpenter.value().cluster.karpenter.consolidate_after == SimTime::Zero());
  CHECK(after.value().cluster.karpenter.consolidation_policy == ConsolidationPolicy::kWhenEmpty);
  CHECK(after.value().cluster.karpenter.consolidate_after == SimTime::Seconds(1800));
  const PlanResult result = RunPlan(plan);
  std::vector<std::pair<std::string, double>> costs;
  for (size_t i : RankConfigurations(result)) {
    const ConfigurationAnswer& c = result.configurations[i];
    costs.emplace_back(c.configuration->name, c.answer.chosen().cost_per_hour);
  }
  REQUIRE(costs.size() == 4);
  CHECK(costs[0].first == "karpenter");
  CHECK(costs[0].second == Approx(3.04).margin(0.005));
  CHECK(costs[1].first == "cluster-autoscaler");
  CHECK(costs[2].first == "karpenter-after-30m");  // empty nodes kept 30 min cost more
  CHECK(costs[2].second > costs[1].second);
  CHECK_THAT(FormatPlanTable(result),
             Catch::Contains("recommendation: karpenter with 1 × system in `system` (fixed, "
                             "$0.00/h) + up to 7 × p4d.24xlarge in `p4d` (varied, autoscaled: "
                             "billed $3.04/h, at most 7 at once) at $3.04/h ($2,223 a month)\n"));
}

}  // namespace migsim

namespace migsim {

// README "Serving SLOs": an HPA's replicas that wait through the daily peak and are deleted
// unbound escape p95 queueing latency and max_pending; the plan says it cannot judge them,
// and serving objectives size the pool for the peak. By hand (the HPA's decisions, its 0.1
// tolerance and 300 s scale-down stabilization): up to 76 replicas on 48 GPUs, from 35,700 s
// (45 -> 50 replicas) to 73,545 s (52 -> 47) each day; 28 replicas a day never bind.
TEST_CASE("a plan whose runs delete replicas unbound fails serving SLOs or says it cannot judge",
          "[plan][unserved]") {
  const std::string dir = std::string(MIGSIM_SOURCE_DIR) + "/scenarios/plans/";
  Result<PlanFile> batch = LoadPlanFile(dir + "inference-daily-peak.plan.json");
  REQUIRE(batch.ok());
  const PlanResult chosen = RunPlan(batch.value());
  REQUIRE(chosen.configurations.size() == 1);
  CHECK(chosen.configurations[0].answer.nodes == 6);
  const RunMetrics& m = chosen.configurations[0].answer.chosen().metrics;
  CHECK(m.queueing.p95_s == 0);
  CHECK(m.pods.pending == 0);
  CHECK(m.unserved.pending.peak == 76 - 48);
  CHECK(m.unserved.deleted_unbound == 2 * 28);
  CHECK(m.unserved.longest_wait_s == 73545 - 35700);
  CHECK(UnservedNotes(chosen) ==
        std::vector<std::string>{
            "g5-48xl at 6 nodes: 56 pods were deleted without ever binding (longest wait "
            "10.5 h); the objectives (p95_queueing_latency_s, max_pending) count only pods that "
            "bound or pods pending at the end: add max_wait_s or max_unserved"});
  CHECK_THAT(FormatPlanTable(chosen), Catch::Contains(UnservedNotes(chosen)[0] + "\n"));
  // The recommendation line, which a reader may take alone, carries the caveat itself.
  CHECK_THAT(FormatPlanTable(chosen),
             Catch::Contains("($71,341 a month), NOT JUDGED: its runs left demand unserved that "
                             "these objectives do not count (see above)\n"));

  Result<PlanFile> serving = LoadPlanFile(dir + "inference-daily-peak-serving.plan.json");
  REQUIRE(serving.ok());
  const PlanResult sized = RunPlan(serving.value());
  CHECK(sized.configurations[0].answer.nodes == 10);  // 80 GPUs hold the 76
  CHECK(UnservedNotes(sized).empty());
  CHECK_THAT(FormatPlanTable(sized), !Catch::Contains("NOT JUDGED"));
  for (const auto& [nodes, e] : sized.configurations[0].answer.evidence) {
    if (nodes == 9) CHECK_THAT(e.why_not, Catch::StartsWith("longest wait "));
  }
}

}  // namespace migsim

// A scenario's `manifests` and `manifest_overlay`: objects onto workloads, templates,
// priority classes and budgets; the overlay's rules; errors at the manifest or the overlay.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "sim/io/scenario_json.h"
#include "tests/golden/scenario_runner.h"
#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

const std::string kJob =
    "kind: Job\nmetadata: {name: train, namespace: ml, labels: {team: a}}\nspec:\n"
    "  completions: 3\n  parallelism: 2\n  template:\n    metadata: {labels: {tier: batch}}\n"
    "    spec:\n      restartPolicy: Never\n      priorityClassName: batch\n"
    "      containers:\n        - name: c\n          image: registry/train:2\n"
    "          resources: {limits: {nvidia.com/gpu: 1}}\n";

const std::string kBatchClass =
    "kind: PriorityClass\nmetadata: {name: batch}\nvalue: 100\nglobalDefault: true\n";

// A scenario in `dir` naming `manifests` (a JSON array) with `overlay` members.
std::string WriteScenario(const test::ScratchDir& dir, const std::string& manifests,
                          const std::string& overlay, const std::string& extra = "") {
  return dir.Write("s.json", R"({"name": "t", "description": "d", "horizon_s": 86400,
    "cluster": {"nodes": {"gpu": {"type": "p3.8xlarge"}}},
    "job_classes": {"train": {"run_s": 600}, "other": {"run_s": 5}},
    "manifests": )" + manifests + R"(, "manifest_overlay": )" +
                                 overlay + extra + "}");
}

Result<ScenarioFile> Load(const std::string& path) { return LoadScenarioFile(path); }

std::string ErrorOf(const std::string& path) {
  Result<ScenarioFile> loaded = Load(path);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

const Scenario& First(const Result<ScenarioFile>& loaded) {
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  return loaded.value().variants.front().second;
}

}  // namespace

TEST_CASE("a Job manifest becomes a JobSpec whose template has its requests and class",
          "[k8s][io]") {
  test::ScratchDir dir("manifests");
  std::filesystem::create_directory(dir.Path("k8s"));
  dir.Write("k8s/b-job.yaml", kJob);
  dir.Write("k8s/a-classes.yml", kBatchClass);
  dir.Write("k8s/notes.txt", "not a manifest");
  const auto loaded = Load(WriteScenario(dir, R"(["k8s/"])",
                                         R"({"job_classes": [{"name": "x*", "job_class": "other"},
                                         {"image": "registry/train:*", "job_class": "train"}],
                                         "objects": {"train": {"at_s": 60}}})"));
  const Scenario& s = First(loaded);
  REQUIRE(s.workloads.size() == 1);
  const auto& job = std::get<JobSpec>(s.workloads[0]);
  CHECK(job.name == "train");
  CHECK(job.at == SimTime::Seconds(60));
  CHECK(job.completions == 3);
  CHECK(job.parallelism == 2);
  const PodTemplate& t = s.templates.at(job.tmpl.value());
  CHECK(s.job_classes.at(t.job_class.value()).name == "train");
  CHECK(t.priority == 100);  // the class from the other file, read first (name order)
  CHECK(s.namespaces.at(static_cast<size_t>(t.namespace_index)) == "ml");
  CHECK(t.labels == Labels{{"tier", "batch"}});
  REQUIRE(t.requests.extended.size() == 1);
  CHECK(s.resources.name(t.requests.extended[0].resource) == "nvidia.com/gpu");
}

TEST_CASE("a pod template's autoscaler annotations reach the scenario's template",
          "[k8s][io]") {
  test::ScratchDir dir("manifests");
  std::string job = kJob;
  const std::string meta = "metadata: {labels: {tier: batch}}";
  job.replace(job.find(meta), meta.size(),
              "metadata: {labels: {tier: batch}, annotations: {karpenter.sh/do-not-disrupt: "
              "'true', cluster-autoscaler.kubernetes.io/safe-to-evict: 'false', a.b/c: x}}");
  dir.Write("job.yaml", job + "---\n" + kBatchClass);
  const auto loaded = Load(WriteScenario(
      dir, R"(["job.yaml"])", R"({"job_classes": [{"name": "*", "job_class": "train"}]})"));
  const Scenario& s = First(loaded);
  const PodTemplate& t = s.templates.at(std::get<JobSpec>(s.workloads.at(0)).tmpl.value());
  CHECK(t.do_not_disrupt);
  CHECK_FALSE(t.safe_to_evict);
  dir.Write("job.yaml", kJob + "---\n" + kBatchClass);
  const auto unannotated = Load(WriteScenario(
      dir, R"(["job.yaml"])", R"({"job_classes": [{"name": "*", "job_class": "train"}]})"));
  CHECK_FALSE(First(unannotated).templates.at(0).do_not_disrupt);
}

TEST_CASE("overlay rules are tried in order and the first match wins", "[k8s][io]") {
  test::ScratchDir dir("manifests");
  dir.Write("job.yaml", kJob + "---\n" + kBatchClass);
  auto class_of = [&](const std::string& rules) {
    const auto loaded =
        Load(WriteScenario(dir, R"(["job.yaml"])", R"({"job_classes": )" + rules + "}"));
    const Scenario& s = First(loaded);
    const auto& job = std::get<JobSpec>(s.workloads.at(0));
    return s.job_classes.at(s.templates.at(job.tmpl.value()).job_class.value()).name;
  };
  CHECK(class_of(R"([{"label": {"tier": "batch"}, "job_class": "other"},
                     {"image": "registry/*", "job_class": "train"}])") == "other");
  CHECK(class_of(R"([{"label": {"tier": "web"}, "job_class": "other"},
                     {"name": "tr*n", "job_class": "train"}])") == "train");
}

TEST_CASE("a pod that needs a run time and matches no rule is an error at its image", "[k8s][io]") {
  test::ScratchDir dir("manifests");
  const std::string job = dir.Write("job.yaml", kBatchClass + "---\n" + kJob);
  CHECK(ErrorOf(WriteScenario(dir, R"(["job.yaml"])", R"({"job_classes": []})")) ==
        job +
            ": document 2: spec.template.spec.containers[0].image (line 18): no job class for "
            "Job 'train' (image 'registry/train:2'): its pods need a run time; add a rule to "
            "manifest_overlay.job_classes matching its image, a label of its pods or its name");
}

TEST_CASE("overlay and manifest mistakes are reported where they are", "[k8s][io]") {
  test::ScratchDir dir("manifests");
  dir.Write("job.yaml", kBatchClass + "---\n" + kJob);
  dir.Write("classless.yaml", kJob);
  const std::string rules = R"({"job_classes": [{"image": "*", "job_class": "train"}])";
  CHECK(ErrorOf(WriteScenario(dir, R"(["job.yaml"])", rules + R"(, "objects": {"trian": {}}})")) ==
        dir.Path("s.json") +
            ":/manifest_overlay/objects/trian: no manifest workload is named "
            "'trian'");
  CHECK(ErrorOf(WriteScenario(dir, R"(["job.yaml"])",
                              rules + R"(, "objects": {"train": {"scale": []}}})")) ==
        dir.Path("s.json") +
            ":/manifest_overlay/objects/train/scale: only Deployments, ReplicaSets and "
            "StatefulSets scale; train is a Job");
  CHECK(ErrorOf(WriteScenario(dir, R"(["classless.yaml"])", rules + "}")) ==
        dir.Path("classless.yaml") +
            ": document 1: spec.template.spec.priorityClassName (line 10): "
            "unknown priority class 'batch' (valid: system-cluster-critical, "
            "system-node-critical)");
  CHECK(ErrorOf(WriteScenario(dir, R"(["missing.yaml"])", rules + "}")) ==
        dir.Path("missing.yaml") + ": cannot read file: No such file or directory");
  std::filesystem::create_directory(dir.Path("empty"));
  CHECK(ErrorOf(WriteScenario(dir, R"(["empty"])", rules + "}")) ==
        dir.Path("s.json") + ":/manifests/0: directory '" + dir.Path("empty") +
            "' has no .yaml, .yml or .json file");
}

TEST_CASE("a CronJob becomes one Job per scheduled run before the horizon", "[k8s][io]") {
  test::ScratchDir dir("manifests");
  dir.Write("cron.yaml",
            "kind: CronJob\nmetadata: {name: nightly}\nspec:\n  schedule: '0 */8 * * *'\n"
            "  jobTemplate:\n    spec:\n      template:\n        spec:\n"
            "          restartPolicy: OnFailure\n          containers: [{name: c, image: t}]\n");
  const auto loaded = Load(WriteScenario(
      dir, R"(["cron.yaml"])", R"({"job_classes": [{"image": "t", "job_class": "train"}]})"));
  const Scenario& s = First(loaded);
  REQUIRE(s.workloads.size() == 3);  // 0 h, 8 h, 16 h of the 24 h horizon
  const auto& second = std::get<JobSpec>(s.workloads[1]);
  CHECK(second.at == SimTime::Seconds(8 * 3600));
  // Minutes since the Unix epoch of 2024-01-01 08:00 UTC, as Kubernetes names the Job.
  CHECK(second.name == "nightly-28401600");
}

TEST_CASE("a PodDisruptionBudget manifest becomes one of the scenario's budgets", "[k8s][io]") {
  test::ScratchDir dir("manifests");
  dir.Write("pdb.yaml",
            "kind: PodDisruptionBudget\nmetadata: {name: keep, namespace: ml}\n"
            "spec: {minAvailable: 2, selector: {matchLabels: {tier: batch}}}\n---\n" +
                kBatchClass + "---\n" + kJob);
  const auto loaded = Load(WriteScenario(
      dir, R"(["pdb.yaml"])", R"({"job_classes": [{"image": "*", "job_class": "train"}]})"));
  const Scenario& s = First(loaded);
  REQUIRE(s.disruption_budgets.size() == 1);
  const PodDisruptionBudget& b = s.disruption_budgets[0];
  CHECK(b.name == "keep");
  CHECK(s.namespaces.at(static_cast<size_t>(b.namespace_index)) == "ml");
  CHECK(b.min_available->value == 2);
  CHECK(b.Selects(s.templates.at(0)));
}

TEST_CASE("seed 001's Deployments as manifests give the figures of the JSON scenario",
          "[k8s][io][golden]") {
  testing::ScenarioRun json, manifests;
  testing::RunScenarioFile("mig-strategies", json);
  testing::RunScenarioFile("manifests-seed-001", manifests);
  for (const std::string variant : {"single-all-1g.5gb", "mixed-all-balanced"}) {
    INFO(variant);
    const RunMetrics& a = testing::Variant(json, variant).metrics;
    const RunMetrics& b = testing::Variant(manifests, variant).metrics;
    CHECK(a.pods.submitted == b.pods.submitted);
    CHECK(a.pods.running == b.pods.running);
    CHECK(a.pods.pending == b.pods.pending);
    CHECK(a.queueing.mean_s == b.queueing.mean_s);
    CHECK(a.queueing.max_s == b.queueing.max_s);
    CHECK(a.gpu_allocation_ratio == b.gpu_allocation_ratio);
    CHECK(a.gpu_compute_utilization == b.gpu_compute_utilization);
  }
  CHECK(testing::Variant(manifests, "single-all-1g.5gb").metrics.pods.running == 56);
  CHECK(testing::Variant(manifests, "mixed-all-balanced").metrics.pods.running == 32);
  CHECK(testing::Variant(manifests, "gpu-taint").metrics.pods.pending == 100);
}

TEST_CASE("migsim takes manifests after the scenario, lists their warnings, exits 2 on errors",
          "[k8s][cli]") {
  test::ScratchDir dir("manifests");
  const std::string scenario =
      dir.Write("s.json", R"({"name": "t", "description": "d", "horizon_s": 100,
        "cluster": {"nodes": {"gpu": {"type": "p3.8xlarge"}}}})");
  const std::string good =
      dir.Write("web.yaml",
                "kind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 5\n  template:\n"
                "    spec:\n      containers: [{name: c, image: w,\n"
                "        resources: {limits: {nvidia.com/gpu: 1}}}]\n"
                "      affinity: {podAntiAffinity: {}}\n");
  const test::Outcome validate = test::RunMigsim("validate '" + scenario + "' '" + good + "'");
  CHECK(validate.exit_code == 0);
  CHECK(validate.output.find("warning: " + good +
                             ": document 1: spec.template.spec.affinity.podAntiAffinity (line 9): "
                             "inter-pod affinity is not modelled") != std::string::npos);
  const test::Outcome run = test::RunMigsim("run -q --json '" + scenario + "' '" + good + "'");
  CHECK(run.exit_code == 0);
  CHECK(run.output.find("\"running\": 4") != std::string::npos);  // 4 V100s, 5 replicas
  const std::string bad = dir.Write("bad.yaml", "kind: Deployment\nmetadata: {}\n");
  const test::Outcome refused = test::RunMigsim("run '" + scenario + "' '" + bad + "'");
  CHECK(refused.exit_code == 2);
  CHECK(
      refused.output.find(bad + ": document 1: metadata (line 2): missing required field 'name'") !=
      std::string::npos);
}

}  // namespace migsim

namespace migsim {

TEST_CASE("a PriorityClass defined alike twice is one class, differently an error naming both",
          "[k8s][io]") {
  test::ScratchDir dir("manifests");
  std::filesystem::create_directory(dir.Path("k8s"));
  dir.Write("k8s/a.yaml", kBatchClass);
  dir.Write("k8s/b.yaml", kBatchClass + "---\n" + kJob);
  const std::string overlay = R"({"job_classes": [{"image": "*", "job_class": "train"}]})";
  const auto loaded = Load(WriteScenario(dir, R"(["k8s/"])", overlay));
  const Scenario& s = First(loaded);
  CHECK(std::count_if(s.priority_classes.begin(), s.priority_classes.end(),
                      [](const PriorityClass& c) { return c.name == "batch"; }) == 1);
  // The scenario's own class (as migsim import writes it: no globalDefault) and a manifest's
  // of the same value: one class, the manifest's globalDefault.
  const auto with_own = Load(WriteScenario(dir, R"(["k8s/a.yaml", "k8s/b.yaml"])", overlay,
                                            R"(, "priority_classes": {"batch": {"value": 100}})"));
  const Scenario& both = First(with_own);
  const auto batch = std::find_if(both.priority_classes.begin(), both.priority_classes.end(),
                                  [](const PriorityClass& c) { return c.name == "batch"; });
  REQUIRE(batch != both.priority_classes.end());
  CHECK(batch->global_default);
  // Another value is a clash, at the second definition, naming the first.
  dir.Write("k8s/b.yaml", "kind: PriorityClass\nmetadata: {name: batch}\nvalue: 7\n---\n" + kJob);
  CHECK_THAT(ErrorOf(WriteScenario(dir, R"(["k8s/"])", overlay)),
             Catch::EndsWith("b.yaml: document 1 (line 1): priority class 'batch' is defined "
                             "twice, differently: here (value 7) and in " +
                             dir.Path("k8s/a.yaml") +
                             ": document 1 (line 1) (value 100, globalDefault)"));
}

}  // namespace migsim

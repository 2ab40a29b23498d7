// Argo Workflows from manifests: templates flattened into a Workflow's steps (DAG tasks,
// steps groups, nested templates, WorkflowTemplate references, fan-out, parallelism, retry),
// the overlay's params and step delay, the exact errors, and seed 000's golden run.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"
#include "tests/golden/scenario_runner.h"
#include "tests/support/run_migsim.h"
#include "tests/support/scratch_dir.h"

namespace migsim {
namespace {

// A scenario in `dir` reading `wf.yaml` (written from `manifest`), with `objects` as the
// overlay's objects and `extra` top-level members ("name": value, ...).
std::string WriteScenario(const test::ScratchDir& dir, const std::string& manifest,
                          const std::string& objects = "{}", const std::string& extra = "") {
  dir.Write("wf.yaml", manifest);
  return dir.Write("s.json", R"({"name": "t", "description": "d", )" + extra + R"(
    "cluster": {"nodes": {"gpu": {"type": "p3.8xlarge"}}},
    "job_classes": {"train": {"run_s": 60}},
    "manifests": ["wf.yaml"],
    "manifest_overlay": {"job_classes": [{"image": "*", "job_class": "train"}],
                         "objects": )" +
                                 objects + "}}");
}

std::string Workflow(const std::string& spec) {
  return "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: wf}\nspec:\n" + spec;
}

// A container template named `name` asking for one GPU.
std::string GpuTemplate(const std::string& name) {
  return "  - name: " + name +
         "\n    container: {image: t, resources: {limits: {nvidia.com/gpu: 1}}}\n";
}

WorkflowSpec Loaded(const std::string& path) {
  Result<ScenarioFile> loaded = LoadScenarioFile(path);
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  const Scenario& s = loaded.value().variants.front().second;
  REQUIRE(s.workloads.size() == 1);
  return std::get<WorkflowSpec>(s.workloads[0]);
}

std::string ErrorOf(const std::string& path) {
  Result<ScenarioFile> loaded = LoadScenarioFile(path);
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

std::vector<std::string> Names(const WorkflowSpec& w) {
  std::vector<std::string> names;
  for (const WorkflowStepSpec& s : w.steps) names.push_back(s.name);
  return names;
}

const std::string kDag =
    "  entrypoint: main\n  parallelism: 4\n  templates:\n"
    "  - name: main\n    parallelism: 2\n    dag:\n      tasks:\n"
    "      - {name: train, template: gpu, depends: 'prep && fetch.Succeeded', withItems: [a, b]}\n"
    "      - {name: prep, template: gpu}\n"
    "      - {name: fetch, template: gpu, dependencies: [prep]}\n" +
    GpuTemplate("gpu");

}  // namespace

TEST_CASE("a DAG's tasks become steps after the tasks they depend on", "[k8s][argo]") {
  test::ScratchDir dir("argo");
  const WorkflowSpec w = Loaded(WriteScenario(dir, Workflow(kDag)));
  CHECK(w.name == "wf");
  CHECK(w.parallelism == 2);  // the entrypoint's, below the workflow's
  CHECK(Names(w) == std::vector<std::string>{"prep", "fetch", "train"});
  CHECK(w.steps[1].depends == std::vector<int>{0});
  CHECK(w.steps[2].depends == std::vector<int>{0, 1});
  CHECK(w.steps[2].items == std::vector<std::string>{"a", "b"});
}

TEST_CASE("steps groups run in sequence and nested templates are expanded in place",
          "[k8s][argo]") {
  test::ScratchDir dir("argo");
  const std::string spec =
      "  entrypoint: main\n  retryStrategy: {limit: '3'}\n  templates:\n"
      "  - name: main\n    steps:\n"
      "    - - {name: a, template: gpu}\n      - {name: b, template: inner}\n"
      "    - - {name: c, template: gpu, withParam: '[1, 2, 3]'}\n"
      "  - name: inner\n    dag:\n      tasks:\n"
      "      - {name: x, template: gpu}\n      - {name: y, template: gpu, depends: x}\n" +
      GpuTemplate("gpu") + "    retryStrategy: {limit: 2, retryPolicy: OnError}\n";
  const WorkflowSpec w = Loaded(WriteScenario(dir, Workflow(spec)));
  CHECK(Names(w) == std::vector<std::string>{"a", "b.x", "b.y", "c"});
  CHECK(w.steps[1].depends.empty());
  CHECK(w.steps[2].depends == std::vector<int>{1});
  CHECK(w.steps[3].depends == std::vector<int>{0, 2});  // a and the nested DAG's last task
  CHECK(w.steps[3].items == std::vector<std::string>{"1", "2", "3"});
  CHECK(w.steps[0].retry.limit == 2);  // the template's, over the workflow's
  CHECK(w.steps[0].retry.policy == RetryPolicy::kOnError);
}

TEST_CASE("a withParam takes its items from the overlay, and the overlay its step delay",
          "[k8s][argo]") {
  test::ScratchDir dir("argo");
  const std::string spec =
      "  entrypoint: main\n  templates:\n  - name: main\n    steps:\n"
      "    - - {name: fan, template: gpu, withParam: '{{steps.gen.outputs.result}}'}\n" +
      GpuTemplate("gpu");
  const WorkflowSpec w = Loaded(
      WriteScenario(dir, Workflow(spec), R"({"wf": {"step_delay_s": 2, "params": {"fan": 3}}})"));
  CHECK(w.step_delay == SimTime::Seconds(2));
  CHECK(w.steps[0].items == std::vector<std::string>{"0", "1", "2"});
  const WorkflowSpec l =
      Loaded(WriteScenario(dir, Workflow(spec), R"({"wf": {"params": {"fan": ["x", 7]}}})"));
  CHECK(l.steps[0].items == std::vector<std::string>{"x", "7"});
  CHECK(ErrorOf(WriteScenario(dir, Workflow(spec))) ==
        dir.Path("wf.yaml") +
            ": document 1: spec.templates[0].steps[0][0].withParam (line 9): withParam "
            "'{{steps.gen.outputs.result}}' is known only when the workflow runs: give its items "
            "in manifest_overlay.objects.wf.params.fan (a count or a list)");
  CHECK(
      ErrorOf(WriteScenario(dir, Workflow(spec), R"({"wf": {"params": {"fan": 1, "fam": 2}}})")) ==
      dir.Path("s.json") +
          ":/manifest_overlay/objects/wf/params/fam: no step of workflow 'wf' named 'fam' "
          "fans out over a withParam");
}

TEST_CASE("a Workflow runs a WorkflowTemplate's templates by reference", "[k8s][argo]") {
  test::ScratchDir dir("argo");
  const std::string manifest =
      "apiVersion: argoproj.io/v1alpha1\nkind: WorkflowTemplate\nmetadata: {name: lib}\n"
      "spec:\n  entrypoint: main\n  parallelism: 3\n  templates:\n"
      "  - name: main\n    dag:\n      tasks:\n      - {name: one, template: gpu}\n" +
      GpuTemplate("gpu") + "---\n" + Workflow("  workflowTemplateRef: {name: lib}\n") + "---\n" +
      "kind: Workflow\nmetadata: {generateName: by-task-}\nspec:\n  entrypoint: m\n  templates:\n"
      "  - name: m\n    steps:\n    - - name: s\n        templateRef: {name: lib, template: gpu}\n";
  Result<ScenarioFile> keep = LoadScenarioFile(WriteScenario(dir, manifest));
  if (!keep.ok()) FAIL(keep.status().ToString());
  const Scenario& s = keep.value().variants.front().second;
  REQUIRE(s.workloads.size() == 2);  // the WorkflowTemplate itself does not run
  const auto& whole = std::get<WorkflowSpec>(s.workloads[0]);
  CHECK(whole.parallelism == 3);
  CHECK(Names(whole) == std::vector<std::string>{"one"});
  const auto& by_task = std::get<WorkflowSpec>(s.workloads[1]);
  CHECK(by_task.name == "by-task-");  // generateName, as is
  CHECK(Names(by_task) == std::vector<std::string>{"s"});
}

TEST_CASE("a CronWorkflow becomes one Workflow per scheduled run before the horizon",
          "[k8s][argo]") {
  const std::string cron_workflow =
      "kind: CronWorkflow\nmetadata: {name: nightly}\nspec:\n  schedule: '0 */8 * * *'\n"
      "  workflowSpec:\n    entrypoint: gpu\n"
      "    templates:\n    - {name: gpu, container: {image: t}}\n";
  test::ScratchDir dir("argo");
  const std::string unbounded = WriteScenario(dir, cron_workflow);
  CHECK(ErrorOf(unbounded) == dir.Path("wf.yaml") +
                                  ": document 1: spec.schedule (line 4): a CronWorkflow runs on "
                                  "its schedule until the horizon: the scenario needs horizon_s");
  Result<ScenarioFile> loaded =
      LoadScenarioFile(WriteScenario(dir, cron_workflow, "{}", R"("horizon_s": 86400, )"));
  if (!loaded.ok()) FAIL(loaded.status().ToString());
  const Scenario& s = loaded.value().variants.front().second;
  REQUIRE(s.workloads.size() == 3);  // 0 h, 8 h, 16 h of the 24 h horizon
  const auto& second = std::get<WorkflowSpec>(s.workloads[1]);
  CHECK(second.at == SimTime::Seconds(8 * 3600));
  // Seconds since the Unix epoch of 2024-01-01 08:00 UTC, as Argo names the run.
  CHECK(second.name == "nightly-1704096000");
}

TEST_CASE("what a workflow cannot run as written is an error at its place", "[k8s][argo]") {
  test::ScratchDir dir("argo");
  const std::string file = dir.Path("wf.yaml");
  auto error = [&](const std::string& spec) { return ErrorOf(WriteScenario(dir, Workflow(spec))); };
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    dag:\n      tasks:\n"
              "      - {name: a, template: gpu, depends: 'b || c'}\n" +
              GpuTemplate("gpu")) ==
        file +
            ": document 1: spec.templates[0].dag.tasks[0].depends (line 10): only task "
            "names joined by && (each optionally .Succeeded) are modelled, got 'b || c'");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    dag:\n      tasks:\n"
              "      - {name: a, template: gpu, depends: b}\n"
              "      - {name: b, template: gpu, depends: a}\n" +
              GpuTemplate("gpu")) ==
        file +
            ": document 1: spec.templates[0].dag.tasks[0].depends (line 10): tasks form a "
            "cycle through 'a'");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    steps:\n"
              "    - - {name: a, template: gpus}\n" +
              GpuTemplate("gpu")) ==
        file +
            ": document 1: spec.templates[0].steps[0][0].template (line 9): unknown "
            "template 'gpus' (valid: main, gpu)");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    steps:\n"
              "    - - {name: a, template: wait}\n  - {name: wait, suspend: {}}\n") ==
        file +
            ": document 1: spec.templates[0].steps[0][0].template (line 9): template "
            "'wait' is a suspend template, which migsim does not model");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    steps:\n"
              "    - - {name: a, template: main}\n") ==
        file +
            ": document 1: spec.templates[0] (line 7): template 'main' uses itself: "
            "recursion ends on a `when` condition, which migsim does not evaluate");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    retryStrategy: {}\n"
              "    container: {image: t}\n") ==
        file +
            ": document 1: spec.templates[0].retryStrategy (line 8): a retryStrategy "
            "without a limit retries for ever; migsim needs a limit (give 'limit')");
  const std::string inner =
      "  - name: inner\n    parallelism: 2\n    steps:\n"
      "    - - {name: x, template: gpu}\n" +
      GpuTemplate("gpu");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    steps:\n"
              "    - - {name: a, template: inner, withItems: [1, 2]}\n" +
              inner) ==
        file +
            ": document 1: spec.templates[0].steps[0][0].withItems (line 9): a fan-out over "
            "a dag or steps template ('inner') is not modelled");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    steps:\n"
              "    - - {name: a, template: inner}\n" +
              inner) ==
        file +
            ": document 1: spec.templates[1].parallelism (line 11): template-level "
            "parallelism is modelled on the entrypoint only, not on a nested dag or steps "
            "template");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    steps:\n"
              "    - - {name: a, template: gpu}\n    - - {name: a, template: gpu}\n" +
              GpuTemplate("gpu")) ==
        file + ": document 1: spec.templates[0].steps[1][0] (line 10): a second step named 'a'");
  CHECK(error("  entrypoint: main\n  templates:\n  - name: main\n    steps:\n"
              "    - - {name: a, template: gpu, withSequence: {count: '3'}}\n" +
              GpuTemplate("gpu")) ==
        file +
            ": document 1: spec.templates[0].steps[0][0].withSequence (line 9): "
            "withSequence is not modelled yet (use withItems or withParam)");
  CHECK(error("  workflowTemplateRef: {name: nope}\n") ==
        file +
            ": document 1: spec.workflowTemplateRef (line 5): no WorkflowTemplate named "
            "'nope' in the manifests");
}

TEST_CASE("what a workflow does that migsim does not model is a warning with its path",
          "[k8s][argo][cli]") {
  test::ScratchDir dir("argo");
  const std::string scenario = WriteScenario(
      dir, Workflow("  entrypoint: main\n  onExit: bye\n  templates:\n  - name: main\n"
                    "    steps:\n    - - {name: a, template: gpu, when: '{{x}} == 1'}\n" +
                    GpuTemplate("gpu") +
                    "    retryStrategy: {limit: 1, retryPolicy: OnTransientError}\n"));
  const test::Outcome validate = test::RunMigsim("validate '" + scenario + "'");
  CHECK(validate.exit_code == 0);
  const std::string file = dir.Path("wf.yaml");
  for (const std::string& w :
       {file + ": document 1: spec.onExit (line 6): exit handlers are not run",
        file + ": document 1: spec.templates[0].steps[0][0].when (line 10): conditions are not "
               "evaluated: the task always runs",
        file + ": document 1: spec.templates[1].retryStrategy.retryPolicy (line 13): modelled "
               "as OnError"}) {
    INFO(validate.output);
    CHECK(validate.output.find("warning: " + w) != std::string::npos);
  }
}

TEST_CASE("seed 000's Argo Workflow as a manifest prints what the JSON scenario prints",
          "[k8s][argo][golden]") {
  const std::string manifests = testing::CliVariantResults("manifests-seed-000");
  CHECK(manifests == testing::CliVariantResults("56-superres"));
  CHECK(manifests.find("\"makespan_s\": 87") != std::string::npos);
}

}  // namespace migsim

// Errors in `job_classes`, pod templates and `workloads`.

#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

// A valid document around `workloads`, with one job class "train".
std::string Doc(const std::string& workloads, const std::string& job_classes = "") {
  return R"({"name": "t", "description": "d", "horizon_s": 600,
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10})" +
         job_classes + R"(}, "workloads": )" + workloads + "}";
}

// A document with one workload `w` of the given members.
std::string Workload(const std::string& members) { return Doc(R"({"w": {)" + members + "}}"); }

// A document with one bare pod whose template has the given members.
std::string Template(const std::string& members) {
  return Workload(R"("kind": "Pod", "template": {)" + members + "}");
}

// A document with one workflow `wf` whose steps are `steps`.
std::string Workflow(const std::string& steps) {
  return Doc(R"({"wf": {"kind": "Workflow", "steps": )" + steps + "}}");
}

std::string MessageOf(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == StatusCode::kInvalidArgument);
  return loaded.status().ToString();
}

Scenario Load(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  INFO((loaded.ok() ? "" : loaded.status().ToString()));
  REQUIRE(loaded.ok());
  return loaded.value().variants[0].second;
}

}  // namespace

TEST_CASE("job class fields are checked", "[io]") {
  CHECK(MessageOf(Doc("{}", R"(, "bad": {"failure_probability": 1.5})")) ==
        "t.json:/job_classes/bad/failure_probability: must be <= 1");
  CHECK(MessageOf(Doc("{}", R"(, "bad": {"startup_s": -1})")) ==
        "t.json:/job_classes/bad/startup_s: must be >= 0");
  CHECK(MessageOf(Doc("{}", R"(, "bad": {"run_s": "10"})")) ==
        "t.json:/job_classes/bad/run_s: expected a number or an object, got a string");
  CHECK(MessageOf(Doc("{}", R"(, "bad": {"run_s": {"tpu": 3}})"))
            .rfind("t.json:/job_classes/bad/run_s/tpu: unknown device kind 'tpu' (valid: "
                   "default, cpu, gpu, 1g.5gb, 1g.5gb+me, ",
                   0) == 0);
}

TEST_CASE("a workload needs a known kind, fields depend on it", "[io]") {
  CHECK(MessageOf(Workload(R"("count": 1)")) ==
        "t.json:/workloads/w: missing required field 'kind'");
  CHECK(MessageOf(Workload(R"("kind": "CronJob")")) ==
        "t.json:/workloads/w/kind: unknown workload kind 'CronJob' (valid: Pod, Deployment, Job, "
        "Workflow, Trace, Arrivals, DistributedJob)");
  CHECK(MessageOf(Workload(R"("kind": "Pod", "replicas": 2, "template": {})")) ==
        "t.json:/workloads/w/replicas: unknown field 'replicas' (expected one of: kind, namespace, "
        "at_s, count, template)");
  CHECK(MessageOf(Workload(R"("kind": "Job")")) ==
        "t.json:/workloads/w: missing required field 'template'");
}

TEST_CASE("negative counts and durations are rejected at the field", "[io]") {
  CHECK(MessageOf(Workload(R"("kind": "Pod", "count": 0, "template": {"job_class": "train"})")) ==
        "t.json:/workloads/w/count: must be >= 1");
  CHECK(MessageOf(Workload(R"("kind": "Pod", "at_s": -5, "template": {"job_class": "train"})")) ==
        "t.json:/workloads/w/at_s: must be >= 0");
  CHECK(MessageOf(Workload(R"("kind": "Deployment", "replicas": -1, "template": {})")) ==
        "t.json:/workloads/w/replicas: must be >= 0");
  CHECK(MessageOf(Workload(
            R"("kind": "Job", "backoff_limit": -1, "template": {"job_class": "train"})")) ==
        "t.json:/workloads/w/backoff_limit: must be >= 0");
  CHECK(MessageOf(
            Workload(R"("kind": "Job", "parallelism": 0, "template": {"job_class": "train"})")) ==
        "t.json:/workloads/w/parallelism: must be >= 1");
}

TEST_CASE("pod counts past a million are rejected at the field, not run out of memory", "[io]") {
  CHECK(MessageOf(Workload(
            R"("kind": "Pod", "count": 2147483647, "template": {"job_class": "train"})")) ==
        "t.json:/workloads/w/count: must be <= 1000000");
  CHECK(MessageOf(Workload(R"("kind": "Deployment", "template": {},
                              "scale": [{"at_s": 1, "replicas": 1000001}])")) ==
        "t.json:/workloads/w/scale/0/replicas: must be <= 1000000");
  CHECK(MessageOf(Workload(
            R"("kind": "Job", "completions": 5000000, "template": {"job_class": "train"})")) ==
        "t.json:/workloads/w/completions: must be <= 1000000");
}

TEST_CASE("empty names are rejected at the empty key", "[io]") {
  CHECK(MessageOf(Doc(R"({"": {"kind": "Pod", "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/: workload names must not be empty");
  CHECK(MessageOf(Doc("{}", R"(, "": {"run_s": 1})")) ==
        "t.json:/job_classes/: job class names must not be empty");
  CHECK(MessageOf(Workflow(R"({"": {"template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/: step names must not be empty");
  CHECK(MessageOf(Template(R"("job_class": "train", "node_selector": {"": "x"})")) ==
        "t.json:/workloads/w/template/node_selector/: label names must not be empty");
}

TEST_CASE("run times derived from a speed are bounded like run_s", "[io]") {
  CHECK(MessageOf(Doc("{}", R"(, "slow": {"speed": 1e-300})")) ==
        "t.json:/job_classes/slow/speed: gives a run time past the 1000000000 s a run can span");
  CHECK(MessageOf(
            Doc("{}", R"(, "big": {"builtin": "migperf-bert-base-inference", "work": 1e300})")) ==
        "t.json:/job_classes/big/work: gives a run time past the 1000000000 s a run can span");
}

TEST_CASE("a scenario whose workloads together create more than ten million pods is refused",
          "[io]") {
  std::string workloads = "{";
  for (int i = 0; i < 11; ++i) {
    workloads += std::string(i ? ", " : "") + R"("w)" + std::to_string(i) +
                 R"(": {"kind": "Pod", "count": 1000000, "template": {"job_class": "train"}})";
  }
  CHECK(MessageOf(Doc(workloads + "}")) ==
        "t.json:/workloads/w0: the workloads create 11000000 pods before retries (this one "
        "1000000); at most 10000000 fit in one run (raise it with --limit pods=N)");
}

TEST_CASE("the variants of one file create at most ten million pods together", "[io]") {
  std::string workloads = "{";
  for (int i = 0; i < 4; ++i) {
    workloads += std::string(i ? ", " : "") + R"("w)" + std::to_string(i) +
                 R"(": {"kind": "Pod", "count": 1000000, "template": {"job_class": "train"}})";
  }
  const std::string text = Doc(workloads + "}");
  const std::string variants = R"(, "variants": {"a": {}, "b": {"seed": 2}})";
  CHECK(ParseScenarioText(text.substr(0, text.size() - 1) + variants + "}", "t.json").ok());
  CHECK(MessageOf(text.substr(0, text.size() - 1) +
                  R"(, "variants": {"a": {}, "b": {"seed": 2}, "c": {"seed": 3}})" + "}") ==
        "t.json:/variants/c: the variants up to this one create 12000000 pods before retries; "
        "at most 10000000 fit in one file (raise it with --limit pods-per-file=N)");
}

TEST_CASE("a scale event before the deployment starts is rejected", "[io]") {
  CHECK(MessageOf(Workload(R"("kind": "Deployment", "at_s": 10,
                              "scale": [{"at_s": 5, "replicas": 2}], "template": {})")) ==
        "t.json:/workloads/w/scale/0/at_s: must be >= the Deployment's at_s (10)");
  CHECK(MessageOf(Workload(R"("kind": "Deployment", "scale": [{"at_s": 5}], "template": {})")) ==
        "t.json:/workloads/w/scale/0: missing required field 'replicas'");
}

TEST_CASE("an unknown job class lists the defined ones", "[io]") {
  CHECK(MessageOf(Template(R"("job_class": "trian")")) ==
        "t.json:/workloads/w/template/job_class: unknown job class 'trian' (valid: train)");
  CHECK(MessageOf(Template("")) ==
        "t.json:/workloads/w/template: missing required field 'job_class'");
}

TEST_CASE("template resources are quantities or positive extended counts", "[io]") {
  CHECK(MessageOf(Template(R"("job_class": "train", "resources": {"cpu": "abc"})")) ==
        "t.json:/workloads/w/template/resources/cpu: invalid quantity 'abc' (examples: 500m, 2, "
        "512Mi, 1.5Gi, 1G)");
  CHECK(MessageOf(Template(R"("job_class": "train", "resources": {"memory": -1})")) ==
        "t.json:/workloads/w/template/resources/memory: must be >= 0");
  CHECK(MessageOf(Template(R"("job_class": "train", "resources": {"nvidia.com/gpu": 0})")) ==
        "t.json:/workloads/w/template/resources/nvidia.com~1gpu: must be >= 1");
  CHECK(MessageOf(Template(R"("job_class": "train", "resources": {"gpu": 1})")) ==
        "t.json:/workloads/w/template/resources/gpu: unknown resource 'gpu' (expected cpu, "
        "memory or an extended resource with a domain, such as nvidia.com/gpu)");
  CHECK(MessageOf(Template(R"("job_class": "train", "resources": {"a/b~c": 1})")) ==
        "t.json:/workloads/w/template/resources/a~1b~0c: resource 'a/b~c': after the '/' come 1 "
        "to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit");
  CHECK(MessageOf(Template(R"("job_class": "train", "resources": {"/gpu": 1})")) ==
        "t.json:/workloads/w/template/resources/~1gpu: resource '/gpu': the domain must be "
        "lowercase letters, digits, '-' and '.'");
  CHECK(MessageOf(Template(R"("job_class": "train", "node_selector": {"a~b": 1})")) ==
        "t.json:/workloads/w/template/node_selector/a~0b: expected a string, got a number");
}

TEST_CASE("template requests are parsed and sorted by resource id", "[io]") {
  const Scenario s = Load(Doc(R"({
    "first": {"kind": "Pod", "template": {"job_class": "train",
                                          "resources": {"example.com/b": 2}}},
    "second": {"kind": "Pod", "template": {"job_class": "train", "resources": {
        "memory": 1000000, "example.com/a": 1, "cpu": 0.1, "example.com/b": 3}}}})"));
  REQUIRE(s.templates.size() == 2);
  CHECK(s.resources.name(ResourceId(0)) == "example.com/b");
  CHECK(s.resources.name(ResourceId(1)) == "example.com/a");
  CHECK(s.templates[1].requests ==
        PodRequests{.cpu_milli = 100,
                    .memory_mib = 1,
                    .extended = {{ResourceId(0), 3}, {ResourceId(1), 1}}});
}

TEST_CASE("a workflow cycle is reported at the steps", "[io]") {
  CHECK(MessageOf(Workflow(R"({
    "a": {"depends": ["b"], "template": {"job_class": "train"}},
    "b": {"depends": ["a"], "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps: steps form a cycle: a -> b -> a");
  CHECK(MessageOf(Workflow(R"({"a": {"depends": ["a"], "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps: step 'a' depends on itself");
}

TEST_CASE("an unknown dependency lists the workflow's steps", "[io]") {
  CHECK(MessageOf(Workflow(R"({
    "a": {"template": {"job_class": "train"}},
    "b": {"depends": ["a", "c"], "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/b/depends/1: unknown step 'c' (valid: a, b)");
  CHECK(MessageOf(Workflow(R"({
    "a": {"template": {"job_class": "train"}},
    "b": {"depends": ["a", "a"], "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/b/depends/1: step 'a' is listed twice");
}

TEST_CASE("workflow steps check fan-out, items and retry", "[io]") {
  CHECK(MessageOf(Workflow("{}")) == "t.json:/workloads/wf/steps: must have at least one step");
  CHECK(MessageOf(Workflow(
            R"({"a": {"fan_out": 2, "items": ["x"], "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/a: give either 'fan_out' or 'items', not both");
  CHECK(MessageOf(Workflow(R"({"a": {"fan_out": 0, "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/a/fan_out: must be >= 1");
  CHECK(MessageOf(Workflow(R"({"a": {"items": [], "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/a/items: must not be empty");
  CHECK(MessageOf(Workflow(R"({"a": {"items": [true], "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/a/items/0: expected a string or a number, got a boolean");
  CHECK(MessageOf(Workflow(R"({"a": {"retry": {"limit": 1, "policy": "Never"},
                                     "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/a/retry/policy: unknown retry policy 'Never' (valid: Always, "
        "OnFailure, OnError)");
  CHECK(MessageOf(Workflow(R"({"a": {"retry": {}, "template": {"job_class": "train"}}})")) ==
        "t.json:/workloads/wf/steps/a/retry: missing required field 'limit'");
}

TEST_CASE("a deployment template may name a job class for its start-up time", "[io]") {
  const Scenario s = Load(Workload(R"("kind": "Deployment", "template": {"job_class": "train"})"));
  CHECK(s.templates[0].runs_forever);
  CHECK(s.templates[0].job_class == JobClassId(0));
}

}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("a job class's speed in work units per second becomes run times", "[io]") {
  const Scenario s = Load(Doc(R"({"w": {"kind": "Pod", "template": {"job_class": "bert"}}})",
                              R"(, "bert": {"work": 177250, "work_unit": "sequences",
                                  "duty_cycle": 0.792,
                                  "speed": {"gpu": 119.78, "1g.5gb": 32, "T4-16GB/gpu": 47.01}})"));
  const JobClass& bert = s.job_classes[1];
  CHECK(bert.work == 177250);
  CHECK(bert.work_unit == "sequences");
  CHECK(bert.duty_cycle == 0.792);
  CHECK(bert.RunTimeOn("", "1g.5gb") == SimTime::Seconds(177250 / 32.0));
  CHECK(bert.RunTimeOn("A100-SXM4-40GB", "gpu") == SimTime::Seconds(177250 / 119.78));
  CHECK(bert.RunTimeOn("T4", "gpu") == SimTime::Seconds(177250 / 47.01));  // alias normalised
}

TEST_CASE("job class performance fields are checked", "[io]") {
  auto error = [](const std::string& job_class) {
    return MessageOf(Doc(R"({"w": {"kind": "Pod", "template": {"job_class": "train"}}})",
                         R"(, "x": )" + job_class));
  };
  CHECK(error(R"({"speed": {"gpu": 0}})") == "t.json:/job_classes/x/speed/gpu: must be > 0");
  CHECK(error(R"({"duty_cycle": 0})") == "t.json:/job_classes/x/duty_cycle: must be > 0");
  CHECK(error(R"({"duty_cycle": 1.5})") == "t.json:/job_classes/x/duty_cycle: must be <= 1");
  CHECK(error(R"({"work": 0})") == "t.json:/job_classes/x/work: must be > 0");
  CHECK(error(R"({"run_s": 1, "speed": 1})") ==
        "t.json:/job_classes/x/speed: give run_s or speed, not both");
  CHECK(error(R"({"run_s": {"T4/1g.5gb": 1}})") ==
        "t.json:/job_classes/x/run_s/T4~11g.5gb: '1g.5gb' is not a device kind of T4 (gpu or "
        "one of its MIG profiles)");
  CHECK_THAT(error(R"({"run_s": {"B300/gpu": 1}})"),
             Catch::StartsWith("t.json:/job_classes/x/run_s/B300~1gpu: unknown GPU model 'B300'"));
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

TEST_CASE("a run time given twice through a GPU model alias is an error", "[io]") {
  CHECK(MessageOf(Doc(R"({"w": {"kind": "Pod", "template": {"job_class": "train"}}})",
                      R"(, "x": {"run_s": {"A100-40GB/gpu": 1, "A100-SXM4-40GB/gpu": 2}})")) ==
        "t.json:/job_classes/x/run_s/A100-SXM4-40GB~1gpu: 'A100-SXM4-40GB/gpu' is given twice "
        "(under another name)");
}

}  // namespace

TEST_CASE("a workload's namespace goes on every template it makes, and labels on the pod", "[io]") {
  const Scenario s = Load(Doc(R"({
    "a": {"kind": "Pod", "namespace": "team-a",
          "template": {"job_class": "train", "labels": {"app": "x", "tier": "batch"}}},
    "b": {"kind": "Job", "template": {"job_class": "train"}},
    "c": {"kind": "Workflow", "namespace": "team-a", "steps": {
      "one": {"template": {"job_class": "train"}},
      "two": {"template": {"job_class": "train"}, "depends": ["one"]}}}})"));
  REQUIRE(s.namespaces == std::vector<std::string>{"default", "team-a"});
  REQUIRE(s.templates.size() == 4);
  CHECK(s.templates[0].namespace_index == 1);
  CHECK(s.templates[1].namespace_index == 0);
  CHECK(s.templates[2].namespace_index == 1);
  CHECK(s.templates[3].namespace_index == 1);
  CHECK(s.templates[0].labels == Labels{{"app", "x"}, {"tier", "batch"}});
  CHECK(s.templates[1].labels.empty());
}

TEST_CASE("a namespace must be a DNS-1123 label", "[io]") {
  CHECK(MessageOf(Workload(R"("kind": "Pod", "namespace": "Team_A",
                              "template": {"job_class": "train"})")) ==
        "t.json:/workloads/w/namespace: namespace 'Team_A' must be 1 to 63 lowercase letters, "
        "digits and '-', starting and ending with a letter or digit");
  CHECK(MessageOf(Workload(R"("kind": "Pod", "namespace": 3,
                              "template": {"job_class": "train"})")) ==
        "t.json:/workloads/w/namespace: expected a string, got a number");
}

TEST_CASE("a template's nodeName names a node of the cluster", "[io]") {
  const Scenario s = Load(Template(R"("job_class": "train", "nodeName": "a-0")"));
  CHECK(s.templates[0].node_name == NodeId(0));
  CHECK(MessageOf(Template(R"("job_class": "train", "nodeName": "a-1")")) ==
        "t.json:/workloads/w/template/nodeName: no node named 'a-1' in the cluster (nodes are "
        "named <pool>-<index>, from 0)");
  CHECK(MessageOf(Workload(R"("kind": "DistributedJob", "workers": 1,
                              "template": {"job_class": "train", "nodeName": "a-0"})")) ==
        "t.json:/workloads/w/template/nodeName: a gang's workers are placed by the scheduler, "
        "all at once: no nodeName");
}

}  // namespace migsim

// `priority_classes`, a template's priorityClassName and `scheduler`.

#include <catch2/catch.hpp>
#include <string>

#include "sim/io/scenario_json.h"

namespace migsim {
namespace {

// A valid document with the given `priority_classes` (JSON), the workload's template
// fields `tmpl` spliced in, and `extra` top-level members.
std::string Doc(const std::string& classes, const std::string& tmpl = "",
                const std::string& extra = "") {
  return R"({"name": "t", "description": "d",
    "priority_classes": )" +
         classes + R"(,
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10}},
    "workloads": {"w": {"kind": "Pod", "template": {"job_class": "train")" +
         tmpl + "}}}" + extra + "}";
}

std::string MessageOf(const std::string& text) {
  Result<ScenarioFile> loaded = ParseScenarioText(text, "t.json");
  REQUIRE_FALSE(loaded.ok());
  return loaded.status().ToString();
}

const PodTemplate& OnlyTemplate(const std::string& text) {
  static Result<ScenarioFile> loaded = Status::Ok();
  loaded = ParseScenarioText(text, "t.json");
  REQUIRE(loaded.ok());
  return loaded.value().variants.front().second.templates.front();
}

const std::string kClasses =
    R"({"inference": {"value": 1000, "preemptionPolicy": "Never"},
        "batch": {"value": 10, "globalDefault": true}})";

}  // namespace

TEST_CASE("a template takes its priority class's value and preemption policy", "[io][priority]") {
  const PodTemplate& t = OnlyTemplate(Doc(kClasses, R"(, "priorityClassName": "inference")"));
  CHECK(t.priority == 1000);
  CHECK_FALSE(t.preempts);
}

TEST_CASE("a template without a class gets the globalDefault one, else priority 0",
          "[io][priority]") {
  CHECK(OnlyTemplate(Doc(kClasses)).priority == 10);
  const PodTemplate& none = OnlyTemplate(Doc("{}"));
  CHECK(none.priority == 0);
  CHECK(none.priority_class == -1);
  CHECK(none.preempts);
}

TEST_CASE("the system's priority classes exist without being declared", "[io][priority]") {
  CHECK(OnlyTemplate(Doc("{}", R"(, "priorityClassName": "system-node-critical")")).priority ==
        2'000'001'000);
}

TEST_CASE("an unknown priority class is named with the valid ones at its pointer",
          "[io][priority]") {
  CHECK(MessageOf(Doc(kClasses, R"(, "priorityClassName": "urgent")")) ==
        "t.json:/workloads/w/template/priorityClassName: unknown priority class 'urgent' "
        "(valid: system-cluster-critical, system-node-critical, inference, batch)");
}

TEST_CASE("bad priority classes are errors at their pointer", "[io][priority]") {
  CHECK(MessageOf(Doc(R"({"a": {"value": 1, "globalDefault": true},
                          "b": {"value": 2, "globalDefault": true}})")) ==
        "t.json:/priority_classes/b/globalDefault: only one priority class may be "
        "globalDefault ('a' already is)");
  CHECK(MessageOf(Doc(R"({"a": {"value": 1000000001}})")) ==
        "t.json:/priority_classes/a/value: must be <= 1000000000");
  CHECK(MessageOf(Doc(R"({"system-x": {"value": 1}})")) ==
        "t.json:/priority_classes/system-x: names starting with 'system-' are reserved for the "
        "system's classes (system-cluster-critical, system-node-critical)");
  CHECK(MessageOf(Doc(R"({"a": {"value": 1, "preemptionPolicy": "Sometimes"}})")) ==
        "t.json:/priority_classes/a/preemptionPolicy: unknown preemptionPolicy 'Sometimes' "
        "(valid: PreemptLowerPriority, Never)");
  CHECK(MessageOf(Doc(R"({"a": {}})")) ==
        "t.json:/priority_classes/a: missing required field 'value'");
}

TEST_CASE("the scheduler section sets the back-off and the queue order", "[io][priority]") {
  Result<ScenarioFile> loaded =
      ParseScenarioText(Doc("{}", "",
                            R"(, "scheduler": {"queue_order": "sjf", "pod_initial_backoff_s": 0.5,
                             "pod_max_backoff_s": 4})"),
                        "t.json");
  REQUIRE(loaded.ok());
  const Scenario& s = loaded.value().variants.front().second;
  CHECK(s.queue_order == "sjf");
  CHECK(s.scheduler.pod_initial_backoff == SimTime::Seconds(0.5));
  CHECK(s.scheduler.pod_max_backoff == SimTime::Seconds(4));
  CHECK(s.scheduler.pod_max_in_unschedulable == SimTime::Seconds(300));
}

TEST_CASE("bad scheduler settings are errors at their pointer", "[io][priority]") {
  CHECK(MessageOf(Doc("{}", "", R"(, "scheduler": {"queue_order": "lifo"})")) ==
        "t.json:/scheduler/queue_order: unknown queue order 'lifo' (valid: priority, fifo, sjf, "
        "fair-share, "
        "las, srtf, policy)");
  CHECK(MessageOf(Doc("{}", "", R"(, "scheduler": {"pod_max_backoff_s": 0.5})")) ==
        "t.json:/scheduler/pod_max_backoff_s: must be >= pod_initial_backoff_s (1)");
}

}  // namespace migsim

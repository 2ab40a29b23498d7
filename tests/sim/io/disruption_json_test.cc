// `pod_disruption_budgets`, a Job's `podFailurePolicy`, a template's
// terminationGracePeriodSeconds and a job class's checkpoint_interval_s.
#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "sim/io/scenario_json.h"
#include "tests/support/scenario_text.h"

namespace migsim {
namespace {

// A valid document with one Job `w` (members `job`) and top-level `extra` members.
std::string Doc(const std::string& job = "", const std::string& extra = "",
                const std::string& job_class = "") {
  return R"({"name": "t", "description": "d",
    "cluster": {"nodes": {"a": {"type": "p4d.24xlarge"}}},
    "job_classes": {"train": {"run_s": 10)" +
         job_class + R"(}},
    "workloads": {"w": {"kind": "Job", "namespace": "ml", "template": {"job_class": "train",
      "labels": {"app": "train"}, "terminationGracePeriodSeconds": 5})" +
         job + "}}" + extra + "}";
}

using test::LoadError;
using test::LoadFirstVariant;

}  // namespace

TEST_CASE("disruption budgets, failure policies, grace periods and checkpoints load", "[io]") {
  const Scenario s = LoadFirstVariant(Doc(
      R"(, "podFailurePolicy": {"rules": [
           {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]})",
      R"(, "pod_disruption_budgets": {
           "train": {"namespace": "ml", "selector": {"matchLabels": {"app": "train"}},
                     "maxUnavailable": "25%"},
           "other": {"selector": {"matchLabels": {}}, "minAvailable": 2}})",
      R"(, "checkpoint_interval_s": 600)"));
  REQUIRE(s.disruption_budgets.size() == 2);
  const PodDisruptionBudget& train = s.disruption_budgets[0];
  CHECK(train.name == "train");
  CHECK(s.namespaces[train.namespace_index] == "ml");
  CHECK(train.match_labels == Labels{{"app", "train"}});
  REQUIRE(train.max_unavailable);
  CHECK(train.max_unavailable->percent);
  CHECK(train.max_unavailable->value == 25);
  CHECK_FALSE(train.min_available);
  CHECK(s.disruption_budgets[1].namespace_index == 0);
  CHECK(s.disruption_budgets[1].min_available->value == 2);
  CHECK(std::get<JobSpec>(s.workloads[0]).on_disruption == DisruptionAction::kIgnore);
  CHECK(s.templates[0].termination_grace == SimTime::Seconds(5));
  CHECK(s.job_classes[0].checkpoint_interval == SimTime::Seconds(600));
}

TEST_CASE("bad disruption inputs are reported at their pointer", "[io]") {
  CHECK(LoadError(
            Doc("", R"(, "pod_disruption_budgets": {"b": {"selector": {"matchLabels": {}}}})")) ==
        "t.json:/pod_disruption_budgets/b: give exactly one of minAvailable and maxUnavailable");
  CHECK(LoadError(Doc("", R"(, "pod_disruption_budgets": {"b": {"selector": {"matchLabels": {}},
        "minAvailable": "150%"}})")) ==
        "t.json:/pod_disruption_budgets/b/minAvailable: expected an integer or a percentage from "
        "\"0%\" to \"100%\", got '150%'");
  CHECK(LoadError(Doc("", R"(, "pod_disruption_budgets": {"b": {"minAvailable": -1,
        "selector": {"matchLabels": {}}}})")) ==
        "t.json:/pod_disruption_budgets/b/minAvailable: must be >= 0");
  CHECK(LoadError(Doc("", R"(, "pod_disruption_budgets": {"b": {"maxUnavailable": 1}})")) ==
        "t.json:/pod_disruption_budgets/b: missing required field 'selector'");
  CHECK(LoadError(Doc(R"(, "podFailurePolicy": {"rules": [{"action": "Retry",
        "onPodConditions": [{"type": "DisruptionTarget"}]}]})"))
            .rfind("t.json:/workloads/w/podFailurePolicy/rules/0/action: unknown action 'Retry'",
                   0) == 0);
  CHECK(LoadError(Doc(R"(, "podFailurePolicy": {"rules": [{"action": "Ignore",
        "onPodConditions": [{"type": "ConfigIssue"}]}]})")) ==
        "t.json:/workloads/w/podFailurePolicy/rules/0/onPodConditions/0/type: only the "
        "DisruptionTarget condition (a preempted pod) is modelled, not 'ConfigIssue'");
  CHECK(LoadError(Doc("", "", R"(, "checkpoint_interval_s": 0)")) ==
        "t.json:/job_classes/train/checkpoint_interval_s: must be > 0");
}

}  // namespace migsim

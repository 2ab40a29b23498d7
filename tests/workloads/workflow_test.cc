#include "workloads/workflow.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "tests/support/recording_observer.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddTemplate;
using test::CreatedSeconds;
using test::PodNames;
using test::Sec;
using Names = std::vector<std::string>;
using Times = std::vector<double>;

// A roomy CPU node and four templates.
struct World {
  Scenario s;
  TemplateId ten, thirty, fails, no_run_time;
  World() {
    s.cluster.nodes.push_back(test::GpuNode("c", "p3.16xlarge"));
    ten = AddTemplate(s, {.cpu_milli = 1000, .job_class = AddJobClass(s, "ten", Sec(0), Sec(10))});
    thirty =
        AddTemplate(s, {.cpu_milli = 1000, .job_class = AddJobClass(s, "thirty", Sec(0), Sec(30))});
    fails = AddTemplate(
        s, {.cpu_milli = 1000, .job_class = AddJobClass(s, "fails", Sec(0), Sec(10), 1.0)});
    no_run_time = AddTemplate(
        s,
        {.cpu_milli = 1000, .job_class = AddJobClass(s, "gpu-only", Sec(0), {{"gpu", Sec(10)}})});
  }
};

struct WorkflowRun {
  std::unique_ptr<FirstFitPolicy> policy = std::make_unique<FirstFitPolicy>();  // outlives engine
  std::unique_ptr<Engine> engine;
  const Workflow* workflow = nullptr;
};

WorkflowRun Run(const Scenario& s, WorkflowSpec spec, test::RecordingObserver* observer = nullptr) {
  auto controller = std::make_unique<Workflow>(std::move(spec));
  WorkflowRun run;
  run.workflow = controller.get();
  std::vector<std::unique_ptr<Controller>> extra;
  extra.push_back(std::move(controller));
  std::vector<EngineObserver*> observers;
  if (observer != nullptr) observers.push_back(observer);
  run.engine = test::RunEngine(s, *run.policy, observers, std::move(extra));
  return run;
}

WorkflowStepSpec Step(std::string name, TemplateId tmpl, std::vector<int> depends = {},
                      std::vector<std::string> items = {}, RetryStrategy retry = {}) {
  return test::MakeStep(std::move(name), tmpl, std::move(depends), std::move(items), retry);
}

TEST_CASE("a fan-out step creates one pod per item", "[workloads][workflow]") {
  World w;
  WorkflowSpec wf = test::MakeWorkflow("wf", Sec(5));
  wf.steps = {Step("render", w.ten, {}, {"a", "b", "c"})};
  WorkflowRun run = Run(w.s, wf);
  CHECK(PodNames(*run.engine) == Names{"wf-render(a)", "wf-render(b)", "wf-render(c)"});
  CHECK(CreatedSeconds(*run.engine) == Times{5, 5, 5});
  CHECK(run.engine->OwnerName(run.engine->pods()[0]) == "Workflow/wf");
  CHECK(run.workflow->phase() == Workflow::Phase::kSucceeded);
}

TEST_CASE("a step starts step_delay after all its dependencies succeeded",
          "[workloads][workflow]") {
  World w;
  WorkflowSpec wf = test::MakeWorkflow("wf", Sec(0), 0, Sec(2));
  wf.steps = {Step("prep", w.ten), Step("render", w.ten, {0}, {"x", "y"}), Step("side", w.thirty),
              Step("merge", w.ten, {1, 2})};
  WorkflowRun run = Run(w.s, wf);
  CHECK(PodNames(*run.engine) ==
        Names{"wf-prep", "wf-side", "wf-render(x)", "wf-render(y)", "wf-merge"});
  // render: prep ends at 10, + 2. merge: side ends at 30 (after render at 22), + 2.
  CHECK(CreatedSeconds(*run.engine) == Times{0, 0, 12, 12, 32});
  CHECK(run.engine->end_time() == Sec(42));
  CHECK(run.workflow->phase() == Workflow::Phase::kSucceeded);
}

TEST_CASE("a workflow never has more than parallelism pods at once", "[workloads][workflow]") {
  World w;
  WorkflowSpec wf = test::MakeWorkflow("wf", Sec(0), 2);
  wf.steps = {Step("fan", w.ten, {}, {"1", "2", "3", "4", "5"})};
  test::RecordingObserver observer;
  WorkflowRun run = Run(w.s, wf, &observer);
  CHECK(CreatedSeconds(*run.engine) == Times{0, 0, 10, 10, 20});
  CHECK(observer.max_alive == 2);
  CHECK(run.workflow->phase() == Workflow::Phase::kSucceeded);
}

TEST_CASE("retryStrategy Always retries a failed pod up to its limit, then the workflow fails",
          "[workloads][workflow]") {
  World w;
  WorkflowSpec wf = test::MakeWorkflow("wf", Sec(0));
  wf.steps = {Step("s", w.fails, {}, {}, {2, RetryPolicy::kAlways}), Step("next", w.ten, {0})};
  WorkflowRun run = Run(w.s, wf);
  CHECK(PodNames(*run.engine) == Names{"wf-s", "wf-s-retry1", "wf-s-retry2"});
  CHECK(CreatedSeconds(*run.engine) == Times{0, 10, 20});
  for (const Pod& pod : run.engine->pods()) CHECK(pod.reason == EndReason::kError);
  CHECK(run.workflow->phase() == Workflow::Phase::kFailed);
}

TEST_CASE("a retry policy decides which failures are retried", "[workloads][workflow]") {
  World w;
  WorkflowSpec wf = test::MakeWorkflow("wf", Sec(0));
  size_t expected_pods = 0;
  Workflow::Phase expected_phase = Workflow::Phase::kFailed;
  SECTION("OnError does not retry a non-zero exit") {
    wf.steps = {Step("s", w.fails, {}, {}, {3, RetryPolicy::kOnError})};
    expected_pods = 1;
  }
  SECTION("OnError retries a system error") {
    wf.steps = {Step("s", w.no_run_time, {}, {}, {2, RetryPolicy::kOnError})};
    expected_pods = 3;
  }
  SECTION("OnFailure does not retry a system error") {
    wf.steps = {Step("s", w.no_run_time, {}, {}, {2, RetryPolicy::kOnFailure})};
    expected_pods = 1;
  }
  SECTION("OnFailure retries a non-zero exit") {
    wf.steps = {Step("s", w.fails, {}, {}, {1, RetryPolicy::kOnFailure})};
    expected_pods = 2;
  }
  SECTION("Always retries a system error") {
    wf.steps = {Step("s", w.no_run_time, {}, {}, {1, RetryPolicy::kAlways})};
    expected_pods = 2;
  }
  SECTION("a limit of 0 retries nothing") {
    wf.steps = {Step("s", w.fails, {}, {}, {0, RetryPolicy::kAlways})};
    expected_pods = 1;
  }
  WorkflowRun run = Run(w.s, wf);
  CHECK(run.engine->pods().size() == expected_pods);
  CHECK(run.workflow->phase() == expected_phase);
}

TEST_CASE("a pod that lost its MIG device is retried by Always and OnFailure, not OnError",
          "[workloads][workflow]") {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  test::AddRelabel(s, 0, Sec(5), "all-balanced", Sec(30));
  TemplateId mig = AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}},
                                   .job_class = AddJobClass(s, "r", Sec(0), Sec(100))});
  WorkflowSpec wf = test::MakeWorkflow("wf", Sec(0));
  RetryPolicy policy = RetryPolicy::kAlways;
  SECTION("Always") { policy = RetryPolicy::kAlways; }
  SECTION("OnFailure") { policy = RetryPolicy::kOnFailure; }
  SECTION("OnError") { policy = RetryPolicy::kOnError; }
  wf.steps = {Step("train", mig, {}, {}, {1, policy})};
  WorkflowRun run = Run(s, wf);
  const auto& pods = run.engine->pods();
  CHECK(pods[0].reason == EndReason::kDeviceLost);
  CHECK(pods[0].ended == Sec(5));
  if (policy == RetryPolicy::kOnError) {
    CHECK(pods.size() == 1);
    CHECK(run.workflow->phase() == Workflow::Phase::kFailed);
  } else {
    REQUIRE(pods.size() == 2);
    CHECK(run.engine->PodName(pods[1]) == "wf-train-retry1");
    CHECK(pods[1].created == Sec(5));
    CHECK(pods[1].bound == Sec(35));
    CHECK(pods[1].ended == Sec(135));
    CHECK(run.workflow->phase() == Workflow::Phase::kSucceeded);
  }
}

TEST_CASE("a step failing after its retries stops the workflow", "[workloads][workflow]") {
  World w;
  SECTION("no pod of a waiting or dependent step is created") {
    WorkflowSpec wf = test::MakeWorkflow("wf", Sec(0), 1);
    wf.steps = {Step("a", w.fails, {}, {}, {1, RetryPolicy::kOnFailure}), Step("c", w.ten),
                Step("b", w.ten, {0})};
    WorkflowRun run = Run(w.s, wf);
    CHECK(PodNames(*run.engine) == Names{"wf-a", "wf-a-retry1"});
    CHECK(run.workflow->phase() == Workflow::Phase::kFailed);
  }
  SECTION("pods already running finish") {
    WorkflowSpec wf = test::MakeWorkflow("wf", Sec(0));
    wf.steps = {Step("a", w.fails), Step("c", w.thirty), Step("b", w.ten, {0, 1})};
    WorkflowRun run = Run(w.s, wf);
    CHECK(PodNames(*run.engine) == Names{"wf-a", "wf-c"});
    CHECK(run.engine->pods()[1].phase == PodPhase::kSucceeded);
    CHECK(run.engine->pods()[1].ended == Sec(30));
    CHECK(run.workflow->phase() == Workflow::Phase::kFailed);
  }
}

}  // namespace
}  // namespace migsim

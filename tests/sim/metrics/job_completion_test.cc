#include "sim/metrics/job_completion.h"

#include <catch2/catch.hpp>
#include <vector>

#include "policies/first_fit.h"
#include "sim/study/run.h"
#include "tests/support/tiny_world.h"
#include "workloads/job_rule.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::Sec;

// A pod of `owner` that was created at `created` and, when `started` is given, ran from
// then to `ended` in `phase`; without `started` it is still pending.
Pod MakePod(uint32_t owner, uint32_t tag, double created, std::optional<double> started = {},
            double ended = 0, PodPhase phase = PodPhase::kSucceeded) {
  Pod p;
  p.owner = OwnerId(owner);
  p.tag = tag;
  p.tmpl = TemplateId(0);
  p.created = Sec(created);
  if (started) {
    p.has_started = true;
    p.started = Sec(*started);
    p.ended = Sec(ended);
    p.phase = phase;
  }
  return p;
}

const std::vector<PodTemplate> kOneTemplate(1);

// One V100 (a p3.2xlarge) and the template of a one-GPU pod that runs 100 s, in `s`.
TemplateId OneGpuHundredSeconds(Scenario& s) {
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  return AddTemplate(
      s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = AddJobClass(s, "r", Sec(0), Sec(100))});
}

TEST_CASE("a 3-pod Job completes when its last pod ends, timed from its first pod's creation",
          "[metrics][jobs]") {
  Scenario s;
  const TemplateId tmpl = OneGpuHundredSeconds(s);
  // Three pods at once on one GPU: they run one after another, 10 -> 110 -> 210 -> 310.
  s.workloads.push_back(
      JobSpec{.name = "train", .at = Sec(10), .completions = 3, .parallelism = 3, .tmpl = tmpl});
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("j", s, policy).metrics;
  CHECK(m.pods.completed == 3);
  CHECK(m.jobs.completed == 1);
  CHECK(m.jobs.failed == 0);
  CHECK(m.jobs.unfinished == 0);
  CHECK(m.jobs.completion.count == 1);
  CHECK(m.jobs.completion.mean_s == 300.0);
  // Some pod of the Job ran all along: no slowdown, though two of its pods waited.
  CHECK(m.jobs.slowdown.mean_s == 1.0);
}

TEST_CASE("a pod that waited for the GPU has a slowdown of its wait plus run over its run",
          "[metrics][jobs]") {
  Scenario s;
  const TemplateId tmpl = OneGpuHundredSeconds(s);
  AddPods(s, "first", Sec(0), tmpl);
  AddPods(s, "second", Sec(0), tmpl);  // waits 100 s, then runs 100 s
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("w", s, policy).metrics;
  CHECK(m.jobs.completed == 2);
  CHECK(m.jobs.completion.mean_s == 150.0);
  CHECK(m.jobs.completion.max_s == 200.0);
  CHECK(m.jobs.slowdown.count == 2);
  CHECK(m.jobs.slowdown.p50_s == 1.0);
  CHECK(m.jobs.slowdown.max_s == 2.0);
  CHECK(m.jobs.slowdown.mean_s == 1.5);
}

TEST_CASE("a Job past its backoffLimit is counted as failed, apart from completion times",
          "[metrics][jobs]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  const TemplateId bad =
      AddTemplate(s, {.cpu_milli = 100, .job_class = AddJobClass(s, "bad", Sec(0), Sec(10), 1.0)});
  s.workloads.push_back(
      JobSpec{.name = "doomed", .completions = 2, .backoff_limit = 1, .tmpl = bad});
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("f", s, policy).metrics;
  CHECK(m.pods.failed == 2);
  CHECK(m.jobs.failed == 1);
  CHECK(m.jobs.completed == 0);
  CHECK(m.jobs.completion.count == 0);
  CHECK(m.jobs.slowdown.count == 0);
}

TEST_CASE("what a job is, by kind of workload", "[metrics][jobs]") {
  SECTION("a Deployment is a service: no job") {
    CHECK(JobRuleOf(DeploymentSpec{}).grouping == JobGrouping::kService);
  }
  SECTION("a trace makes a job of each pod") {
    CHECK(JobRuleOf(TraceSpec{}).grouping == JobGrouping::kEachPod);
  }
  SECTION("bare pods are one job that needs every pod") {
    const JobRule r = JobRuleOf(PodGroupSpec{.count = 4});
    CHECK(r.grouping == JobGrouping::kWholeOwner);
    CHECK(r.successes == 4);
    CHECK_FALSE(r.failure_limit.has_value());
  }
  SECTION("a Job needs its completions and fails past its backoffLimit") {
    const JobRule r = JobRuleOf(JobSpec{.completions = 5, .backoff_limit = 2});
    CHECK(r.successes == 5);
    CHECK(r.failure_limit == 2);
  }
  SECTION("a Workflow needs every work item: a step, or each of its items") {
    WorkflowSpec w = test::MakeWorkflow("wf", Sec(0));
    w.steps.push_back(test::MakeStep("a", TemplateId(0)));
    w.steps.push_back(test::MakeStep("b", TemplateId(0), {0}, {"x", "y", "z"}));
    CHECK(JobRuleOf(w).successes == 4);
  }
}

TEST_CASE("a job's service time counts overlapping runs once and gaps not at all",
          "[metrics][jobs]") {
  // One owner, three pods: 0-100 and 50-150 overlap, 200-300 after a gap.
  const std::vector<Pod> pods = {MakePod(0, 0, 0, 0, 100), MakePod(0, 1, 0, 50, 150),
                                 MakePod(0, 2, 0, 200, 300)};
  const std::vector<JobRule> rules = {{JobGrouping::kWholeOwner, 3}};
  const std::vector<JobRecord> jobs = CollectJobs(pods, kOneTemplate, rules);
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].outcome == JobOutcome::kCompleted);
  CHECK(jobs[0].service == Sec(250));
  CHECK(jobs[0].finished - jobs[0].submitted == Sec(300));
  CHECK(SummarizeJobs(jobs).slowdown.mean_s == Approx(1.2));
}

TEST_CASE("a job whose failed pod was retried completes once every work item succeeded",
          "[metrics][jobs]") {
  // A work item (tag 0) failed, then its retry succeeded; tag 1 succeeded at once.
  const std::vector<Pod> pods = {MakePod(0, 0, 0, 0, 10, PodPhase::kFailed),
                                 MakePod(0, 1, 0, 0, 10), MakePod(0, 0, 10, 10, 30)};
  SECTION("two items: completed") {
    const std::vector<JobRule> rules = {{JobGrouping::kWholeOwner, 2}};
    CHECK(CollectJobs(pods, kOneTemplate, rules)[0].outcome == JobOutcome::kCompleted);
  }
  SECTION("three items, nothing left running: failed") {
    const std::vector<JobRule> rules = {{JobGrouping::kWholeOwner, 3}};
    CHECK(CollectJobs(pods, kOneTemplate, rules)[0].outcome == JobOutcome::kFailed);
  }
  SECTION("three items and a failure limit not reached: unfinished") {
    const std::vector<JobRule> rules = {{JobGrouping::kWholeOwner, 3, 1}};
    CHECK(CollectJobs(pods, kOneTemplate, rules)[0].outcome == JobOutcome::kUnfinished);
  }
}

TEST_CASE("a Job's preempted pods count, are ignored or fail it, as its podFailurePolicy says",
          "[metrics][jobs]") {
  Pod preempted = MakePod(0, 0, 0, 0, 10, PodPhase::kFailed);
  preempted.reason = EndReason::kPreempted;
  // Preempted, its replacement succeeded; a second completion still to come (back-off).
  const std::vector<Pod> pods = {preempted, MakePod(0, 1, 10, 10, 20)};
  auto outcome = [&](bool counts, bool fails) {
    const std::vector<JobRule> rules = {{JobGrouping::kWholeOwner, 2, 0, counts, fails}};
    return CollectJobs(pods, kOneTemplate, rules)[0].outcome;
  };
  CHECK(outcome(true, false) == JobOutcome::kFailed);       // 1 failure > backoffLimit 0
  CHECK(outcome(false, false) == JobOutcome::kUnfinished);  // ignored: the Job goes on
  CHECK(outcome(false, true) == JobOutcome::kFailed);       // FailJob
  CHECK(JobRuleOf(JobSpec{.on_disruption = DisruptionAction::kIgnore}).preemptions_count == false);
  CHECK(JobRuleOf(JobSpec{.on_disruption = DisruptionAction::kFailJob}).preemption_fails);
  CHECK(JobRuleOf(JobSpec{}).preemptions_count);
}

TEST_CASE("a Job preempted by a higher priority completes or fails as its policy says",
          "[metrics][jobs]") {
  Scenario s;
  const TemplateId low = OneGpuHundredSeconds(s);
  const TemplateId high = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}},
                                          .job_class = s.templates[low.value()].job_class,
                                          .priority = 1000});
  JobSpec job{.name = "batch", .backoff_limit = 0, .tmpl = low};
  AddPods(s, "urgent", Sec(50), high);  // evicts the Job's pod
  FirstFitPolicy policy;
  SECTION("ignored disruptions: the replacement runs after the urgent pod") {
    job.on_disruption = DisruptionAction::kIgnore;
    s.workloads.push_back(job);
    const RunMetrics m = RunVariant("ignore", s, policy).metrics;
    REQUIRE(m.preemptions == 1);
    CHECK(m.jobs.completed == 2);
    CHECK(m.jobs.failed == 0);
    // The Job waited for the urgent pod: its JCT exceeds its service time.
    CHECK(m.jobs.slowdown.max_s > 1.0);
  }
  SECTION("counted disruptions: one preemption is past a backoffLimit of 0") {
    s.workloads.push_back(job);
    const RunMetrics m = RunVariant("count", s, policy).metrics;
    REQUIRE(m.preemptions == 1);
    CHECK(m.jobs.completed == 1);  // the urgent pod
    CHECK(m.jobs.failed == 1);
  }
}

TEST_CASE("a job with a pod still pending or running is unfinished", "[metrics][jobs]") {
  const std::vector<Pod> pods = {MakePod(0, 0, 0, 0, 10), MakePod(0, 1, 0)};
  const std::vector<JobRule> rules = {{JobGrouping::kWholeOwner, 1}};
  const std::vector<JobRecord> jobs = CollectJobs(pods, kOneTemplate, rules);
  CHECK(jobs[0].outcome == JobOutcome::kUnfinished);
  const JobStats s = SummarizeJobs(jobs);
  CHECK(s.unfinished == 1);
  CHECK(s.completed == 0);
}

TEST_CASE("jobs come in the order of their first pods, services left out", "[metrics][jobs]") {
  const std::vector<Pod> pods = {MakePod(1, 0, 0, 0, 10), MakePod(0, 0, 1, 1, 5),
                                 MakePod(2, 0, 2, 2, 9), MakePod(1, 1, 3, 3, 20),
                                 MakePod(2, 1, 4, 4, 6, PodPhase::kFailed)};
  const std::vector<JobRule> rules = {
      {JobGrouping::kService, 0}, {JobGrouping::kWholeOwner, 2}, {JobGrouping::kEachPod, 1}};
  const std::vector<JobRecord> jobs = CollectJobs(pods, kOneTemplate, rules);
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].pods == 2);  // owner 1
  CHECK(jobs[0].finished == Sec(20));
  CHECK(jobs[1].pods == 1);  // owner 2's first pod
  CHECK(jobs[1].outcome == JobOutcome::kCompleted);
  CHECK(jobs[2].outcome == JobOutcome::kFailed);
}

TEST_CASE("job statistics split by namespace, one entry per namespace", "[metrics][jobs]") {
  std::vector<JobRecord> jobs(3);
  jobs[0] = {.namespace_index = 2,
             .outcome = JobOutcome::kCompleted,
             .finished = Sec(30),
             .service = Sec(10)};
  jobs[1] = {.namespace_index = 0, .outcome = JobOutcome::kFailed};
  jobs[2] = {.namespace_index = 2,
             .outcome = JobOutcome::kCompleted,
             .finished = Sec(10),
             .service = Sec(10)};
  const std::vector<JobStats> by_ns = SummarizeJobsByNamespace(jobs, 3);
  REQUIRE(by_ns.size() == 3);
  CHECK(by_ns[0].failed == 1);
  CHECK(by_ns[0].completion.count == 0);
  CHECK(by_ns[1].completed + by_ns[1].failed + by_ns[1].unfinished == 0);
  CHECK(by_ns[2].completed == 2);
  CHECK(by_ns[2].completion.mean_s == 20.0);
  CHECK(by_ns[2].slowdown.max_s == 3.0);
  const JobStats all = SummarizeJobs(jobs);
  CHECK(all.completed == 2);
  CHECK(all.failed == 1);
}

TEST_CASE("no completed job: empty statistics, not zeros that look measured", "[metrics][jobs]") {
  const JobStats none = SummarizeJobs({});
  CHECK(none.completed + none.failed + none.unfinished == 0);
  CHECK(none.completion.count == 0);
  CHECK(none.slowdown.count == 0);
  // A job whose pods never ran for a positive time has a completion time, no slowdown.
  const std::vector<Pod> instant = {MakePod(0, 0, 5, 5, 5)};
  const std::vector<JobRule> rules = {{JobGrouping::kEachPod, 1}};
  const JobStats s = SummarizeJobs(CollectJobs(instant, kOneTemplate, rules));
  CHECK(s.completion.count == 1);
  CHECK(s.completion.mean_s == 0);
  CHECK(s.slowdown.count == 0);
}

}  // namespace
}  // namespace migsim

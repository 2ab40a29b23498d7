#include "workloads/job.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/backoff.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddTemplate;
using test::CreatedSeconds;
using test::PodNames;
using test::RunEngine;
using test::Sec;
using Names = std::vector<std::string>;
using Times = std::vector<double>;

// One roomy CPU node and a job template that runs 10 s (failing with `failure_probability`).
Scenario JobWorld(double failure_probability) {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("c", "p3.16xlarge"));
  AddTemplate(s, {.cpu_milli = 1000,
                  .job_class = AddJobClass(s, "r", Sec(0), Sec(10), failure_probability)});
  return s;
}

TEST_CASE("Kubernetes back-off doubles from 10 s up to its cap", "[workloads][job]") {
  const SimTime cap = Sec(360);
  CHECK(ExponentialBackoff(1, cap) == Sec(10));
  CHECK(ExponentialBackoff(2, cap) == Sec(20));
  CHECK(ExponentialBackoff(3, cap) == Sec(40));
  CHECK(ExponentialBackoff(6, cap) == Sec(320));
  CHECK(ExponentialBackoff(7, cap) == Sec(360));
  CHECK(ExponentialBackoff(60, cap) == Sec(360));
}

TEST_CASE("a Job runs pods until its completions succeeded, parallelism at a time",
          "[workloads][job]") {
  Scenario s = JobWorld(0);
  SECTION("5 completions, 2 in parallel") {
    s.workloads.push_back(JobSpec{
        .name = "train", .at = Sec(1), .completions = 5, .parallelism = 2, .tmpl = TemplateId(0)});
    FirstFitPolicy policy;
    auto engine = RunEngine(s, policy);
    CHECK(PodNames(*engine) == Names{"train-0", "train-1", "train-2", "train-3", "train-4"});
    CHECK(CreatedSeconds(*engine) == Times{1, 1, 11, 11, 21});
    for (const Pod& pod : engine->pods()) CHECK(pod.phase == PodPhase::kSucceeded);
    CHECK(engine->end_time() == Sec(31));
    CHECK(engine->OwnerName(engine->pods()[0]) == "Job/train");
  }
  SECTION("parallelism above completions") {
    s.workloads.push_back(JobSpec{
        .name = "train", .at = Sec(0), .completions = 2, .parallelism = 5, .tmpl = TemplateId(0)});
    FirstFitPolicy policy;
    auto engine = RunEngine(s, policy);
    CHECK(CreatedSeconds(*engine) == Times{0, 0});
  }
}

TEST_CASE("a Job whose pods always fail stops after backoffLimit + 1 failures",
          "[workloads][job]") {
  Scenario s = JobWorld(1.0);
  FirstFitPolicy policy;
  SECTION("backoffLimit 2: retries after 10 s and 20 s") {
    s.workloads.push_back(JobSpec{.name = "j",
                                  .at = Sec(0),
                                  .completions = 3,
                                  .parallelism = 1,
                                  .backoff_limit = 2,
                                  .tmpl = TemplateId(0)});
    auto engine = RunEngine(s, policy);
    // Failures at 10 s, 30 s and 60 s; new pods 10 s and 20 s after the first two.
    CHECK(CreatedSeconds(*engine) == Times{0, 20, 50});
    for (const Pod& pod : engine->pods()) {
      CHECK(pod.phase == PodPhase::kFailed);
      CHECK(pod.reason == EndReason::kError);
    }
    CHECK(engine->end_time() == Sec(60));
  }
  SECTION("backoffLimit 0: one pod") {
    s.workloads.push_back(JobSpec{.name = "j",
                                  .at = Sec(0),
                                  .completions = 3,
                                  .parallelism = 1,
                                  .backoff_limit = 0,
                                  .tmpl = TemplateId(0)});
    auto engine = RunEngine(s, policy);
    CHECK(CreatedSeconds(*engine) == Times{0});
  }
}

TEST_CASE("each failed pod of a Job is replaced after its own back-off", "[workloads][job]") {
  Scenario s = JobWorld(1.0);
  s.horizon = Sec(30);
  s.workloads.push_back(JobSpec{.name = "j",
                                .at = Sec(0),
                                .completions = 2,
                                .parallelism = 2,
                                .backoff_limit = 6,
                                .tmpl = TemplateId(0)});
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  // Both pods fail at 10 s, failures 1 and 2: their replacements come 10 s and 20 s later
  // (the first back-off ending does not let both through).
  CHECK(CreatedSeconds(*engine) == Times{0, 0, 20, 30});
}

TEST_CASE("a failed Job deletes its active pods", "[workloads][job]") {
  Scenario s = JobWorld(1.0);
  s.workloads.push_back(JobSpec{.name = "j",
                                .at = Sec(0),
                                .completions = 4,
                                .parallelism = 2,
                                .backoff_limit = 0,
                                .tmpl = TemplateId(0)});
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  const auto& pods = engine->pods();
  REQUIRE(pods.size() == 2);
  CHECK(pods[0].phase == PodPhase::kFailed);
  CHECK(pods[1].phase == PodPhase::kDeleted);
  CHECK(pods[1].ended == Sec(10));
  CHECK(engine->nodes()[0].cpu_milli_requested == 0);
}

}  // namespace
}  // namespace migsim

namespace migsim {
namespace {

// A ControllerContext that records what a controller asks for, so a controller can be
// driven pod end by pod end without an engine.
class RecordingContext final : public ControllerContext {
 public:
  SimTime now() const override { return now_; }
  Rng& rng() override { return rng_; }
  PodId Submit(TemplateId tmpl, OwnerId owner, uint32_t tag) override {
    Pod& pod = pods_.emplace_back();
    pod.id = PodId(static_cast<PodId::Rep>(pods_.size() - 1));
    pod.tmpl = tmpl;
    pod.owner = owner;
    pod.tag = tag;
    pod.created = now_;
    return pod.id;
  }
  PodId SubmitRecorded(TemplateId tmpl, OwnerId owner, uint32_t tag, SimTime run) override {
    const PodId id = Submit(tmpl, owner, tag);
    pods_[id.value()].recorded_run = run;
    return id;
  }
  PodId SubmitResumed(TemplateId tmpl, OwnerId owner, uint32_t tag, Handover from) override {
    const PodId id = Submit(tmpl, owner, tag);
    pods_[id.value()].resumed = from.work;
    pods_[id.value()].attained_gpu_s = from.attained_gpu_s;
    return id;
  }
  void Delete(PodId id) override { deleted.push_back(id); }
  void DeleteGracefully(PodId id) override { deleted.push_back(id); }
  void SetTimer(SimTime at, OwnerId, uint64_t tag) override { timers.push_back({at, tag}); }
  const Pod& pod(PodId id) const override { return pods_[id.value()]; }
  WorkloadId RequestAdmission(OwnerId, int32_t, std::span<const PodSet>) override {
    return WorkloadId(0);
  }
  void FinishWorkload(WorkloadId) override {}
  GangId DeclareGang(const GangSpec&, OwnerId) override { return GangId(gangs_++); }
  PodId SubmitToGang(TemplateId tmpl, OwnerId owner, uint32_t tag, GangId gang, Handover) override {
    const PodId id = Submit(tmpl, owner, tag);
    pods_[id.value()].gang = gang;
    return id;
  }

  Pod Ended(PodId id, PodPhase phase) {
    Pod p = pods_[id.value()];
    p.phase = phase;
    p.reason = phase == PodPhase::kSucceeded ? EndReason::kCompleted : EndReason::kError;
    return p;
  }
  void set_now(double s) { now_ = SimTime::Seconds(s); }
  size_t submitted() const { return pods_.size(); }

  std::vector<std::pair<SimTime, uint64_t>> timers;
  std::vector<PodId> deleted;

 private:
  SimTime now_;
  Rng rng_{1};
  std::vector<Pod> pods_;
  GangId::Rep gangs_ = 0;
};

TEST_CASE("a Job's back-off starts again at 10 s after a pod succeeds", "[workloads][job]") {
  Job job(JobSpec{.name = "j", .completions = 5, .parallelism = 1, .backoff_limit = 10});
  RecordingContext ctx;
  job.Start(ctx, OwnerId(0));
  job.OnTimer(ctx, 0);  // starts: one pod
  REQUIRE(ctx.submitted() == 1);
  auto fail_last = [&](double at) {
    ctx.set_now(at);
    job.OnPodEnded(
        ctx, ctx.Ended(PodId(static_cast<PodId::Rep>(ctx.submitted() - 1)), PodPhase::kFailed));
    return (ctx.timers.back().first - ctx.now()).seconds();
  };
  CHECK(fail_last(10) == 10);
  job.OnTimer(ctx, 1);  // back-off over: the replacement
  CHECK(fail_last(30) == 20);
  job.OnTimer(ctx, 1);
  ctx.set_now(50);
  job.OnPodEnded(
      ctx, ctx.Ended(PodId(static_cast<PodId::Rep>(ctx.submitted() - 1)), PodPhase::kSucceeded));
  CHECK(fail_last(60) == 10);
  CHECK(job.succeeded() == 1);
  CHECK_FALSE(job.failed());
}

}  // namespace
}  // namespace migsim

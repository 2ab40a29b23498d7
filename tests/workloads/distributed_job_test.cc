// DistributedJob: a gang of workers, restarted whole, in tiny worlds run by the engine.

#include "workloads/distributed_job.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "sim/study/run.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

// Two p4d.24xlarge (8 GPUs each) and a job `train` of 2 workers x 8 GPUs, whose job class
// runs 100 s and fails with probability `failure`.
Scenario TwoNodeTraining(double failure, int backoff_limit) {
  Scenario s;
  s.cluster.nodes.push_back(test::P4d("n0", "all-disabled"));
  s.cluster.nodes.push_back(test::P4d("n1", "all-disabled"));
  const JobClassId jc = test::AddJobClass(s, "train", test::Sec(0), test::Sec(100), failure);
  const TemplateId t = test::AddTemplate(s, {.extended = {{"nvidia.com/gpu", 8}}, .job_class = jc});
  s.templates[t.value()].gang = true;
  s.workloads.emplace_back(DistributedJobSpec{.name = "train",
                                              .at = test::Sec(0),
                                              .workers = 2,
                                              .tmpl = t,
                                              .backoff_limit = backoff_limit});
  return s;
}

// "name state reason bound_s" per pod of a run of `s` under first-fit, in creation order,
// then "end <s>".
std::vector<std::string> RunPods(const Scenario& s) {
  FirstFitPolicy policy;
  auto run = test::RunEngine(s, policy);
  const Engine& engine = *run;
  std::vector<std::string> out;
  for (const Pod& pod : engine.pods()) {
    out.push_back(engine.PodName(pod) + " " + std::string(PhaseName(pod.phase)) + " " +
                  std::string(EndReasonName(pod.reason)) + " " +
                  (pod.node.valid() ? std::to_string(pod.bound.micros() / 1000000) : "-"));
  }
  out.push_back("end " + std::to_string(engine.end_time().micros() / 1000000));
  return out;
}

TEST_CASE("a DistributedJob succeeds when all its workers, run as one gang, succeed",
          "[workloads][gang]") {
  const Scenario s = TwoNodeTraining(0, 6);
  CHECK(RunPods(s) == std::vector<std::string>{"train-worker-0 completed Completed 0",
                                               "train-worker-1 completed Completed 0", "end 100"});
}

TEST_CASE("a failed worker restarts every worker, past backoff_limit the job fails",
          "[workloads][gang]") {
  // Every run fails: the first failure deletes the other worker and creates both anew,
  // twice (backoff_limit 2); the third failure fails the job.
  const Scenario s = TwoNodeTraining(1, 2);
  CHECK(RunPods(s) == std::vector<std::string>{
                          "train-worker-0 failed Error 0",
                          "train-worker-1 deleted Deleted 0",
                          "train-worker-0-restart-1 failed Error 100",
                          "train-worker-1-restart-1 deleted Deleted 100",
                          "train-worker-0-restart-2 failed Error 200",
                          "train-worker-1-restart-2 deleted Deleted 200",
                          "end 300",
                      });
}

TEST_CASE("a worker that loses its GPU restarts the job, which waits whole for room again",
          "[workloads][gang]") {
  // n1 is relabelled to MIG at 10 s (worker 1 loses its GPU) and back at 100 s: the
  // restarted workers wait, unbound, until both nodes have whole GPUs again (130 s).
  Scenario s = TwoNodeTraining(0, 6);
  test::AddRelabel(s, 1, test::Sec(10), "all-balanced", test::Sec(30));
  test::AddRelabel(s, 1, test::Sec(100), "all-disabled", test::Sec(30));
  CHECK(RunPods(s) == std::vector<std::string>{
                          "train-worker-0 deleted Deleted 0",
                          "train-worker-1 failed DeviceLost 0",
                          "train-worker-0-restart-1 completed Completed 130",
                          "train-worker-1-restart-1 completed Completed 130",
                          "end 230",
                      });
}

TEST_CASE("runs with DistributedJobs are deterministic for a seed", "[workloads][gang]") {
  Scenario s = TwoNodeTraining(0.4, 20);
  s.workloads.emplace_back(
      DistributedJobSpec{.name = "second",
                         .at = test::Sec(50),
                         .workers = 2,
                         .tmpl = std::get<DistributedJobSpec>(s.workloads[0]).tmpl,
                         .backoff_limit = 20});
  s.seed = 7;
  auto run = [&] {
    FirstFitPolicy policy;
    const VariantResult r = RunVariant("base", s, policy, RunOptions{.collect_pods = true});
    std::vector<std::string> rows;
    for (const PodRecord& p : r.pods) {
      rows.push_back(p.name + " " + p.state + " " + p.node + " " +
                     std::to_string(p.bound ? p.bound->micros() : -1) + " " +
                     std::to_string(p.ended ? p.ended->micros() : -1));
    }
    return rows;
  };
  const std::vector<std::string> first = run();
  CHECK(first.size() > 4);  // the seed makes some workers fail
  CHECK(run() == first);
}

}  // namespace
}  // namespace migsim

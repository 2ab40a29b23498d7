// Queue disciplines whose order follows the cluster's state: fair share (DRF) across
// namespaces.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/engine/engine.h"
#include "tests/support/tiny_world.h"

// In migsim::test, beside the tiny-world helpers.
namespace migsim::test {
namespace {

// A one-GPU pod of `job` in namespace `ns` (added to s.namespaces when new).
TemplateId TenantTemplate(Scenario& s, JobClassId job, const std::string& ns) {
  const TemplateId t = AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = job});
  auto it = std::find(s.namespaces.begin(), s.namespaces.end(), ns);
  if (it == s.namespaces.end()) it = s.namespaces.insert(s.namespaces.end(), ns);
  s.templates[t.value()].namespace_index = static_cast<int32_t>(it - s.namespaces.begin());
  return t;
}

// One p3.8xlarge (4 V100s); tenant "a" submits `per_tenant` one-GPU pods of `run_s`, then
// tenant "b" as many, all at 0 s: a's pods are the older ones.
Scenario TwoTenants(const std::string& order, int per_tenant, double run_s = 100) {
  Scenario s;
  s.queue_order = order;
  s.cluster.nodes.push_back(P3_8x("p3"));
  const JobClassId run = AddJobClass(s, "run", Sec(0), Sec(run_s));
  AddPods(s, "a", Sec(0), TenantTemplate(s, run, "a"), per_tenant);
  AddPods(s, "b", Sec(0), TenantTemplate(s, run, "b"), per_tenant);
  return s;
}

// How many of each namespace's pods were bound at `at` seconds (bound at or before, ended after).
std::vector<int> RunningAt(const Engine& e, double at) {
  std::vector<int> running(3, 0);
  for (const Pod& pod : e.pods()) {
    if (pod.phase == PodPhase::kPending || pod.bound.seconds() > at) continue;
    if (pod.ended.seconds() <= at) continue;
    ++running[static_cast<size_t>(e.pod_template(pod.tmpl).namespace_index)];
  }
  return running;
}

std::vector<double> BoundTimes(const Engine& e) {
  std::vector<double> t;
  for (const Pod& pod : e.pods()) t.push_back(pod.bound.seconds());
  return t;
}

TEST_CASE("fair share splits the GPUs evenly between two tenants where fifo serves the older",
          "[engine][queue_discipline]") {
  FirstFitPolicy policy;
  SECTION("fifo: tenant a's four older pods take the four GPUs") {
    auto engine = RunEngine(TwoTenants("fifo", 8), policy);
    CHECK(RunningAt(*engine, 0) == std::vector<int>{0, 4, 0});
  }
  SECTION("fair-share: two GPUs each, at every wave") {
    auto engine = RunEngine(TwoTenants("fair-share", 8), policy);
    CHECK(RunningAt(*engine, 0) == std::vector<int>{0, 2, 2});
    CHECK(RunningAt(*engine, 100) == std::vector<int>{0, 2, 2});
    CHECK(RunningAt(*engine, 300) == std::vector<int>{0, 2, 2});
    CHECK(engine->end_time() == Sec(400));
  }
}

TEST_CASE("fair share weights divide the shares: weight 3 against 1 gets three GPUs of four",
          "[engine][queue_discipline]") {
  Scenario s = TwoTenants("fair-share", 8);
  s.queue_params.fair_share_weights = {{1, 3.0}};
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(RunningAt(*engine, 0) == std::vector<int>{0, 3, 1});
}

TEST_CASE("fair share lets a tenant arriving later catch up as GPUs free",
          "[engine][queue_discipline]") {
  // a holds all four GPUs (pods of 100 s, 50 s, ...) when b arrives at 10 s: every GPU
  // that frees goes to b until b holds two.
  Scenario s;
  s.queue_order = "fair-share";
  s.cluster.nodes.push_back(P3_8x("p3"));
  for (int i = 0; i < 4; ++i) {
    const JobClassId run = AddJobClass(s, "a" + std::to_string(i), Sec(0), Sec(20 * (i + 1)));
    AddPods(s, "a" + std::to_string(i), Sec(0), TenantTemplate(s, run, "a"));
  }
  const JobClassId more = AddJobClass(s, "more", Sec(0), Sec(1000));
  AddPods(s, "a-more", Sec(0), TenantTemplate(s, more, "a"), 4);
  AddPods(s, "b", Sec(10), TenantTemplate(s, more, "b"), 4);
  FirstFitPolicy policy;
  auto engine = RunEngine(s, policy);
  CHECK(RunningAt(*engine, 20) == std::vector<int>{0, 3, 1});
  CHECK(RunningAt(*engine, 40) == std::vector<int>{0, 2, 2});
  CHECK(RunningAt(*engine, 60) == std::vector<int>{0, 2, 2});  // a, now below b, gets it
}

TEST_CASE("a fair-share run is the same twice and accounts for every pod",
          "[engine][queue_discipline]") {
  FirstFitPolicy policy;
  auto first = RunEngine(TwoTenants("fair-share", 7, 30), policy);
  auto second = RunEngine(TwoTenants("fair-share", 7, 30), policy);
  CHECK(BoundTimes(*first) == BoundTimes(*second));
  for (const Pod& pod : first->pods()) CHECK(pod.phase == PodPhase::kSucceeded);
}

}  // namespace
}  // namespace migsim::test

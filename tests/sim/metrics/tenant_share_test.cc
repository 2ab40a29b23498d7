#include "sim/metrics/tenant_share.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "policies/first_fit.h"
#include "sim/study/run.h"
#include "tests/support/tiny_world.h"

namespace migsim {
namespace {

using test::AddJobClass;
using test::AddPods;
using test::AddTemplate;
using test::Sec;

TEST_CASE("Jain's index is 1 for equal shares and 1/n when one tenant takes all",
          "[metrics][tenants]") {
  const std::vector<double> equal = {2.5, 2.5, 2.5, 2.5};
  CHECK(JainIndex(equal) == Approx(1.0));
  const std::vector<double> one_takes_all = {0, 7, 0, 0};
  CHECK(JainIndex(one_takes_all) == Approx(0.25));
  const std::vector<double> one_tenant = {3};
  CHECK(JainIndex(one_tenant) == Approx(1.0));
  const std::vector<double> two_to_one = {2, 1};
  CHECK(JainIndex(two_to_one) == Approx(0.9));  // 9 / (2 * 5)
  CHECK_FALSE(JainIndex(std::vector<double>{}).has_value());
  CHECK_FALSE(JainIndex(std::vector<double>{0, 0}).has_value());
}

// Two namespaces on a p4d with 1g.5gb slices, first-fit: team-a has 7 slices (one GPU's
// worth) for 100 s, team-b one slice for 100 s then, after it, one more for 50 s.
Scenario TwoTenants() {
  Scenario s;
  s.namespaces = {"default", "team-a", "team-b"};
  s.cluster.nodes.push_back(test::P4d("p4d", "all-1g.5gb"));
  auto slice = [&](const std::string& name, double run_s, int32_t ns) {
    TemplateId t = AddTemplate(s, {.extended = {{"nvidia.com/mig-1g.5gb", 1}},
                                   .job_class = AddJobClass(s, name, Sec(0), Sec(run_s))});
    s.templates[t.value()].namespace_index = ns;
    return t;
  };
  AddPods(s, "a", Sec(0), slice("a", 100, 1), 7);
  s.workloads.push_back(JobSpec{.name = "b", .completions = 2, .tmpl = slice("b1", 100, 2)});
  AddPods(s, "b-late", Sec(100), slice("b2", 50, 2));
  return s;
}

TEST_CASE("each namespace gets its pods' GPU time and share, MIG slices by compute slices",
          "[metrics][tenants]") {
  Scenario s = TwoTenants();
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("t", s, policy).metrics;
  REQUIRE(m.tenants.size() == 2);  // "default" has no pods
  const TenantUsage& a = m.tenants[0];
  const TenantUsage& b = m.tenants[1];
  CHECK(a.name == "team-a");
  CHECK(a.pods == 7);
  CHECK(a.gpu_hours == Approx(7.0 / 7 * 100 / 3600));
  CHECK(b.name == "team-b");
  CHECK(b.pods == 3);
  // The Job's two pods one after another (200 s), the late pod 50 s: 250 slice-seconds.
  CHECK(b.gpu_hours == Approx(250.0 / 7 / 3600));
  CHECK(m.gpu_hours == Approx(a.gpu_hours + b.gpu_hours));
  CHECK(a.gpu_share == Approx(700.0 / 950));
  CHECK(b.gpu_share == Approx(250.0 / 950));
  CHECK(*m.jain_index == Approx(950.0 * 950 / (2 * (700.0 * 700 + 250.0 * 250))));
  // team-a: one job of 7 pods; team-b: the Job (200 s) and the late pod (50 s).
  CHECK(a.jobs.completed == 1);
  CHECK(a.jobs.completion.mean_s == 100.0);
  CHECK(b.jobs.completed == 2);
  CHECK(b.jobs.completion.max_s == 200.0);
  CHECK(b.jobs.completion.mean_s == 125.0);
}

TEST_CASE("one tenant has the whole share and a fairness index of 1", "[metrics][tenants]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.8xlarge"));
  AddPods(s, "p", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 2}},
                          .job_class = AddJobClass(s, "r", Sec(0), Sec(1800))}));
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("one", s, policy).metrics;
  REQUIRE(m.tenants.size() == 1);
  CHECK(m.tenants[0].name == "default");
  CHECK(m.tenants[0].gpu_hours == Approx(1.0));
  CHECK(m.tenants[0].gpu_share == 1.0);
  CHECK(m.jain_index == 1.0);
}

TEST_CASE("a pod still bound at the end counts up to the end, a pending one not at all",
          "[metrics][tenants]") {
  Scenario s;
  s.cluster.nodes.push_back(test::GpuNode("p3", "p3.2xlarge"));
  s.horizon = Sec(3600);
  const TemplateId forever =
      AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .runs_forever = true});
  AddPods(s, "holds", Sec(1800), forever);
  AddPods(s, "waits", Sec(1800), forever);
  s.templates.push_back(s.templates[forever.value()]);
  s.templates.back().namespace_index = 1;
  s.namespaces.push_back("starved");
  AddPods(s, "starved", Sec(0), TemplateId(static_cast<TemplateId::Rep>(s.templates.size() - 1)));
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("end", s, policy).metrics;
  REQUIRE(m.tenants.size() == 2);
  // The starved tenant's pod came first and holds the GPU to the horizon.
  CHECK(m.tenants[1].name == "starved");
  CHECK(m.tenants[1].gpu_hours == Approx(1.0));
  CHECK(m.tenants[0].gpu_hours == 0);
  CHECK(m.tenants[0].jobs.unfinished == 2);
  CHECK(*m.jain_index == Approx(0.5));
}

TEST_CASE("a time-sliced replica counts its share of the GPU", "[metrics][tenants]") {
  Scenario s;
  s.cluster.nodes.push_back(test::TimeSliced(test::GpuNode("p3", "p3.2xlarge"), 4));
  JobClassId quarter = AddJobClass(s, "t", Sec(0), Sec(3600));
  s.job_classes[quarter.value()].duty_cycle = 0.25;
  AddPods(s, "ts", Sec(0),
          AddTemplate(s, {.extended = {{"nvidia.com/gpu", 1}}, .job_class = quarter}), 2);
  FirstFitPolicy policy;
  const RunMetrics m = RunVariant("ts", s, policy).metrics;
  CHECK(m.gpu_hours == Approx(0.5));
}

}  // namespace
}  // namespace migsim

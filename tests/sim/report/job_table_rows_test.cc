#include "sim/report/job_table_rows.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

namespace migsim {
namespace {

using Rows = std::vector<std::pair<std::string, std::vector<std::string>>>;

const std::vector<std::string>* Find(const Rows& rows, const std::string& label) {
  for (const auto& [l, cells] : rows) {
    if (l == label) return &cells;
  }
  return nullptr;
}

TenantUsage Tenant(std::string name, double gpu_hours, double gpu_share = 0) {
  TenantUsage t;
  t.name = std::move(name);
  t.gpu_hours = gpu_hours;
  t.gpu_share = gpu_share;
  return t;
}

VariantResult Variant(std::vector<TenantUsage> tenants) {
  VariantResult v;
  v.metrics.tenants = std::move(tenants);
  for (const TenantUsage& t : v.metrics.tenants) v.metrics.gpu_hours += t.gpu_hours;
  return v;
}

TEST_CASE("the table shows job rows only when there are jobs, and GPU-hours always",
          "[report][jobs]") {
  std::vector<VariantResult> variants = {Variant({Tenant("default", 1.5)})};
  Rows rows = JobAndTenantRows(variants);
  CHECK(Find(rows, "jobs completed") == nullptr);
  REQUIRE(Find(rows, "GPU-hours") != nullptr);
  CHECK(*Find(rows, "GPU-hours") == std::vector<std::string>{"1.500"});
  CHECK(Find(rows, "Jain's index, GPU time") == nullptr);  // one tenant: no tenant section

  variants[0].metrics.jobs.completed = 2;
  variants[0].metrics.jobs.completion = ComputeLatency({10, 30});
  rows = JobAndTenantRows(variants);
  CHECK(*Find(rows, "jobs completed") == std::vector<std::string>{"2"});
  CHECK(*Find(rows, "JCT mean (s)") == std::vector<std::string>{"20.0"});
  CHECK(*Find(rows, "job slowdown mean") == std::vector<std::string>{"-"});  // none measured
}

TEST_CASE("the tenant section has every namespace of any variant, '-' where one has none",
          "[report][tenants]") {
  std::vector<VariantResult> variants = {Variant({Tenant("a", 3, 0.75), Tenant("b", 1, 0.25)}),
                                         Variant({Tenant("a", 2, 1)})};
  variants[0].metrics.jain_index = 0.8;
  variants[1].metrics.jain_index = 1.0;
  const Rows rows = JobAndTenantRows(variants);
  REQUIRE(Find(rows, "GPU share, b") != nullptr);
  CHECK(*Find(rows, "GPU share, a") == std::vector<std::string>{"0.750", "1.000"});
  CHECK(*Find(rows, "GPU share, b") == std::vector<std::string>{"0.250", "-"});
  CHECK(Find(rows, "JCT mean, a (s)") == nullptr);  // no job ran: no job rows
  CHECK(*Find(rows, "Jain's index, GPU time") == std::vector<std::string>{"0.800", "1.000"});
  variants[0].metrics.jobs.completed = 1;
  WaitingGroup a;
  a.name = "a";
  a.pending.peak = 4;
  a.longest_wait_s = 12.5;
  variants[0].metrics.unserved.namespaces = {a};
  const Rows with_jobs = JobAndTenantRows(variants);
  CHECK(*Find(with_jobs, "JCT mean, a (s)") == std::vector<std::string>{"-", "-"});
  CHECK(*Find(with_jobs, "pods pending peak, a") == std::vector<std::string>{"4", "-"});
  CHECK(*Find(with_jobs, "longest wait, a (s)") == std::vector<std::string>{"12.5", "-"});
}

}  // namespace
}  // namespace migsim

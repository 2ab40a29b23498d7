#include "sim/report/job_table_rows.h"

#include <algorithm>
#include <functional>

#include "sim/core/text.h"

namespace migsim {
namespace {

using Rows = std::vector<std::pair<std::string, std::vector<std::string>>>;

// A row with `cell(variant)` for every variant.
void AddRow(Rows& rows, const std::vector<VariantResult>& variants, std::string label,
            const std::function<std::string(const VariantResult&)>& cell) {
  std::vector<std::string> cells;
  for (const VariantResult& v : variants) cells.push_back(cell(v));
  rows.emplace_back(std::move(label), std::move(cells));
}

// "-" for statistics over nothing.
std::string Stat(const LatencyStats& s, double LatencyStats::*field, int decimals) {
  return s.count == 0 ? "-" : FormatFixed(s.*field, decimals);
}

void AddJobRows(Rows& rows, const std::vector<VariantResult>& variants) {
  AddRow(rows, variants, "jobs completed",
         [](const VariantResult& v) { return std::to_string(v.metrics.jobs.completed); });
  AddRow(rows, variants, "jobs failed",
         [](const VariantResult& v) { return std::to_string(v.metrics.jobs.failed); });
  AddRow(rows, variants, "jobs unfinished",
         [](const VariantResult& v) { return std::to_string(v.metrics.jobs.unfinished); });
  const std::pair<const char*, double LatencyStats::*> stats[] = {{"mean", &LatencyStats::mean_s},
                                                                  {"p50", &LatencyStats::p50_s},
                                                                  {"p95", &LatencyStats::p95_s},
                                                                  {"p99", &LatencyStats::p99_s}};
  for (const auto& [name, field] : stats) {
    AddRow(rows, variants, std::string("JCT ") + name + " (s)",
           [f = field](const VariantResult& v) { return Stat(v.metrics.jobs.completion, f, 1); });
  }
  for (const auto& [name, field] : stats) {
    AddRow(rows, variants, std::string("job slowdown ") + name,
           [f = field](const VariantResult& v) { return Stat(v.metrics.jobs.slowdown, f, 2); });
  }
}

const TenantUsage* FindTenant(const VariantResult& v, const std::string& name) {
  auto it = std::find_if(v.metrics.tenants.begin(), v.metrics.tenants.end(),
                         [&](const TenantUsage& t) { return t.name == name; });
  return it == v.metrics.tenants.end() ? nullptr : &*it;
}

const WaitingGroup* FindWaiting(const VariantResult& v, const std::string& ns) {
  const std::vector<WaitingGroup>& groups = v.metrics.unserved.namespaces;
  auto it = std::find_if(groups.begin(), groups.end(),
                         [&](const WaitingGroup& g) { return g.name == ns; });
  return it == groups.end() ? nullptr : &*it;
}

// A section per namespace any variant has, in the order the variants list them.
void AddTenantRows(Rows& rows, const std::vector<VariantResult>& variants, bool jobs) {
  std::vector<std::string> names;
  for (const VariantResult& v : variants) {
    for (const TenantUsage& t : v.metrics.tenants) {
      if (std::find(names.begin(), names.end(), t.name) == names.end()) names.push_back(t.name);
    }
  }
  for (const std::string& ns : names) {
    // "<label>, <namespace><unit>", as the priority-class rows are labelled.
    auto tenant_row = [&](const std::string& label, const char* unit, auto cell) {
      AddRow(rows, variants, label + ", " + ns + unit, [&](const VariantResult& v) {
        const TenantUsage* t = FindTenant(v, ns);
        return t == nullptr ? std::string("-") : cell(*t);
      });
    };
    tenant_row("GPU-hours", "", [](const TenantUsage& t) { return FormatFixed(t.gpu_hours, 3); });
    tenant_row("GPU share", "", [](const TenantUsage& t) { return FormatFixed(t.gpu_share, 3); });
    AddRow(rows, variants, "pods pending peak, " + ns, [&](const VariantResult& v) {
      const WaitingGroup* w = FindWaiting(v, ns);
      return w == nullptr ? std::string("-") : std::to_string(w->pending.peak);
    });
    AddRow(rows, variants, "longest wait, " + ns + " (s)", [&](const VariantResult& v) {
      const WaitingGroup* w = FindWaiting(v, ns);
      return w == nullptr ? std::string("-") : FormatFixed(w->longest_wait_s, 1);
    });
    if (!jobs) continue;
    tenant_row("jobs completed", "",
               [](const TenantUsage& t) { return std::to_string(t.jobs.completed); });
    tenant_row("JCT mean", " (s)", [](const TenantUsage& t) {
      return Stat(t.jobs.completion, &LatencyStats::mean_s, 1);
    });
    tenant_row("JCT p95", " (s)", [](const TenantUsage& t) {
      return Stat(t.jobs.completion, &LatencyStats::p95_s, 1);
    });
    tenant_row("job slowdown mean", "", [](const TenantUsage& t) {
      return Stat(t.jobs.slowdown, &LatencyStats::mean_s, 2);
    });
  }
  AddRow(rows, variants, "Jain's index, GPU time", [](const VariantResult& v) {
    return v.metrics.jain_index ? FormatFixed(*v.metrics.jain_index, 3) : std::string("-");
  });
}

}  // namespace

bool AnyJobs(const std::vector<VariantResult>& variants) {
  return std::any_of(variants.begin(), variants.end(), [](const VariantResult& v) {
    const JobStats& j = v.metrics.jobs;
    return j.completed + j.failed + j.unfinished > 0;
  });
}

Rows JobAndTenantRows(const std::vector<VariantResult>& variants) {
  Rows rows;
  const bool any_jobs = AnyJobs(variants);
  if (any_jobs) AddJobRows(rows, variants);
  AddRow(rows, variants, "GPU-hours",
         [](const VariantResult& v) { return FormatFixed(v.metrics.gpu_hours, 3); });
  const bool tenants = std::any_of(variants.begin(), variants.end(), [](const VariantResult& v) {
    return v.metrics.tenants.size() > 1;
  });
  if (tenants) AddTenantRows(rows, variants, any_jobs);
  return rows;
}

}  // namespace migsim

#pragma once
// The summary table's rows about jobs and tenants (README "Output", "The table"): job
// counts, completion time and slowdown, GPU-hours and, when a variant has more than one
// namespace, a section per tenant and Jain's fairness index.

#include <string>
#include <utility>
#include <vector>

#include "sim/study/run.h"

namespace migsim {

// True when some variant ran a job (a Job, Workflow, bare pod or trace pod; a Deployment
// is a service, job_completion.h): the table's job-centric rows are shown only then.
bool AnyJobs(const std::vector<VariantResult>& variants);

// (label, a cell per variant) rows, in table order; "-" where a variant has no value.
std::vector<std::pair<std::string, std::vector<std::string>>> JobAndTenantRows(
    const std::vector<VariantResult>& variants);

}  // namespace migsim

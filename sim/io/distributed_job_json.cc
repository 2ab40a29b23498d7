// Workloads of kind "DistributedJob": a gang of workers (workloads/distributed_job.h).

#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

// More restarts than this is a typo; it also keeps the workers' tags (attempt x workers +
// index) within 32 bits.
constexpr int64_t kMaxRestarts = 1000;
constexpr int64_t kMaxWorkers = 100000;

}  // namespace

void LoadDistributedJob(LoadContext* ctx, const std::string& name, const JsonRef& ref,
                        Scenario* scenario) {
  ObjectReader r(ctx, ref,
                 {"kind", "namespace", "at_s", "workers", "template", "one_per_node",
                  "topology_key", "schedule_timeout_s", "backoff_limit", "queue_name"});
  DistributedJobSpec spec;
  spec.name = name;
  spec.at = r.Seconds("at_s", SimTime::Zero());
  r.Require("workers");
  spec.workers = static_cast<int>(r.Int("workers", 1, 1, kMaxWorkers));
  spec.one_per_node = r.Bool("one_per_node", true);
  if (r.Has("topology_key")) spec.topology_key = r.NonEmptyString("topology_key");
  spec.schedule_timeout = r.Seconds("schedule_timeout_s", spec.schedule_timeout);
  spec.backoff_limit = static_cast<int>(r.Int("backoff_limit", 6, 0, kMaxRestarts));
  if (!r.Require("template") || !ctx->ok()) return;
  spec.tmpl = LoadPodTemplate(ctx, r.Field("template"), TemplateRun::kJobClass, scenario);
  if (!ctx->ok()) return;
  if (scenario->templates[spec.tmpl.value()].node_name.valid()) {
    ctx->Fail(ref.Member("template").PointerTo("nodeName"),
              "a gang's workers are placed by the scheduler, all at once: no nodeName");
    return;
  }
  scenario->templates[spec.tmpl.value()].gang = true;
  // A gang that can never fit loads: like the coscheduling plugin's PodGroup, it stays
  // pending while the other workloads run (UnschedulableWarnings says why).
  scenario->workloads.emplace_back(std::move(spec));
}

}  // namespace migsim::io

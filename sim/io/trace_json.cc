// Workload kind "Trace": an openb pod CSV replayed at its recorded times (see
// scenarios/README.md, "kind": "Trace").

#include <algorithm>
#include <map>
#include <optional>

#include "sim/io/openb_csv.h"
#include "sim/io/scenario_sections_json.h"
#include "sim/policy/gpu_share.h"

namespace migsim::io {
namespace {

constexpr char kDefaultMilliResource[] = "alibabacloud.com/gpu-milli";
constexpr char kDefaultModelLabel[] = "alibabacloud.com/gpu-card-model";

struct TraceOptions {
  TraceTiming timing;
  bool whole_gpus = false;
  std::string milli_resource = kDefaultMilliResource;
  std::string model_label = kDefaultModelLabel;
  JobClassId job_class = JobClassId::Invalid();
};

// "V100M32|V100M16" -> {"V100M16", "V100M32"}: sorted and unique, as LabelIn wants.
std::vector<std::string> Models(const std::string& spec) {
  std::vector<std::string> models = GpuTypeModels(spec);
  std::sort(models.begin(), models.end());
  models.erase(std::unique(models.begin(), models.end()), models.end());
  return models;
}

PodTemplate TemplateOf(const OpenbPod& pod, const TraceOptions& o, ResourceTable* resources) {
  PodTemplate t;
  t.requests.cpu_milli = pod.cpu_milli;
  t.requests.memory_mib = pod.memory_mib;
  t.job_class = o.job_class;
  const PodShape& shape = pod.shape;
  if (shape.num_gpu > 0 && shape.gpu_milli > 0) {
    // A share takes a whole GPU when shares are not offered.
    const int64_t count = o.whole_gpus ? shape.num_gpu : int64_t{shape.num_gpu} * shape.gpu_milli;
    t.requests.extended.push_back(
        {resources->Intern(o.whole_gpus ? "nvidia.com/gpu" : o.milli_resource),
         static_cast<int32_t>(count)});
    if (!shape.gpu_type.empty()) t.node_affinity.push_back({o.model_label, Models(shape.gpu_type)});
  }
  return t;
}

// The row's run time as recorded: deletion − scheduled (deletion − creation for a pod the
// trace never scheduled), scaled. An error names the CSV line.
std::optional<SimTime> RecordedRun(LoadContext* ctx, const std::string& pointer,
                                   const std::string& csv, const OpenbPod& pod,
                                   const TraceTiming& timing) {
  const std::string where = csv + ":line " + std::to_string(pod.line) + ": ";
  if (!pod.deletion_s) {  // creation_time was checked for every row before sorting
    ctx->Fail(pointer, where + "deletion_time is needed to replay a trace");
    return std::nullopt;
  }
  const int64_t start = pod.scheduled_s.value_or(*pod.creation_s);
  if (start < *pod.creation_s || *pod.deletion_s < start) {
    ctx->Fail(pointer, where + "times out of order (creation_time " +
                           std::to_string(*pod.creation_s) + ", scheduled_time " +
                           std::to_string(start) + ", deletion_time " +
                           std::to_string(*pod.deletion_s) + ")");
    return std::nullopt;
  }
  const std::optional<SimTime> run = timing.Run(static_cast<double>(*pod.deletion_s - start));
  if (!run) ctx->Fail(pointer, where + TraceSpanMessage());
  return run;
}

TraceOptions ReadOptions(LoadContext* ctx, ObjectReader& r, Scenario* scenario) {
  TraceOptions o;
  o.timing = ReadTraceTiming(ctx, r);
  const std::string gpu = r.String("gpu", "milli");
  if (ctx->ok() && gpu != "milli" && gpu != "whole") {
    ctx->Fail(r.Field("gpu").pointer(), UnknownNameMessage("gpu request", gpu, {"milli", "whole"}));
  }
  o.whole_gpus = gpu == "whole";
  o.milli_resource = r.String("gpu_resource", kDefaultMilliResource);
  if (const std::string problem = ExtendedResourceProblem(o.milli_resource);
      ctx->ok() && !problem.empty()) {
    ctx->Fail(r.Field("gpu_resource").pointer(), problem);
  }
  o.model_label = r.String("gpu_model_label", kDefaultModelLabel);
  if (r.Has("job_class") && ctx->ok()) {
    o.job_class = FindJobClass(ctx, r.Field("job_class"), scenario->job_classes);
  }
  return o;
}

}  // namespace

std::string TraceSpanMessage() {
  return "scaled by time_scale, the row's times pass the " +
         std::to_string(static_cast<int64_t>(kMaxSeconds)) + " s a run can span";
}

TraceTiming ReadTraceTiming(LoadContext* ctx, ObjectReader& r) {
  TraceTiming t;
  t.at = r.Seconds("at_s", SimTime::Zero());
  t.time_scale = r.Number("time_scale", 1, std::numeric_limits<double>::lowest());
  if (r.Has("time_scale") && ctx->ok() && t.time_scale <= 0) {
    ctx->Fail(r.Field("time_scale").pointer(), "must be > 0");
  }
  t.limit = r.Int("limit", 0, 0);
  return t;
}

namespace {

// The trace's pods, checked (not empty, unique names, a creation time each), in order of
// creation and cut to the limit; nullopt after a failure in `ctx`.
std::optional<std::vector<OpenbPod>> ReadTracePods(LoadContext* ctx, const std::string& pointer,
                                                   const std::string& csv,
                                                   const TraceOptions& o) {
  Result<std::vector<OpenbPod>> loaded = LoadOpenbPods(csv);
  if (!loaded.ok()) {
    ctx->Fail(pointer, loaded.status().ToString());
    return std::nullopt;
  }
  std::vector<OpenbPod>& pods = loaded.value();
  if (pods.empty()) {
    ctx->Fail(pointer, csv + ": no pods");
    return std::nullopt;
  }
  if (Status s = CheckUniqueNames(pods, csv, "pod name"); !s.ok()) {
    ctx->Fail(pointer, s.ToString());
    return std::nullopt;
  }
  for (const OpenbPod& pod : pods) {
    if (!pod.creation_s) {
      ctx->Fail(pointer, csv + ":line " + std::to_string(pod.line) +
                             ": creation_time is needed to replay a trace");
      return std::nullopt;
    }
  }
  std::stable_sort(pods.begin(), pods.end(), [](const OpenbPod& a, const OpenbPod& b) {
    return *a.creation_s < *b.creation_s;
  });
  if (o.timing.limit > 0 && static_cast<size_t>(o.timing.limit) < pods.size()) {
    pods.resize(static_cast<size_t>(o.timing.limit));
  }
  return std::move(pods);
}

// One entry per pod, with one template per distinct shape added to `scenario`; the
// workload is added when every pod's arrival (and recorded run) is valid.
void AddTraceWorkload(LoadContext* ctx, const std::string& name, const std::string& pointer,
                      const std::string& csv, const std::vector<OpenbPod>& pods,
                      const TraceOptions& o, Scenario* scenario) {
  TraceSpec spec;
  spec.name = name;
  std::map<std::pair<std::string, int64_t>, TemplateId> templates;  // dedupe by shape
  const int64_t first = pods.empty() ? 0 : *pods.front().creation_s;
  for (const OpenbPod& pod : pods) {
    TraceEntry entry;
    entry.name = pod.name;
    const std::optional<SimTime> at =
        o.timing.Arrival(static_cast<double>(*pod.creation_s - first));
    if (!at) {
      ctx->Fail(pointer, csv + ":line " + std::to_string(pod.line) + ": " + TraceSpanMessage());
      return;
    }
    entry.at = *at;
    if (!o.job_class.valid()) {
      entry.run = RecordedRun(ctx, pointer, csv, pod, o.timing);
      if (!entry.run) return;
    }
    const auto key = std::make_pair(pod.shape.gpu_type + '/' + std::to_string(pod.shape.gpu_milli) +
                                        '/' + std::to_string(pod.shape.num_gpu) + '/' +
                                        std::to_string(pod.cpu_milli),
                                    pod.memory_mib);
    auto [it, added] = templates.try_emplace(key, TemplateId::Invalid());
    if (added) {
      scenario->templates.push_back(TemplateOf(pod, o, &scenario->resources));
      it->second = TemplateId(static_cast<TemplateId::Rep>(scenario->templates.size() - 1));
    }
    entry.tmpl = it->second;
    spec.entries.push_back(std::move(entry));
  }
  scenario->workloads.emplace_back(std::move(spec));
}

}  // namespace

void LoadTrace(LoadContext* ctx, const std::string& name, const JsonRef& ref, Scenario* scenario) {
  const Json& value = ref.value();
  if (value.is_object() && value.contains("pods")) {
    if (value.contains("openb_pods")) {
      ctx->Fail(ref.PointerTo("pods"), "give either openb_pods or pods, not both");
      return;
    }
    LoadPodListTrace(ctx, name, ref, scenario);
    return;
  }
  ObjectReader r(ctx, ref,
                 {"kind", "namespace", "openb_pods", "pods", "at_s", "time_scale", "limit", "gpu",
                  "gpu_resource", "gpu_model_label", "job_class"});
  const std::string file = r.NonEmptyString("openb_pods");
  TraceOptions o = ReadOptions(ctx, r, scenario);
  if (!ctx->ok()) return;
  const std::string pointer = r.Field("openb_pods").pointer();
  if (!ctx->MayReadNamedFile(pointer)) return;
  const std::string csv = ctx->ResolvePath(file);
  const std::optional<std::vector<OpenbPod>> pods = ReadTracePods(ctx, pointer, csv, o);
  if (!pods) return;
  AddTraceWorkload(ctx, name, pointer, csv, *pods, o, scenario);
}

}  // namespace migsim::io

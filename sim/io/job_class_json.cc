// `job_classes`: start-up, run time or speed per device, work, duty cycle.

#include <algorithm>
#include <cmath>

#include "sim/cluster/gpu_model.h"
#include "sim/io/hardware_catalog.h"
#include "sim/io/scenario_sections_json.h"
#include "workloads/builtin_job_classes.h"

namespace migsim::io {
namespace {

// "cpu", "gpu", and every MIG profile name of the catalog (the built-in models and the
// scenario's), in catalog order. A job class is not tied to a GPU model, so any model's
// profile is a valid kind.
std::vector<std::string> DeviceKinds(const HardwareCatalog& catalog) {
  std::vector<std::string> kinds = {"cpu", "gpu"};
  for (const auto& model : catalog.gpu_models()) {
    for (const MigProfile& profile : model.item->profiles) {
      if (std::find(kinds.begin(), kinds.end(), profile.name) == kinds.end()) {
        kinds.push_back(profile.name);
      }
    }
  }
  return kinds;
}

// A key of run_s or speed: "default", a device kind, or "<GPU model>/<kind>" where the
// kind is "gpu" or one of that model's profiles. Returns the key with the model's
// catalog name (aliases normalised), or nullopt after reporting the problem.
std::optional<std::string> ReadKindKey(LoadContext* ctx, const JsonRef& field,
                                       const std::string& key) {
  const size_t slash = key.find('/');
  if (slash == std::string::npos) {
    const std::vector<std::string> kinds = DeviceKinds(ctx->catalog());
    if (key == "default" || std::find(kinds.begin(), kinds.end(), key) != kinds.end()) return key;
    ctx->Fail(field.pointer(), "unknown device kind '" + key + "' (valid: default, " +
                                   JoinNames(kinds) + ", or <GPU model>/<kind>)");
    return std::nullopt;
  }
  const std::string model_name = key.substr(0, slash), kind = key.substr(slash + 1);
  const std::shared_ptr<const GpuModel> model = ctx->catalog().FindGpuModel(model_name);
  if (model == nullptr) {
    ctx->Fail(field.pointer(),
              UnknownNameMessage("GPU model", model_name, ctx->catalog().GpuModelNames()));
    return std::nullopt;
  }
  if (kind != "gpu" && model->FindProfile(kind) < 0) {
    ctx->Fail(field.pointer(), "'" + kind + "' is not a device kind of " + model->name +
                                   " (gpu or one of its MIG profiles)");
    return std::nullopt;
  }
  return model->name + "/" + kind;
}

// run_s (seconds) or speed (work units per second; converted with `work`) into run times.
void LoadPerKind(LoadContext* ctx, const JsonRef& ref, bool speed, JobClass* job_class) {
  auto to_time = [&](double v) { return SimTime::Seconds(speed ? job_class->work / v : v); };
  auto read = [&](const JsonRef& value) -> std::optional<double> {
    if (!speed) {
      std::optional<SimTime> s = ReadSeconds(ctx, value);
      return s ? std::optional<double>(s->seconds()) : std::nullopt;
    }
    std::optional<double> v = ReadNumber(ctx, value, 0);
    if (v && *v == 0) ctx->Fail(value.pointer(), "must be > 0");
    return ctx->ok() ? v : std::nullopt;
  };
  if (ref.value().is_number()) {
    if (std::optional<double> v = read(ref)) job_class->default_run_time = to_time(*v);
    return;
  }
  if (!ref.value().is_object()) {
    ctx->Fail(ref.pointer(), "expected a number or an object, got " + TypeName(ref.value()));
    return;
  }
  for (const auto& [key, value] : ref.value().items()) {
    const JsonRef field = ref.Member(key);
    std::optional<std::string> kind = ReadKindKey(ctx, field, key);
    std::optional<double> v = kind ? read(field) : std::nullopt;
    if (!v) return;
    const bool repeated = std::any_of(job_class->run_time.begin(), job_class->run_time.end(),
                                      [&](const auto& entry) { return entry.first == *kind; });
    if (repeated) {
      ctx->Fail(field.pointer(), "'" + *kind + "' is given twice (under another name)");
      return;
    }
    if (*kind == "default") {
      job_class->default_run_time = to_time(*v);
    } else {
      job_class->run_time.emplace_back(*kind, to_time(*v));
    }
  }
}

// The built-in a class starts from ("builtin": name), or an empty class.
JobClass BaseClass(LoadContext* ctx, ObjectReader& r) {
  if (!r.Has("builtin")) return JobClass{};
  const std::string name = r.String("builtin");
  if (const BuiltinJobClass* b = FindBuiltinJobClass(name)) return b->job_class;
  std::vector<std::string> names;
  for (const BuiltinJobClass& b : BuiltinJobClasses()) names.push_back(b.job_class.name);
  if (ctx->ok())
    ctx->Fail(r.Field("builtin").pointer(), UnknownNameMessage("built-in job class", name, names));
  return JobClass{};
}

// A built-in's run times stand for its own work: a different `work` scales them.
void ScaleRunTimes(JobClass& jc, double factor) {
  for (auto& [kind, t] : jc.run_time) t = SimTime::Seconds(t.seconds() * factor);
  if (jc.default_run_time)
    jc.default_run_time = SimTime::Seconds(jc.default_run_time->seconds() * factor);
}

// Run times derived from `speed` or a scaled `work` stay within what a run can span
// (run_s is bounded when read); past it they would saturate and never end.
void CheckRunTimes(LoadContext* ctx, ObjectReader& r, const JobClass& jc) {
  bool too_long = jc.default_run_time && jc.default_run_time->seconds() > kMaxSeconds;
  for (const auto& [kind, t] : jc.run_time) too_long = too_long || t.seconds() > kMaxSeconds;
  if (!too_long) return;
  const std::string_view field = r.Has("speed") ? "speed" : r.Has("work") ? "work" : "builtin";
  ctx->Fail(r.Field(field).pointer(), "gives a run time past the " +
                                          std::to_string(static_cast<int64_t>(kMaxSeconds)) +
                                          " s a run can span");
}

JobClass LoadJobClass(LoadContext* ctx, const std::string& name, const JsonRef& ref) {
  ObjectReader r(ctx, ref,
                 {"builtin", "startup_s", "run_s", "speed", "work", "work_unit", "duty_cycle",
                  "gpu_memory_gib", "mig_curve", "failure_probability", "checkpoint_interval_s"});
  JobClass job_class = BaseClass(ctx, r);
  job_class.name = name;
  job_class.startup = r.Seconds("startup_s", job_class.startup);
  const double base_work = job_class.work;
  job_class.work = r.Number("work", base_work, 0);
  if (ctx->ok() && job_class.work == 0) ctx->Fail(r.Field("work").pointer(), "must be > 0");
  job_class.work_unit = r.String("work_unit", job_class.work_unit);
  job_class.duty_cycle = r.Number("duty_cycle", job_class.duty_cycle, 0, 1);
  if (ctx->ok() && job_class.duty_cycle == 0) {
    ctx->Fail(r.Field("duty_cycle").pointer(), "must be > 0");
  }
  job_class.gpu_memory_mib = std::llround(
      r.Number("gpu_memory_gib", static_cast<double>(job_class.gpu_memory_mib) / 1024, 0, 1e6) *
      1024);
  if (ctx->ok() && r.Has("run_s") && r.Has("speed")) {
    ctx->Fail(r.Field("speed").pointer(), "give run_s or speed, not both");
  }
  if (r.Has("run_s") || r.Has("speed")) {
    job_class.run_time.clear();  // given times replace a built-in's
    job_class.default_run_time.reset();
  } else if (ctx->ok() && job_class.work != base_work) {
    ScaleRunTimes(job_class, job_class.work / base_work);
  }
  if (ctx->ok() && r.Has("run_s")) LoadPerKind(ctx, r.Field("run_s"), false, &job_class);
  if (ctx->ok() && r.Has("speed")) LoadPerKind(ctx, r.Field("speed"), true, &job_class);
  if (ctx->ok()) CheckRunTimes(ctx, r, job_class);
  if (ctx->ok() && r.Has("mig_curve")) {
    ObjectReader curve(ctx, r.Field("mig_curve"), {"alpha", "beta"});
    curve.Require("alpha");
    curve.Require("beta");
    job_class.mig_curve =
        MigCurve{curve.Number("alpha", 1, -10, 10), curve.Number("beta", 0, -10, 10)};
  }
  job_class.failure_probability =
      r.Number("failure_probability", job_class.failure_probability, 0, 1);
  if (r.Has("checkpoint_interval_s")) {
    job_class.checkpoint_interval = r.Seconds("checkpoint_interval_s", SimTime::Zero());
    if (ctx->ok() && job_class.checkpoint_interval->micros() <= 0) {
      ctx->Fail(r.Field("checkpoint_interval_s").pointer(), "must be > 0");
    }
  }
  return job_class;
}

}  // namespace

void LoadJobClasses(LoadContext* ctx, const JsonRef& classes, std::vector<JobClass>* out) {
  if (!ExpectNamedObject(ctx, classes, "job class")) return;
  for (const auto& [name, value] : classes.value().items()) {
    out->push_back(LoadJobClass(ctx, name, classes.Member(name)));
    if (!ctx->ok()) return;
  }
}

}  // namespace migsim::io

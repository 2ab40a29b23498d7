#include "sim/engine/job_class.h"

namespace migsim {

std::optional<SimTime> JobClass::GivenRunTime(std::string_view model, std::string_view kind) const {
  if (!model.empty()) {
    for (const auto& [k, t] : run_time) {
      if (k.size() == model.size() + 1 + kind.size() && k.starts_with(model) &&
          k[model.size()] == '/' && k.ends_with(kind)) {
        return t;
      }
    }
  }
  for (const auto& [k, t] : run_time) {
    if (k == kind) return t;
  }
  return std::nullopt;
}

namespace {

const MigProfile* FullSizeProfile(const GpuModel& model) {
  for (const MigProfile& p : model.profiles) {
    if (p.classic && p.compute_slices == model.compute_slices) return &p;
  }
  return nullptr;
}

// Run times scale inversely with speed.
SimTime Scaled(SimTime run, double speed_ratio) {
  return SimTime::Seconds(run.seconds() / speed_ratio);
}

std::optional<SimTime> DerivedMigRunTime(const JobClass& jc, const GpuModel& model,
                                         const MigProfile& profile) {
  std::optional<SimTime> whole = jc.GivenRunTime(model.name, "gpu");
  const MigProfile* full = FullSizeProfile(model);
  if (full == nullptr) return std::nullopt;
  std::optional<SimTime> full_run = jc.GivenRunTime(model.name, full->name);
  if (!full_run && whole) {
    full_run = Scaled(*whole, static_cast<double>(full->sms) / model.sms);
  }
  if (!full_run) return std::nullopt;
  if (&profile == full) return full_run;
  if (!jc.mig_curve) return std::nullopt;
  const double compute = static_cast<double>(profile.compute_slices) / model.compute_slices;
  const double memory = static_cast<double>(profile.memory_slices) / model.memory_slices;
  return Scaled(*full_run, jc.mig_curve->Ratio(compute, memory));
}

}  // namespace

std::optional<SimTime> RunTimeOnDevice(const JobClass& job_class, const GpuModel* model,
                                       std::string_view kind) {
  const std::string_view model_name = model ? std::string_view(model->name) : "";
  if (std::optional<SimTime> given = job_class.GivenRunTime(model_name, kind)) return given;
  if (model != nullptr) {
    const int p = model->FindProfile(kind);
    if (p >= 0) {
      if (auto derived = DerivedMigRunTime(job_class, *model, model->profiles[p])) return derived;
    }
  }
  return job_class.default_run_time;
}

}  // namespace migsim

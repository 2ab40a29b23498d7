#include "sim/io/k8s/observed_workload.h"

#include <algorithm>
#include <cstdio>

#include "sim/cluster/gpu_model.h"
#include "sim/io/k8s/rfc3339_time.h"

namespace migsim::k8s {
namespace {

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::optional<RunFigures> RunOf(const ObservedWorkload& w) {
  RunFigures r;
  std::vector<double> runs;
  for (const ObservedPod& p : w.pods) {
    if (!p.run_s) continue;
    runs.push_back(*p.run_s);
    r.from_telemetry += p.run_source == ObservedSource::kTelemetry;
    r.from_snapshot += p.run_source == ObservedSource::kSnapshot;
  }
  if (runs.empty() && w.job != nullptr) {
    runs.push_back(w.job->completion_s - w.job->start_s);
    r.from_job = true;
  }
  if (runs.empty()) return std::nullopt;
  r.runs = static_cast<int>(runs.size());
  for (double x : runs) r.mean_s += x / static_cast<double>(runs.size());
  r.min_s = *std::min_element(runs.begin(), runs.end());
  r.max_s = *std::max_element(runs.begin(), runs.end());
  if (r.min_s > 0) r.fit = telemetry::FitLogNormal(runs);
  return r;
}

// A failed pod's peak is where it failed (an OOMKilled pod's is what did not fit), not what
// the workload needs to run: the footprint is the largest peak of the others.
void MemoryOf(const ObservedWorkload& w, WorkloadModel* m) {
  for (bool failed_too : {false, true}) {
    for (const ObservedPod& p : w.pods) {
      const bool failed = !p.reason.empty() && p.reason != "Completed";
      if (!p.peak_memory_mib || (failed && !failed_too)) continue;
      m->memory_mib = std::max(m->memory_mib.value_or(0), *p.peak_memory_mib);
      ++m->memory_pods;
    }
    if (m->memory_mib) return void(m->memory_of_failed = failed_too);
  }
}

// The device of the first pod measured on one, and its job class key when the catalog has
// the model (dcgm-exporter's modelName is the driver's "NVIDIA A100-SXM4-40GB"; with '-' for
// ' ' it is the product name GFD publishes, which the catalog knows).
void DeviceOf(const ObservedWorkload& w, WorkloadModel* m) {
  for (const ObservedPod& p : w.pods) {
    if (p.gpu_model.empty()) continue;
    m->measured_on = p.gpu_model + (p.mig_profile.empty() ? "" : " " + p.mig_profile);
    std::string product = p.gpu_model;
    std::replace(product.begin(), product.end(), ' ', '-');
    const GpuModel* model = FindGpuModel(product);
    if (model == nullptr) return;
    if (p.mig_profile.empty()) {
      m->device_key = model->name + "/gpu";
    } else if (model->FindProfile(p.mig_profile) >= 0) {
      m->device_key = model->name + "/" + p.mig_profile;
    }
    return;
  }
}

}  // namespace

bool EndsOnItsOwn(const std::string& kind) { return kind == "Job" || kind == "Pod"; }

WorkloadModel ModelOf(const ObservedWorkload& w) {
  WorkloadModel m;
  if (EndsOnItsOwn(w.kind)) m.run = RunOf(w);
  double duty_sum = 0;
  for (const ObservedPod& p : w.pods) {
    if (!p.duty_cycle) continue;
    duty_sum += *p.duty_cycle;
    ++m.duty_pods;
    if (m.duty_metric.empty()) {
      m.duty_metric = p.duty_cycle_metric;
    } else if (m.duty_metric.find(p.duty_cycle_metric) == std::string::npos) {
      m.duty_metric += "+" + p.duty_cycle_metric;
    }
  }
  // A duty cycle of 0 (a pod that never used its GPU) is not one the scenario takes (> 0).
  if (m.duty_pods > 0 && duty_sum > 0) m.duty_cycle = duty_sum / m.duty_pods;
  MemoryOf(w, &m);
  DeviceOf(w, &m);
  for (const ObservedPod& p : w.pods) {
    if (m.replay_template == nullptr && p.tmpl != nullptr) m.replay_template = p.tmpl;
  }
  if (!EndsOnItsOwn(w.kind) || m.replay_template == nullptr) return m;
  for (const ObservedPod& p : w.pods) {
    if (p.run_s && p.created_s) m.replayed.push_back(&p);
  }
  return m;
}

namespace {

std::string RunText(const WorkloadModel& m, bool ends, double placeholder_run_s) {
  if (!ends) return "run time: until deleted";
  if (!m.run) return "run time: " + Fixed(placeholder_run_s, 0) + " s (default: placeholder)";
  const RunFigures& r = *m.run;
  if (r.from_job) {
    return "run time: " + Fixed(r.mean_s, 0) +
           " s (jobs: the Job's completionTime - startTime, no pod's own)";
  }
  std::string from;
  if (r.from_telemetry > 0) from = std::to_string(r.from_telemetry) + " telemetry";
  if (r.from_snapshot > 0) {
    from += (from.empty() ? "" : ", ") + std::to_string(r.from_snapshot) + " snapshot";
  }
  std::string text = "run time: mean " + Fixed(r.mean_s, 0) + " s of " + std::to_string(r.runs) +
                     " runs, " + Fixed(r.min_s, 0) + "-" + Fixed(r.max_s, 0) + " s (" + from + ")";
  if (r.fit) {
    text += ", log-normal fit mu " + Fixed(r.fit->mu, 3) + " sigma " + Fixed(r.fit->sigma, 3) +
            " KS D " + Fixed(r.fit->ks_statistic, 3);
  }
  return text;
}

std::string DutyText(const WorkloadModel& m) {
  if (!m.duty_cycle) return "duty cycle: 1 (default)";
  return "duty cycle: " + Fixed(*m.duty_cycle, 3) + " (telemetry: " + m.duty_metric + ", " +
         std::to_string(m.duty_pods) + " pods)";
}

std::string MemoryText(const WorkloadModel& m) {
  if (!m.memory_mib) return "GPU memory: none (default)";
  return "GPU memory: " + Fixed(*m.memory_mib, 0) + " MiB (telemetry: peak of " +
         std::to_string(m.memory_pods) + (m.memory_of_failed ? " failed" : " not failed") +
         " pods)";
}

std::string DeviceText(const WorkloadModel& m, bool ends) {
  if (m.measured_on.empty()) return "measured on: unknown";
  if (!ends) return "measured on: " + m.measured_on;
  if (m.device_key.empty()) {
    return "measured on: " + m.measured_on + " (not in the catalog: run_s 'default' only)";
  }
  return "measured on: " + m.measured_on + " (run_s '" + m.device_key +
         "'; other devices take 'default', the same time)";
}

}  // namespace

std::string DescribeWorkload(const ObservedWorkload& w, const WorkloadModel& m, bool ends,
                             bool live, const std::string& base, double placeholder_run_s) {
  int telemetry = 0, finished = 0;
  for (const ObservedPod& p : w.pods) {
    telemetry += p.telemetry;
    finished += p.run_s.has_value();
  }
  std::string arrivals;
  if (!m.replayed.empty()) {
    arrivals = "arrivals: " + std::to_string(m.replayed.size()) + " replayed (workload " + base +
               "/observed)";
  } else if (live) {
    arrivals = "arrivals: the snapshot's pods at time 0";
  } else {
    arrivals = "not in the scenario: no pod of it in the pods file to take a template from";
  }
  return w.ns + "/" + w.kind + "/" + w.name + ": " + std::to_string(w.pods.size()) +
         " pods observed (" + std::to_string(telemetry) + " in telemetry, " +
         std::to_string(finished) + " with a run time); " + RunText(m, ends, placeholder_run_s) +
         "; " + DutyText(m) + "; " + MemoryText(m) + "; " + DeviceText(m, ends) + "; " + arrivals;
}

std::string ReplayNotice(int replayed, double t0) {
  return std::to_string(replayed) +
         " finished pods replayed at their creation times for their observed run times; time 0 "
         "is " + FormatRfc3339(t0) + ", the earliest (the snapshot's live pods start at time 0 "
         "too)";
}

void DefaultsTally::Count(const std::string& label, const WorkloadModel* model, bool ends,
                          bool in_scenario) {
  if (!in_scenario) return left_out_.push_back(label);
  if (ends && (model == nullptr || !model->run)) run_.push_back(label);
  if (model == nullptr || !model->duty_cycle) duty_.push_back(label);
  if (model == nullptr || !model->memory_mib) memory_.push_back(label);
}

namespace {

std::string Listed(const std::string& what, const std::vector<std::string>& labels) {
  std::string out = what + ": " + std::to_string(labels.size());
  for (size_t i = 0; i < labels.size(); ++i) out += (i == 0 ? " (" : ", ") + labels[i];
  return out + (labels.empty() ? "" : ")");
}

}  // namespace

std::vector<std::string> DefaultsTally::Lines(double placeholder_run_s) const {
  std::vector<std::string> out = {
      "workloads on defaults: " +
      Listed("run time " + Fixed(placeholder_run_s, 0) + " s (placeholder)", run_) + "; " +
      Listed("duty cycle 1", duty_) + "; " + Listed("GPU memory none (never out of memory)", memory_)};
  if (!left_out_.empty()) out.push_back(Listed("observed workloads not in the scenario", left_out_));
  return out;
}

}  // namespace migsim::k8s

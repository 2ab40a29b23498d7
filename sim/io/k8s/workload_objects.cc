// Pods, Deployments, ReplicaSets, StatefulSets, Jobs and CronJobs: the fields of their
// `spec` that decide how many pods exist and when.

#include "sim/io/k8s/workload_objects.h"

#include "sim/io/k8s/pod_spec_model.h"

namespace migsim::k8s {
namespace {

DisruptionAction ActionOf(const ManifestNode& action, ManifestLog* log) {
  constexpr DisruptionAction kActions[] = {DisruptionAction::kCount, DisruptionAction::kIgnore,
                                           DisruptionAction::kFailJob};
  return kActions[action.Choice(log, "action", {"Count", "Ignore", "FailJob"})];
}

bool NamesDisruptionTarget(const ManifestNode& rule, ManifestLog* log) {
  for (const ManifestNode& c : rule["onPodConditions"].Elements(log)) {
    if (c["type"].String(log) == "DisruptionTarget") return true;
  }
  return false;
}

// The first rule on the DisruptionTarget condition decides what a preempted pod does; rules
// on exit codes would need the containers' exit codes, which migsim does not model.
DisruptionAction ReadPodFailurePolicy(const ManifestNode& policy, ManifestLog* log) {
  std::optional<DisruptionAction> first;
  for (const ManifestNode& rule : policy["rules"].Elements(log)) {
    if (NamesDisruptionTarget(rule, log)) {
      const DisruptionAction action = ActionOf(rule["action"], log);
      if (!first) first = action;
    } else {
      rule.Warn(log, "only rules on the DisruptionTarget condition are modelled");
    }
  }
  return first.value_or(DisruptionAction::kCount);
}

void RequireRestartPolicy(const PodTemplateModel& pod, const ManifestNode& tmpl, ManifestLog* log) {
  const std::string& policy = pod.spec.restart_policy;
  if (log->ok() && policy != "Never" && policy != "OnFailure") {
    tmpl["spec"]["restartPolicy"].Fail(
        log, "a Job's pods need restartPolicy Never or OnFailure, got '" + policy + "'");
  }
}

}  // namespace

PodObject ReadPodObject(const ManifestNode& doc, ManifestLog* log) {
  return PodObject{ReadPodTemplate(doc, log)};
}

ReplicatedObject ReadReplicated(const ManifestNode& doc, ManifestLog* log) {
  const ManifestNode spec = doc["spec"];
  ReplicatedObject out;
  if (!spec.ExpectMap(log)) return out;
  out.replicas = static_cast<int>(spec["replicas"].Int(log, 1, 0, kMaxPods));
  if (const ManifestNode policy = spec["podManagementPolicy"];
      doc["kind"].String(log) == "StatefulSet" && policy.String(log) != "Parallel") {
    (policy.present() ? policy : spec)
        .Warn(log,
              "OrderedReady (the default) creates the pods one after another as each "
              "becomes ready; migsim creates them together (as Parallel)");
  }
  out.pod = ReadPodTemplate(spec["template"], log);
  return out;
}

JobObject ReadJobObject(const ManifestNode& doc, ManifestLog* log) {
  const ManifestNode spec = doc["spec"];
  JobObject out;
  if (!spec.ExpectMap(log)) return out;
  out.parallelism = static_cast<int>(spec["parallelism"].Int(log, 1, 1, kMaxPods));
  if (spec["completions"].present()) {
    out.completions = static_cast<int>(spec["completions"].Int(log, 1, 1, kMaxPods));
  } else if (out.parallelism > 1) {
    spec["parallelism"].Warn(log,
                             "a work-queue Job (no completions) is modelled as "
                             "completions = parallelism");
    out.completions = out.parallelism;
  }
  out.backoff_limit = static_cast<int>(spec["backoffLimit"].Int(log, 6, 0, kMaxPods));
  if (const ManifestNode policy = spec["podFailurePolicy"]; policy.present()) {
    out.on_disruption = ReadPodFailurePolicy(policy, log);
  }
  for (const char* field : {"activeDeadlineSeconds", "backoffLimitPerIndex"}) {
    if (const ManifestNode f = spec[field]; f.present()) f.Warn(log, "not modelled");
  }
  out.pod = ReadPodTemplate(spec["template"], log);
  RequireRestartPolicy(out.pod, spec["template"], log);
  return out;
}

CronJobObject ReadCronJobObject(const ManifestNode& doc, ManifestLog* log) {
  const ManifestNode spec = doc["spec"];
  CronJobObject out;
  if (!spec.ExpectMap(log)) return out;
  const ManifestNode schedule = spec["schedule"];
  if (!schedule.present()) spec.Fail(log, "missing required field 'schedule'");
  out.schedule = schedule.String(log);
  out.schedule_place = schedule.place();
  out.concurrency = static_cast<ConcurrencyPolicy>(
      spec["concurrencyPolicy"].Choice(log, "concurrencyPolicy", {"Allow", "Forbid", "Replace"}));
  if (const ManifestNode deadline = spec["startingDeadlineSeconds"]; deadline.present()) {
    deadline.Warn(log, "not modelled: every run starts on time");
  }
  if (const ManifestNode zone = spec["timeZone"]; zone.present()) {
    zone.Warn(log, "not modelled: schedules are read in UTC");
  }
  const ManifestNode job = spec["jobTemplate"];
  if (!job.present()) spec.Fail(log, "missing required field 'jobTemplate'");
  if (log->ok()) out.job = ReadJobObject(job, log);
  return out;
}

}  // namespace migsim::k8s

// Distributed training objects: Kubeflow's PyTorchJob (kubeflow.org/v1), JobSet
// (jobset.x-k8s.io/v1alpha2) and the coscheduling plugin's PodGroup (scheduling.x-k8s.io/
// v1alpha1). PyTorchJobs and JobSets become one gang of all their pods (GangObject); what
// would change a scheduling outcome and is not modelled is a warning.

#include "sim/io/k8s/pod_spec_model.h"
#include "sim/io/k8s/workload_objects.h"

namespace migsim::k8s {
namespace {

// As "kind": "DistributedJob"'s backoff_limit and workers: more is a typo.
constexpr int64_t kMaxRestarts = 1000;
constexpr int64_t kMaxGangPods = 100000;

SimTime ReadTimeout(const ManifestNode& seconds, ManifestLog* log) {
  return SimTime::Seconds(static_cast<double>(seconds.Int(log, 60, 1, 1'000'000'000)));
}

// One of pytorchReplicaSpecs: {replicas, restartPolicy, template}.
GangReplica ReadReplicaSpec(const std::string& type, const ManifestNode& spec, ManifestLog* log,
                            bool* never) {
  GangReplica out{type, 1, {}, spec.place()};
  if (!spec.ExpectMap(log)) return out;
  const ManifestNode replicas = spec["replicas"];
  out.pods = static_cast<int>(replicas.Int(log, 1, 0, kMaxGangPods));
  if (type == "Master" && out.pods != 1 && log->ok()) {
    replicas.Fail(log, "a PyTorchJob has exactly one Master replica");
  }
  // The training operator's default restartPolicy is OnFailure.
  *never = *never || spec["restartPolicy"].Choice(
                         log, "restartPolicy", {"OnFailure", "Always", "ExitCode", "Never"}) == 3;
  out.pod = ReadPodTemplate(spec["template"], log);
  return out;
}

void ReadRunPolicy(const ManifestNode& policy, int pods, ManifestLog* log, GangObject* out) {
  if (const ManifestNode limit = policy["backoffLimit"]; limit.present()) {
    out->backoff_limit = static_cast<int>(limit.Int(log, 0, 0, kMaxRestarts));
  }
  const ManifestNode scheduling = policy["schedulingPolicy"];
  if (const ManifestNode min = scheduling["minAvailable"]; min.present()) {
    if (min.Int(log, pods, 1, kMaxPods) != pods && log->ok()) {
      min.Fail(log, "a gang of fewer pods than the job's " + std::to_string(pods) +
                        " is not modelled: migsim co-schedules all of them (remove "
                        "minAvailable or set it to " +
                        std::to_string(pods) + ")");
    }
  }
  if (const ManifestNode timeout = scheduling["scheduleTimeoutSeconds"]; timeout.present()) {
    out->schedule_timeout = ReadTimeout(timeout, log);
  }
  WarnEach(scheduling, log,
           {{"queue", "Volcano's queue is not modelled (Kueue's queue-name label is)"},
            {"priorityClass", "the PodGroup's priority class is not read; the pods' is"},
            {"minResources", "not modelled"}});
  WarnEach(policy, log, {{"activeDeadlineSeconds", "not modelled"}});
}

}  // namespace

GangObject ReadPyTorchJobObject(const ManifestNode& doc, ManifestLog* log) {
  const ManifestNode spec = doc["spec"];
  GangObject out;
  if (!spec.ExpectMap(log)) return out;
  const ManifestNode specs = spec["pytorchReplicaSpecs"];
  if (!specs.present()) spec.Fail(log, "missing required field 'pytorchReplicaSpecs'");
  bool never = false;
  int pods = 0;
  // Master first, whatever the order in the file: it is rank 0.
  for (const char* type : {"Master", "Worker"}) {
    if (const ManifestNode s = specs[type]; s.present() && log->ok()) {
      out.replicas.push_back(ReadReplicaSpec(type, s, log, &never));
      pods += out.replicas.back().pods;
    }
  }
  for (const std::string& key : specs.Keys(log)) {
    if (key != "Master" && key != "Worker" && log->ok()) {
      specs[key].Fail(log, "unknown replica type '" + key + "' (valid: Master, Worker)");
    }
  }
  if (pods == 0 && log->ok()) specs.Fail(log, "the job has no pods (Master or Worker replicas)");
  if (pods > kMaxGangPods && log->ok()) {
    specs.Fail(log, "more than " + std::to_string(kMaxGangPods) + " pods in one gang");
  }
  // Without backoffLimit the operator restarts failed replicas without limit, unless their
  // restartPolicy is Never.
  out.backoff_limit = never ? 0 : static_cast<int>(kMaxRestarts);
  ReadRunPolicy(spec["runPolicy"], pods, log, &out);
  WarnEach(spec, log,
           {{"elasticPolicy",
             "elastic training is not modelled: the job runs with all its replicas, as one gang"}});
  return out;
}

namespace {

// One of replicatedJobs: `replicas` child Jobs of `template`, each of parallelism pods.
GangReplica ReadReplicatedJob(const ManifestNode& entry, ManifestLog* log) {
  GangReplica out{"", 1, {}, entry.place()};
  if (!entry.ExpectMap(log)) return out;
  out.name = entry["name"].String(log);
  if (out.name.empty() && log->ok()) entry.Fail(log, "missing required field 'name'");
  const int jobs = static_cast<int>(entry["replicas"].Int(log, 1, 0, kMaxGangPods));
  const ManifestNode tmpl = entry["template"];
  if (!tmpl.present() && log->ok()) entry.Fail(log, "missing required field 'template'");
  if (!log->ok()) return out;
  const JobObject job = ReadJobObject(tmpl, log);
  if (job.completions != job.parallelism && log->ok()) {
    tmpl["spec"]["completions"].Fail(
        log, "a child Job whose completions (" + std::to_string(job.completions) +
                 ") differ from its parallelism (" + std::to_string(job.parallelism) +
                 ") does not run as one gang");
  }
  if (static_cast<int64_t>(jobs) * job.parallelism > kMaxGangPods) {
    entry.Fail(log, "more than " + std::to_string(kMaxGangPods) + " pods in one gang");
    return out;
  }
  out.pods = jobs * job.parallelism;
  out.pod = job.pod;
  return out;
}

// JobSet's exclusive placement: each child Job alone in its topology domain.
constexpr const char* kExclusiveTopology = "alpha.jobset.sigs.k8s.io/exclusive-topology";

void ReadJobSetPolicies(const ManifestNode& doc, const ManifestNode& spec, ManifestLog* log,
                        GangObject* out) {
  const ManifestNode failure = spec["failurePolicy"];
  // JobSet's default maxRestarts is 0: the first failed child Job fails the JobSet.
  out->backoff_limit = static_cast<int>(failure["maxRestarts"].Int(log, 0, 0, kMaxRestarts));
  WarnEach(failure, log,
           {{"rules", "failure policy rules are not modelled: every failure restarts the JobSet"}});
  const ManifestNode success = spec["successPolicy"];
  if (success["operator"].Choice(log, "operator", {"All", "Any"}) == 1) {
    success["operator"].Warn(log, "not modelled: the JobSet succeeds when all its pods do");
  }
  WarnEach(success, log, {{"targetReplicatedJobs", "not modelled: every replicated Job counts"}});
  WarnEach(spec, log, {{"startupPolicy", "not modelled: all child Jobs start together"}});
  if (const ManifestNode key = doc["metadata"]["annotations"][kExclusiveTopology]; key.present()) {
    out->one_per_node = key.String(log) == "kubernetes.io/hostname";
    if (!out->one_per_node) {
      key.Warn(log, "exclusive placement is modelled on kubernetes.io/hostname only");
    }
  }
}

}  // namespace

GangObject ReadJobSetObject(const ManifestNode& doc, ManifestLog* log) {
  const ManifestNode spec = doc["spec"];
  GangObject out;
  if (!spec.ExpectMap(log)) return out;
  const ManifestNode jobs = spec["replicatedJobs"];
  int64_t pods = 0;
  for (const ManifestNode& entry : jobs.Elements(log)) {
    out.replicas.push_back(ReadReplicatedJob(entry, log));
    pods += out.replicas.back().pods;
    if (!log->ok()) return out;
  }
  if (pods == 0) {
    (jobs.present() ? jobs : spec).Fail(log, "the JobSet has no pods (replicatedJobs)");
  } else if (pods > kMaxGangPods) {
    jobs.Fail(log, "more than " + std::to_string(kMaxGangPods) + " pods in one gang");
  }
  if (log->ok()) ReadJobSetPolicies(doc, spec, log, &out);
  return out;
}

PodGroupObject ReadPodGroupObject(const ManifestNode& doc, ManifestLog* log) {
  PodGroupObject out;
  const ManifestNode version = doc["apiVersion"];
  if (version.String(log).rfind("scheduling.x-k8s.io/", 0) != 0 && log->ok()) {
    version.Fail(log, "only the coscheduling plugin's PodGroup (scheduling.x-k8s.io) is simulated");
    return out;
  }
  const ManifestNode spec = doc["spec"];
  if (!spec.ExpectMap(log)) return out;
  const ManifestNode min = spec["minMember"];
  if (!min.present()) spec.Fail(log, "missing required field 'minMember'");
  out.min_member = static_cast<int>(min.Int(log, 1, 1, kMaxGangPods));
  out.min_member_place = min.place();
  if (const ManifestNode timeout = spec["scheduleTimeoutSeconds"]; timeout.present()) {
    out.schedule_timeout = ReadTimeout(timeout, log);
  }
  WarnEach(spec, log,
           {{"minResources", "not modelled (the plugin's pre-check of free resources)"}});
  return out;
}

}  // namespace migsim::k8s

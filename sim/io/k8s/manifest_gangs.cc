// PyTorchJobs, JobSets and coscheduling PodGroups onto DistributedJobs (one gang of all
// their pods: the engine's only gang-forming controller), and Kueue's queue-name label onto
// the workloads Kueue manages in migsim (Jobs and DistributedJobs; a bare Pod as a Job of
// one pod that is never retried, which is what a Kueue-managed Pod with restartPolicy Never is).

#include <algorithm>

#include "sim/io/k8s/manifest_training.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

using k8s::ErrorAt;
using k8s::ManifestObject;

constexpr std::string_view kPodGroupLabel = "scheduling.x-k8s.io/pod-group";

// What differs between two templates in what the scheduler or the job class sees; "" if
// nothing does.
std::string Difference(const PodTemplate& a, const PodTemplate& b) {
  if (!(a.requests == b.requests)) return "resources";
  if (a.node_selector != b.node_selector) return "nodeSelector";
  if (!(a.node_affinity == b.node_affinity)) return "node affinity";
  if (!(a.tolerations == b.tolerations)) return "tolerations";
  if (a.resource_claims != b.resource_claims || a.shared_claims != b.shared_claims) {
    return "resourceClaims";
  }
  if (a.priority_class != b.priority_class) return "priorityClassName";
  if (a.termination_grace != b.termination_grace) return "terminationGracePeriodSeconds";
  if (a.job_class != b.job_class) return "job class (manifest_overlay.job_classes)";
  return "";
}

// One template for all the replicas: a DistributedJob's workers are alike. Replicas whose
// pods differ (a Master with fewer resources) are refused rather than misread.
TemplateId GangTemplate(const ManifestContext& c, const ManifestObject& o,
                        const k8s::GangObject& g) {
  const TemplateId first = AddManifestTemplate(c, o, g.replicas.front().pod, false);
  for (size_t i = 1; i < g.replicas.size() && c.ctx->ok(); ++i) {
    const k8s::GangReplica& r = g.replicas[i];
    const TemplateId other = AddManifestTemplate(c, o, r.pod, false);
    if (!c.ctx->ok()) break;
    const std::string what =
        Difference(c.scenario->templates[first.value()], c.scenario->templates[other.value()]);
    if (!what.empty()) {
      c.ctx->Fail(ErrorAt(r.pod.place,
                          "the pods of " + r.name + " differ from those of " +
                              g.replicas.front().name + " in their " + what +
                              ": migsim runs a gang of alike pods (give every replica the same "
                              "resources, scheduling fields and job class)"));
    }
  }
  if (!c.ctx->ok()) return TemplateId::Invalid();
  c.scenario->templates[first.value()].gang = true;
  return first;
}

// A gang that can never fit is added too: it stays pending, as a coscheduling PodGroup
// does, and `validate` and `run` warn (UnschedulableWarnings).
void AddDistributedJob(const ManifestContext& c, const ManifestObject& o, DistributedJobSpec spec) {
  spec.local_queue = ManifestLocalQueue(c, o);
  if (!c.ctx->ok()) return;
  c.scenario->workloads.emplace_back(std::move(spec));
  CheckManifestAdmission(c, o);
}

void AddGang(const ManifestContext& c, const ManifestObject& o, const k8s::GangObject& g,
             SimTime at) {
  int workers = 0;
  for (const k8s::GangReplica& r : g.replicas) workers += r.pods;
  const TemplateId tmpl = GangTemplate(c, o, g);
  if (!c.ctx->ok()) return;
  AddDistributedJob(c, o,
                    DistributedJobSpec{.name = o.name,
                                       .at = at,
                                       .workers = workers,
                                       .tmpl = tmpl,
                                       .one_per_node = g.one_per_node,
                                       .topology_key = "",
                                       .schedule_timeout = g.schedule_timeout,
                                       .backoff_limit = g.backoff_limit,
                                       .local_queue = -1});
}

std::vector<const ManifestObject*> Members(const k8s::ManifestSet& set, const ManifestObject& g) {
  std::vector<const ManifestObject*> out;
  for (const ManifestObject& o : set.objects) {
    if (o.ns == g.ns && PodGroupOf(o) == g.name) out.push_back(&o);
  }
  return out;
}

// A PodGroup's members must be one gang of alike pods: a Job of minMember pods at once
// (parallelism = completions = minMember), or minMember Pods that end (restartPolicy Never
// or OnFailure).
void AddPodGroup(const ManifestContext& c, const ManifestObject& o, const k8s::PodGroupObject& pg,
                 SimTime at) {
  const std::vector<const ManifestObject*> members = Members(c.set, o);
  k8s::GangObject gang{.replicas = {},
                       .backoff_limit = 0,
                       .schedule_timeout = pg.schedule_timeout,
                       .one_per_node = false};
  const auto* job = members.size() == 1 ? std::get_if<k8s::JobObject>(&members[0]->body) : nullptr;
  bool one_gang = job != nullptr
                      ? job->parallelism == pg.min_member && job->completions == pg.min_member
                      : static_cast<int>(members.size()) == pg.min_member;
  if (job != nullptr) {
    gang.replicas.push_back({members[0]->name, pg.min_member, job->pod, members[0]->place});
    gang.backoff_limit = job->backoff_limit;
  }
  for (const ManifestObject* m : members) {
    const auto* pod = std::get_if<k8s::PodObject>(&m->body);
    if (job != nullptr) break;
    const std::string restart = pod != nullptr ? pod->pod.spec.restart_policy : "";
    one_gang = one_gang && (restart == "Never" || restart == "OnFailure");
    if (one_gang) gang.replicas.push_back({m->name, 1, pod->pod, m->place});
  }
  if (!one_gang) {
    return c.ctx->Fail(
        ErrorAt(pg.min_member_place,
                "its " + std::to_string(members.size()) +
                    " member object(s) are not one gang of minMember pods: migsim gangs one Job of "
                    "parallelism = completions = minMember, or minMember Pods with restartPolicy "
                    "Never or OnFailure"));
  }
  AddGang(c, o, gang, at);
}

}  // namespace

std::string PodGroupOf(const ManifestObject& o) {
  const k8s::PodTemplateModel* pod = nullptr;
  if (const auto* p = std::get_if<k8s::PodObject>(&o.body)) pod = &p->pod;
  if (const auto* j = std::get_if<k8s::JobObject>(&o.body)) pod = &j->pod;
  if (const auto* r = std::get_if<k8s::ReplicatedObject>(&o.body)) pod = &r->pod;
  if (const auto* cj = std::get_if<k8s::CronJobObject>(&o.body)) pod = &cj->job.pod;
  if (pod == nullptr) return "";
  for (const auto& [key, value] : pod->labels) {
    if (key == kPodGroupLabel) return value;
  }
  return "";
}

void CheckPodGroupMembers(LoadContext* ctx, const k8s::ManifestSet& set) {
  for (const ManifestObject& o : set.objects) {
    const std::string group = PodGroupOf(o);
    if (group.empty()) continue;
    const bool defined = std::any_of(set.objects.begin(), set.objects.end(), [&](const auto& g) {
      return std::holds_alternative<k8s::PodGroupObject>(g.body) && g.name == group && g.ns == o.ns;
    });
    if (!std::holds_alternative<k8s::PodObject>(o.body) &&
        !std::holds_alternative<k8s::JobObject>(o.body)) {
      return ctx->Fail(
          ErrorAt(o.place, "only Pods and Jobs join a PodGroup in migsim, not a " + o.kind));
    }
    if (!o.queue_name.empty()) {
      return ctx->Fail(
          ErrorAt(o.queue_place, "Kueue's queueing of PodGroup members is not modelled"));
    }
    if (!defined) {
      return ctx->Fail(ErrorAt(o.place, "its pods name PodGroup '" + group +
                                            "', which no manifest defines in namespace '" + o.ns +
                                            "': the coscheduling plugin never schedules them"));
    }
  }
}

bool AddGangOrQueuedPod(const ManifestContext& c, const ManifestObject& o, SimTime at) {
  if (const auto* g = std::get_if<k8s::GangObject>(&o.body)) return AddGang(c, o, *g, at), true;
  if (const auto* pg = std::get_if<k8s::PodGroupObject>(&o.body)) {
    return AddPodGroup(c, o, *pg, at), true;
  }
  const auto* pod = std::get_if<k8s::PodObject>(&o.body);
  if (pod == nullptr || o.queue_name.empty()) return false;
  const int32_t queue = ManifestLocalQueue(c, o);
  const TemplateId tmpl = AddManifestTemplate(c, o, pod->pod, false);
  if (!c.ctx->ok()) return true;
  c.scenario->workloads.emplace_back(JobSpec{.name = o.name,
                                             .at = at,
                                             .completions = 1,
                                             .parallelism = 1,
                                             .backoff_limit = 0,
                                             .tmpl = tmpl,
                                             .on_disruption = DisruptionAction::kCount,
                                             .local_queue = queue});
  CheckManifestAdmission(c, o);
  return true;
}

int32_t ManifestLocalQueue(const ManifestContext& c, const ManifestObject& o) {
  if (o.queue_name.empty()) return -1;
  const bool managed = std::holds_alternative<k8s::JobObject>(o.body) ||
                       std::holds_alternative<k8s::GangObject>(o.body);
  const auto* pod = std::get_if<k8s::PodObject>(&o.body);
  const std::string& restart = pod != nullptr ? pod->pod.spec.restart_policy : "";
  if (!managed && !(pod != nullptr && (restart == "Never" || restart == "OnFailure"))) {
    c.ctx->Fail(ErrorAt(o.queue_place,
                        "Kueue manages Jobs, PyTorchJobs, JobSets and Pods that end "
                        "in migsim, not a " +
                            o.kind + (pod != nullptr ? " with restartPolicy Always" : "")));
    return -1;
  }
  if (!c.scenario->kueue) {
    c.ctx->Fail(ErrorAt(o.queue_place, "queue-name '" + o.queue_name +
                                           "': there is no Kueue LocalQueue (in the manifests or "
                                           "the scenario's kueue section)"));
    return -1;
  }
  std::vector<std::string> valid;
  const std::vector<LocalQueueSpec>& queues = c.scenario->kueue->local_queues;
  for (size_t i = 0; i < queues.size(); ++i) {
    if (c.scenario->namespaces[static_cast<size_t>(queues[i].namespace_index)] != o.ns) continue;
    if (queues[i].name == o.queue_name) return static_cast<int32_t>(i);
    valid.push_back(queues[i].name);
  }
  c.ctx->Fail(ErrorAt(o.queue_place, UnknownNameMessage("LocalQueue", o.queue_name, valid) +
                                         " in namespace '" + o.ns + "'"));
  return -1;
}

void CheckManifestAdmission(const ManifestContext& c, const ManifestObject& o) {
  const std::string problem = NeverAdmittedProblem(*c.scenario, c.scenario->workloads.back());
  if (!problem.empty()) c.ctx->Fail(ErrorAt(o.place, problem));
}

}  // namespace migsim::io

// Workloads Kueue manages: `queue_name` (Kueue's kueue.x-k8s.io/queue-name label) names a
// LocalQueue of the workload's namespace; each managed workload's request must be one its
// ClusterQueue could ever admit; its templates get a copy per flavor combination with the
// flavors' node labels, which the pods of an admitted workload are stamped from.

#include <algorithm>

#include "sim/controllers/kueue/kueue_quota.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {

int32_t ReadQueueName(LoadContext* ctx, const JsonRef& ref, int32_t ns, const Scenario& scenario) {
  const std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return -1;
  if (!scenario.kueue) {
    ctx->Fail(ref.pointer(), "queue_name '" + *name + "': the scenario has no kueue section");
    return -1;
  }
  std::vector<std::string> valid;
  const std::vector<LocalQueueSpec>& queues = scenario.kueue->local_queues;
  for (size_t i = 0; i < queues.size(); ++i) {
    if (queues[i].namespace_index != ns) continue;
    if (queues[i].name == *name) return static_cast<int32_t>(i);
    valid.push_back(queues[i].name);
  }
  ctx->Fail(ref.pointer(), UnknownNameMessage("LocalQueue", *name, valid) + " in namespace '" +
                               scenario.namespaces[static_cast<size_t>(ns)] + "'");
  return -1;
}

namespace {

// The whole request of `count` pods of `t`, by KueueSpec::resources; the first resource
// the queue's kueue does not cover is reported instead.
std::optional<std::vector<int64_t>> Request(const PodTemplate& t, int64_t count,
                                            const Scenario& scenario, std::string* uncovered) {
  const KueueSpec& kueue = *scenario.kueue;
  std::vector<int64_t> request(kueue.resources.size(), 0);
  auto add = [&](const std::string& name, int64_t amount) {
    if (amount == 0) return;
    const auto it = std::find(kueue.resources.begin(), kueue.resources.end(), name);
    if (it == kueue.resources.end()) {
      if (uncovered->empty()) *uncovered = name;
      return;
    }
    request[static_cast<size_t>(it - kueue.resources.begin())] += count * amount;
  };
  add("cpu", t.requests.cpu_milli);
  add("memory", t.requests.memory_mib);
  for (const ResourceRequest& e : t.requests.extended) {
    add(scenario.resources.name(e.resource), e.count);
  }
  if (!uncovered->empty()) return std::nullopt;
  return request;
}

std::string NotCovered(const std::string& resource, const ClusterQueueSpec& cq,
                       const KueueSpec& kueue) {
  std::string covered;
  for (const ResourceGroup& g : cq.groups) {
    for (int32_t r : g.covered) covered += (covered.empty() ? "" : ", ") + kueue.resources[r];
  }
  return resource + ", which it does not cover (coveredResources: " + covered + ")";
}

// Why the queue could never admit `request` (Kueue would leave it pending forever), or "".
std::string NeverAdmitted(const std::vector<int64_t>& request, int32_t cq, const KueueSpec& kueue) {
  const QuotaBook book(kueue);
  const ClusterQueueSpec& spec = kueue.cluster_queues[cq];
  for (size_t r = 0; r < request.size(); ++r) {
    const bool covered = std::any_of(spec.groups.begin(), spec.groups.end(), [&](const auto& g) {
      return std::count(g.covered.begin(), g.covered.end(), static_cast<int32_t>(r)) > 0;
    });
    if (request[r] > 0 && !covered) return NotCovered(kueue.resources[r], spec, kueue);
  }
  for (const ResourceGroup& g : spec.groups) {
    auto capacity = [&](const FlavorQuotas& f, int32_t r) {
      return book.Capacity(cq, book.Index(f.flavor, r));
    };
    const bool fits = std::any_of(g.flavors.begin(), g.flavors.end(), [&](const FlavorQuotas& f) {
      return std::all_of(g.covered.begin(), g.covered.end(),
                         [&](int32_t r) { return request[r] <= capacity(f, r); });
    });
    if (fits) continue;
    for (int32_t r : g.covered) {
      int64_t most = 0;
      for (const FlavorQuotas& f : g.flavors) most = std::max(most, capacity(f, r));
      if (request[r] > most) {
        return std::to_string(request[r]) + " " + kueue.resources[r] +
               ", more than it could ever hold in one flavor (at most " + std::to_string(most) +
               ")";
      }
    }
    return "resources no single flavor of it could ever hold together";
  }
  return "";
}

// The flavor combinations an admitted workload of `request` may get in `cq`: one flavor
// per resource group it asks something of.
std::vector<std::vector<int32_t>> FlavorCombinations(const std::vector<int64_t>& request,
                                                     const ClusterQueueSpec& cq) {
  std::vector<std::vector<int32_t>> combos = {{}};
  for (const ResourceGroup& g : cq.groups) {
    const bool asks =
        std::any_of(g.covered.begin(), g.covered.end(), [&](int32_t r) { return request[r] > 0; });
    if (!asks) continue;
    std::vector<std::vector<int32_t>> next;
    for (const std::vector<int32_t>& combo : combos) {
      for (const FlavorQuotas& f : g.flavors) {
        next.push_back(combo);
        next.back().push_back(f.flavor);
        std::sort(next.back().begin(), next.back().end());
      }
    }
    combos = std::move(next);
  }
  return combos;
}

// A copy of `base` whose node selector adds the flavors' node labels.
TemplateId AddFlavoredTemplate(TemplateId base, const std::vector<int32_t>& flavors,
                               Scenario* scenario) {
  PodTemplate t = scenario->templates[base.value()];
  for (int32_t f : flavors) {
    const Labels& labels = scenario->kueue->flavors[f].node_labels;
    t.node_selector.insert(t.node_selector.end(), labels.begin(), labels.end());
  }
  std::sort(t.node_selector.begin(), t.node_selector.end());
  t.node_selector.erase(std::unique(t.node_selector.begin(), t.node_selector.end()),
                        t.node_selector.end());
  scenario->templates.push_back(std::move(t));
  const TemplateId id(static_cast<TemplateId::Rep>(scenario->templates.size() - 1));
  scenario->kueue->flavored_templates.push_back({base, flavors, id});
  return id;
}

}  // namespace

namespace {

// What a managed workload asks Kueue for: its name, LocalQueue, template and pod count
// (a Job: min(parallelism, completions); a DistributedJob: its workers, as one gang).
struct Managed {
  std::string name;
  int32_t local_queue = -1;
  TemplateId tmpl;
  int64_t count = 0;
};

std::optional<Managed> ManagedOf(const WorkloadSpec& w) {
  if (const auto* job = std::get_if<JobSpec>(&w); job && job->local_queue >= 0) {
    return Managed{job->name, job->local_queue, job->tmpl,
                   std::min(job->parallelism, job->completions)};
  }
  if (const auto* dj = std::get_if<DistributedJobSpec>(&w); dj && dj->local_queue >= 0) {
    return Managed{dj->name, dj->local_queue, dj->tmpl, dj->workers};
  }
  return std::nullopt;
}

}  // namespace

std::string NeverAdmittedProblem(const Scenario& scenario, const WorkloadSpec& w) {
  const std::optional<Managed> job = ManagedOf(w);
  if (!scenario.kueue || !job) return "";
  const int32_t cq = scenario.kueue->local_queues[job->local_queue].cluster_queue;
  const ClusterQueueSpec& spec = scenario.kueue->cluster_queues[cq];
  std::string uncovered;
  const auto request =
      Request(scenario.templates[job->tmpl.value()], job->count, scenario, &uncovered);
  const std::string why = request ? NeverAdmitted(*request, cq, *scenario.kueue)
                                  : NotCovered(uncovered, spec, *scenario.kueue);
  if (why.empty()) return "";
  return "ClusterQueue '" + spec.name + "' could never admit this workload (" +
         std::to_string(job->count) + " pods at once): it asks for " + why;
}

void FinishKueue(LoadContext* ctx, Scenario* scenario) {
  if (!scenario->kueue) return;
  for (const WorkloadSpec& w : scenario->workloads) {
    const std::optional<Managed> job = ManagedOf(w);
    if (!job) continue;
    if (const std::string problem = NeverAdmittedProblem(*scenario, w); !problem.empty()) {
      ctx->Fail("/workloads/" + EscapePointerToken(job->name), problem);
      return;
    }
    const ClusterQueueSpec& spec =
        scenario->kueue
            ->cluster_queues[scenario->kueue->local_queues[job->local_queue].cluster_queue];
    std::string uncovered;
    const auto request =
        Request(scenario->templates[job->tmpl.value()], job->count, *scenario, &uncovered);
    for (const std::vector<int32_t>& flavors : FlavorCombinations(*request, spec)) {
      const auto& done = scenario->kueue->flavored_templates;
      const bool exists = std::any_of(done.begin(), done.end(), [&](const FlavoredTemplate& t) {
        return t.base == job->tmpl && t.flavors == flavors;
      });
      if (!exists) AddFlavoredTemplate(job->tmpl, flavors, scenario);
    }
  }
}

}  // namespace migsim::io

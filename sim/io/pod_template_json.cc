// Pod templates (the `template` field of workloads and steps).

#include <algorithm>
#include <cctype>

#include "sim/controllers/node_groups/autoscaler_annotations.h"
#include "sim/io/quantity.h"
#include "sim/io/scenario_sections_json.h"

namespace migsim::io {
namespace {

std::vector<std::string> JobClassNames(const std::vector<JobClass>& classes) {
  std::vector<std::string> names;
  for (const JobClass& job_class : classes) names.push_back(job_class.name);
  return names;
}

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Kubernetes only accepts extended resources with a domain ("nvidia.com/gpu"), so a bare
// "gpu" is a typo here, not a resource no node will ever offer.
PodRequests LoadRequests(LoadContext* ctx, const JsonRef& ref, ResourceTable* resources) {
  PodRequests requests;
  if (!ExpectObject(ctx, ref)) return requests;
  for (const auto& [name, value] : ref.value().items()) {
    const JsonRef field = ref.Member(name);
    if (name == "cpu") {
      requests.cpu_milli = ReadQuantity(ctx, field, &ParseCpuMilli);
    } else if (name == "memory") {
      requests.memory_mib = ReadQuantity(ctx, field, &ParseMemoryMib);
    } else if (name.find('/') == std::string::npos) {
      ctx->Fail(field.pointer(), "unknown resource '" + name +
                                     "' (expected cpu, memory or an extended resource with a "
                                     "domain, such as nvidia.com/gpu)");
    } else if (const std::string problem = ExtendedResourceProblem(name); !problem.empty()) {
      ctx->Fail(field.pointer(), problem);
    } else if (std::optional<int64_t> count = ReadInt(ctx, field, 1)) {
      requests.extended.push_back({resources->Intern(name), static_cast<int32_t>(*count)});
    }
    if (!ctx->ok()) return requests;
  }
  std::sort(
      requests.extended.begin(), requests.extended.end(),
      [](const ResourceRequest& a, const ResourceRequest& b) { return a.resource < b.resource; });
  return requests;
}

// spec.nodeName: a node of the cluster, by its name (`<pool>-<index>`).
NodeId ReadNodeName(LoadContext* ctx, const JsonRef& ref, const ClusterSpec& cluster) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return NodeId::Invalid();
  for (size_t i = 0; i < cluster.nodes.size(); ++i) {
    if (cluster.nodes[i].name == *name) return NodeId(static_cast<NodeId::Rep>(i));
  }
  ctx->Fail(ref.pointer(), "no node named '" + *name +
                               "' in the cluster (nodes are named <pool>-<index>, from 0)");
  return NodeId::Invalid();
}

}  // namespace

int64_t ReadQuantity(LoadContext* ctx, const JsonRef& ref,
                     Result<int64_t> (*parse)(std::string_view)) {
  const Json& value = ref.value();
  std::string text;
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_number()) {
    text = value.dump();  // exact decimal digits: 0.1 stays "0.1"
  } else {
    ctx->Fail(ref.pointer(), "expected a number or a quantity string, got " + TypeName(value));
    return 0;
  }
  Result<int64_t> parsed = parse(text);
  if (!parsed.ok()) {
    ctx->Fail(ref.pointer(), parsed.status().message());
    return 0;
  }
  return parsed.value();
}

std::string ExtendedResourceProblem(std::string_view name) {
  const size_t slash = name.find('/');
  const std::string quoted = "'" + std::string(name) + "'";
  if (slash == std::string_view::npos) {
    return "a resource name needs a domain, such as example.com/gpu-milli (got " + quoted + ")";
  }
  const std::string_view domain = name.substr(0, slash), local = name.substr(slash + 1);
  const bool domain_ok =
      !domain.empty() && domain.size() <= 253 && IsAlnum(domain.front()) &&
      IsAlnum(domain.back()) && std::all_of(domain.begin(), domain.end(), [](char c) {
        return (IsAlnum(c) && !std::isupper(static_cast<unsigned char>(c))) || c == '-' || c == '.';
      });
  if (!domain_ok) {
    return "resource " + quoted + ": the domain must be lowercase letters, digits, '-' and '.'";
  }
  const bool local_ok =
      !local.empty() && local.size() <= 63 && IsAlnum(local.front()) && IsAlnum(local.back()) &&
      std::all_of(local.begin(), local.end(),
                  [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
  if (!local_ok) {
    return "resource " + quoted +
           ": after the '/' come 1 to 63 letters, digits, '-', '_' or '.', starting and ending "
           "with a letter or digit";
  }
  return "";
}

JobClassId FindJobClass(LoadContext* ctx, const JsonRef& ref,
                        const std::vector<JobClass>& classes) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name) return JobClassId::Invalid();
  for (size_t i = 0; i < classes.size(); ++i) {
    if (classes[i].name == *name) return JobClassId(static_cast<JobClassId::Rep>(i));
  }
  ctx->Fail(ref.pointer(), UnknownNameMessage("job class", *name, JobClassNames(classes)));
  return JobClassId::Invalid();
}

TemplateId LoadPodTemplate(LoadContext* ctx, const JsonRef& tmpl, TemplateRun run,
                           Scenario* scenario) {
  ObjectReader r(ctx, tmpl,
                 {"job_class", "resources", "node_selector", "labels", "priorityClassName",
                  "terminationGracePeriodSeconds", "tolerations", "nodeName", "resource_claims",
                  "annotations"});
  if (!r.valid()) return TemplateId::Invalid();
  PodTemplate pod;
  pod.runs_forever = run == TemplateRun::kForever;
  if (run == TemplateRun::kJobClass) r.Require("job_class");
  if (r.Has("job_class")) {
    pod.job_class = FindJobClass(ctx, r.Field("job_class"), scenario->job_classes);
  }
  if (r.Has("resources")) {
    pod.requests = LoadRequests(ctx, r.Field("resources"), &scenario->resources);
  }
  if (r.Has("node_selector")) pod.node_selector = ReadLabels(ctx, r.Field("node_selector"));
  if (r.Has("labels")) pod.labels = ReadLabels(ctx, r.Field("labels"));
  if (r.Has("annotations") && ctx->ok()) {
    const Labels annotations = ReadLabels(ctx, r.Field("annotations"));
    if (ctx->ok()) {
      if (const std::optional<std::string> bad = ApplyAutoscalerAnnotations(annotations, &pod)) {
        ctx->Fail(r.Field("annotations").pointer(), *bad);
      }
    }
  }
  if (r.Has("tolerations")) pod.tolerations = ReadTolerations(ctx, r.Field("tolerations"));
  if (r.Has("nodeName")) {
    pod.node_name = ReadNodeName(ctx, r.Field("nodeName"), scenario->cluster);
  }
  if (r.Has("resource_claims") && ctx->ok()) {
    PodClaims claims = LoadResourceClaims(ctx, r.Field("resource_claims"), scenario->device_classes,
                                          scenario->shared_claims);
    pod.resource_claims = std::move(claims.own);
    pod.shared_claims = std::move(claims.shared);
    // The scheduler allocates a shared claim and pins its pods; a pod bound by name skips it.
    if (ctx->ok() && pod.node_name.valid() && !pod.shared_claims.empty()) {
      ctx->Fail(r.Field("nodeName").pointer(),
                "a pod bound by nodeName cannot use a shared ResourceClaim (the scheduler "
                "allocates it and places the pods that use it)");
    }
  }
  pod.termination_grace = r.Seconds("terminationGracePeriodSeconds", pod.termination_grace);
  if (ctx->ok()) ApplyPriorityClass(ctx, r, *scenario, &pod);
  if (!ctx->ok()) return TemplateId::Invalid();
  scenario->templates.push_back(std::move(pod));
  return TemplateId(static_cast<TemplateId::Rep>(scenario->templates.size() - 1));
}

}  // namespace migsim::io

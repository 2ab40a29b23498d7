// `spec.affinity` and `spec.tolerations`. Required node affinity is honoured when migsim can
// (one nodeSelectorTerm of `In` expressions, kube-scheduler's NodeAffinity filter); a
// required term it cannot honour is an error, since dropping it would place pods where
// Kubernetes never would. Preferences and inter-pod affinity only move pods between nodes
// that fit: warnings.

#include <algorithm>

#include "sim/io/k8s/pod_spec_model.h"

namespace migsim::k8s {
namespace {

LabelIn ReadExpression(const ManifestNode& e, ManifestLog* log) {
  LabelIn term;
  if (!e.ExpectMap(log)) return term;
  term.key = e["key"].String(log);
  const ManifestNode op = e["operator"];
  if (const std::string name = op.String(log); log->ok() && name != "In") {
    op.Fail(log, "operator '" + name +
                     "' is not modelled: migsim's node affinity supports In only (use "
                     "nodeSelector or an In expression)");
    return term;
  }
  for (const ManifestNode& v : e["values"].Elements(log)) term.values.push_back(v.String(log));
  if (log->ok() && (term.key.empty() || term.values.empty())) {
    e.Fail(log, "an In expression needs a key and at least one value");
  }
  std::sort(term.values.begin(), term.values.end());
  return term;
}

void ReadRequired(const ManifestNode& required, ManifestLog* log, PodSpecModel* out) {
  const ManifestNode terms = required["nodeSelectorTerms"];
  const std::vector<ManifestNode> list = terms.Elements(log);
  if (log->ok() && list.size() != 1) {
    terms.Fail(log, "migsim honours exactly one nodeSelectorTerm (terms are alternatives), got " +
                        std::to_string(list.size()));
    return;
  }
  for (const ManifestNode& term : list) {
    if (const ManifestNode fields = term["matchFields"]; fields.present()) {
      fields.Fail(log, "matchFields (node names) is not modelled; use matchExpressions");
      return;
    }
    for (const ManifestNode& e : term["matchExpressions"].Elements(log)) {
      out->node_affinity.push_back(ReadExpression(e, log));
    }
  }
  std::sort(out->node_affinity.begin(), out->node_affinity.end(),
            [](const LabelIn& a, const LabelIn& b) { return a.key < b.key; });
}

std::optional<TaintEffect> ReadEffect(const ManifestNode& node, ManifestLog* log) {
  const std::string name = node.String(log);
  const std::optional<TaintEffect> effect = ParseTaintEffect(name);
  if (!effect && log->ok()) {
    node.Fail(log, "unknown taint effect '" + name +
                       "' (valid: NoSchedule, PreferNoSchedule, NoExecute)");
  }
  return effect;
}

}  // namespace

void ReadAffinity(const ManifestNode& affinity, ManifestLog* log, PodSpecModel* out) {
  const ManifestNode node = affinity["nodeAffinity"];
  const ManifestNode required = node["requiredDuringSchedulingIgnoredDuringExecution"];
  if (required.present()) ReadRequired(required, log, out);
  const ManifestNode preferred = node["preferredDuringSchedulingIgnoredDuringExecution"];
  if (preferred.present()) {
    preferred.Warn(log, "preferred node affinity only scores nodes: not modelled");
  }
  for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
    if (const ManifestNode pods = affinity[kind]; pods.present()) {
      pods.Warn(log, "inter-pod affinity is not modelled: pods are placed as if without it");
    }
  }
}

Tolerations ReadTolerationList(const ManifestNode& list, ManifestLog* log) {
  Tolerations out;
  for (const ManifestNode& t : list.Elements(log)) {
    if (!t.ExpectMap(log)) break;
    Toleration toleration;
    toleration.key = t["key"].String(log);
    if (t["operator"].Choice(log, "toleration operator", {"Equal", "Exists"}) == 1) {
      toleration.op = TolerationOperator::kExists;
    }
    toleration.value = t["value"].String(log);
    if (t["effect"].present() && !t["effect"].String(log).empty()) {
      toleration.effect = ReadEffect(t["effect"], log);
    }
    if (const std::string problem = TolerationProblem(toleration); !problem.empty() && log->ok()) {
      t.Fail(log, problem);
    }
    out.push_back(std::move(toleration));
  }
  return out;
}

}  // namespace migsim::k8s

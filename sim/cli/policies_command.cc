#include "sim/cli/policies_command.h"

#include <cstdio>
#include <string>

#include "policies/plugin/migsim_policy_plugin.h"
#include "policies/queue/queue_orders.h"
#include "policies/registry.h"
#include "sim/report/catalog_json.h"

namespace migsim {
namespace {

std::string DefaultText(const ParamSpec& p) {
  if (const auto* b = std::get_if<bool>(&p.default_value)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<int64_t>(&p.default_value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&p.default_value)) return std::to_string(*d);
  if (const auto* s = std::get_if<std::string>(&p.default_value)) return "\"" + *s + "\"";
  return "[]";
}

}  // namespace

int PoliciesCommand(bool json) {
  if (json) {
    std::fputs(FormatPoliciesJson().c_str(), stdout);
    return 0;
  }
  for (const PolicyInfo& info : PolicyCatalog()) {
    std::printf("%-16s %s%s\n", std::string(info.name).c_str(), std::string(info.summary).c_str(),
                info.scores ? " [scores: usable in \"scored\"]" : "");
    for (const ParamSpec& p : info.params) {
      std::printf("  %-14s %s, %s: %s\n", p.name.c_str(), ParamKindName(p.kind),
                  p.required ? "required" : ("default " + DefaultText(p)).c_str(), p.doc.c_str());
    }
  }
  std::printf(
      "\nIn a scenario: \"policy\": {\"name\": \"mig-best-fit\", \"params\": {\"dynamic\": true}}\n"
      "A policy from a shared library: \"policy\": {\"library\": \"libmine.so\", \"params\": {}}\n"
      "(policies/README.md; plugin ABI versions %u to %u).\n",
      MIGSIM_POLICY_ABI_OLDEST, MIGSIM_POLICY_ABI_VERSION);
  std::printf("\nQueue orders, in a scenario's \"scheduler\": {\"queue_order\": NAME}:\n");
  for (const QueueOrderInfo& info : QueueOrderCatalog()) {
    std::printf("%-16s %s\n", std::string(info.name).c_str(), std::string(info.summary).c_str());
  }
  return 0;
}

}  // namespace migsim

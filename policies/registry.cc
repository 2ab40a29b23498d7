#include "policies/registry.h"

#include "policies/best_fit.h"
#include "policies/first_fit.h"
#include "policies/gpu_share_adapter.h"
#include "policies/gpu_share_policies.h"
#include "policies/spread.h"

namespace migsim {
namespace {

struct Entry {
  std::string_view name;
  std::unique_ptr<Policy> (*make)();
};

template <typename P>
std::unique_ptr<Policy> Make() {
  return std::make_unique<P>();
}

constexpr Entry kPolicies[] = {
    {"first-fit", &Make<FirstFitPolicy>},
    {"best-fit", &Make<BestFitPolicy>},
    {"spread", &Make<SpreadPolicy>},
};

}  // namespace

std::unique_ptr<Policy> MakePolicy(std::string_view name) {
  for (const Entry& e : kPolicies) {
    if (e.name == name) return e.make();
  }
  // The GPU-sharing policies of the openb study, for nodes with fractional shares.
  for (const std::string& share : GpuSharePolicyNames()) {
    if (share == name) return std::make_unique<GpuShareAdapter>(share);
  }
  return nullptr;
}

std::vector<std::string> PolicyNames() {
  std::vector<std::string> names;
  for (const Entry& e : kPolicies) names.emplace_back(e.name);
  for (const std::string& share : GpuSharePolicyNames()) names.push_back(share);
  return names;
}

}  // namespace migsim

#pragma once
// What a scenario says about its policy: a name (or a shared library) and parameters,
// validated by the loader against the policy's ParamSpecs before a policy is made, so a
// factory reads them without checking. No JSON here: policies stay free of the parser.

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace migsim {

struct WeightedPlugin;
using ParamValue = std::variant<double, int64_t, bool, std::string, std::vector<WeightedPlugin>>;

struct PolicySpec {
  std::string name = "first-fit";
  // Parameters by name: every parameter the policy declares, defaults filled in.
  std::map<std::string, ParamValue> params{};
  std::string library{};      // a shared-library policy: its path; `name` is then its own
  std::string params_json{};  // the "params" object as written (for plugins), or "{}"
  // A library that supplies a queue order (exports migsim_policy_queue_less): set by the
  // loader, which checks scheduler.queue_order "policy" against it.
  bool supplies_queue_order = false;

  // The name shown in results: the policy's name.
  const std::string& label() const { return name; }

  // Typed access. REQUIRES: the parameter was declared with that kind (the loader filled
  // it in), so a factory never sees a missing or mistyped value.
  double Number(const std::string& key) const { return std::get<double>(params.at(key)); }
  int64_t Integer(const std::string& key) const { return std::get<int64_t>(params.at(key)); }
  bool Bool(const std::string& key) const { return std::get<bool>(params.at(key)); }
  const std::string& String(const std::string& key) const {
    return std::get<std::string>(params.at(key));
  }
  const std::vector<WeightedPlugin>& Plugins(const std::string& key) const {
    return std::get<std::vector<WeightedPlugin>>(params.at(key));
  }
};

// A score plugin and its weight in a composed policy (kube-scheduler profiles' form).
struct WeightedPlugin {
  PolicySpec plugin;
  double weight = 1;
};

enum class ParamKind { kNumber, kInteger, kBool, kString, kScorePlugins };

// One parameter a policy declares: the loader checks kind and range and fills in the
// default; `doc` is what `migsim policies` and scenarios/README.md say of it.
struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::kNumber;
  ParamValue default_value{};
  std::string doc{};
  double min = -std::numeric_limits<double>::infinity();  // numbers and integers
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices{};  // strings: the allowed values (empty: any)
  bool required = false;               // no default: the scenario must give it
};

}  // namespace migsim

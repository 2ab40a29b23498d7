#include "sim/io/policy_file.h"

#include "policies/registry.h"
#include "sim/io/input_file.h"
#include "sim/io/policy_json.h"

namespace migsim {
namespace {

// `label` names the text in errors; relative paths resolve against its directory (none
// for a label without one: the current directory).
Result<LoadedPolicy> LoadFrom(std::string_view text, const std::string& label) {
  Result<io::Json> doc = io::CatchJsonErrors(label, [&] { return io::ParseJson(text, label); });
  if (!doc.ok()) return doc.status();
  return io::CatchJsonErrors(label, [&]() -> Result<LoadedPolicy> {
    io::LoadContext ctx(label);
    LoadedPolicy loaded{io::LoadPolicySpec(&ctx, io::JsonRef(doc.value(), ""))};
    if (!ctx.ok()) return ctx.status();
    const io::Json& json = doc.value();
    loaded.seeds_itself = json.contains("params") && json["params"].is_object() &&
                          json["params"].contains(std::string(kPolicySeedParam));
    return loaded;
  });
}

}  // namespace

Result<LoadedPolicy> LoadPolicyFile(const std::string& path) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  return LoadFrom(text.value(), path);
}

Result<LoadedPolicy> LoadPolicyText(std::string_view json, const std::string& label) {
  return LoadFrom(json, label);
}

}  // namespace migsim

#include "sim/io/mig_parted_yaml.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "sim/io/input_file.h"
#include "sim/io/yaml_documents.h"

namespace migsim {
namespace {

// An error at a node of the document, by its line.
struct YamlError {
  std::string message;
  int line;
};

int LineOf(const YAML::Node& node) { return node.Mark().line + 1; }

[[noreturn]] void Fail(const YAML::Node& node, const std::string& message) {
  throw YamlError{message, LineOf(node)};
}

void ExpectKeys(const YAML::Node& map, const std::set<std::string>& allowed, const char* what) {
  if (!map.IsMap()) Fail(map, std::string(what) + " must be a mapping");
  for (const auto& entry : map) {
    const std::string key = entry.first.as<std::string>();
    if (allowed.count(key) == 0) {
      std::string names;
      for (const std::string& a : allowed) names += (names.empty() ? "" : ", ") + a;
      Fail(entry.first,
           "unknown key '" + key + "' in " + what + " (expected one of: " + names + ")");
    }
  }
}

std::string Scalar(const YAML::Node& node, const char* what) {
  if (!node.IsScalar()) Fail(node, std::string(what) + " must be a single value");
  return node.as<std::string>();
}

int64_t NonNegativeInt(const YAML::Node& node, const char* what) {
  const std::string text = Scalar(node, what);
  int64_t v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size() || v < 0 || v > 1000000) {
    Fail(node, std::string(what) + " '" + text + "' is not an integer in 0..1000000");
  }
  return v;
}

std::vector<int> Devices(const YAML::Node& node) {
  if (node.IsScalar()) {
    if (node.as<std::string>() != "all")
      Fail(node, "devices must be 'all' or a list of GPU indices");
    return {};
  }
  if (!node.IsSequence() || node.size() == 0) {
    Fail(node, "devices must be 'all' or a list of GPU indices");
  }
  std::vector<int> devices;
  for (const YAML::Node& d : node) {
    const int index = static_cast<int>(NonNegativeInt(d, "a GPU index"));
    if (std::find(devices.begin(), devices.end(), index) != devices.end()) {
      Fail(d, "GPU " + std::to_string(index) + " is listed twice");
    }
    devices.push_back(index);
  }
  return devices;
}

// "0x20B010DE": PCI device 0x20B0 of vendor 0x10DE.
uint32_t DeviceId(const YAML::Node& node) {
  const std::string text = Scalar(node, "a device filter");
  uint32_t value = 0;
  const bool hex = text.size() == 10 && (text.starts_with("0x") || text.starts_with("0X"));
  const auto [end, error] = std::from_chars(text.data() + 2, text.data() + text.size(), value, 16);
  if (!hex || error != std::errc() || end != text.data() + text.size()) {
    Fail(node, "device filter '" + text + "' is not 0x<device><vendor>, e.g. 0x20B010DE");
  }
  return value >> 16;
}

MigPartedSpec ReadSpec(const YAML::Node& node) {
  ExpectKeys(node, {"devices", "device-filter", "mig-enabled", "mig-devices"}, "a spec");
  MigPartedSpec spec;
  spec.line = LineOf(node);
  for (const char* required : {"devices", "mig-enabled"}) {
    if (!node[required]) Fail(node, std::string("a spec needs '") + required + "'");
  }
  spec.devices = Devices(node["devices"]);
  if (const YAML::Node filter = node["device-filter"]) {
    if (filter.IsSequence()) {
      for (const YAML::Node& f : filter) spec.filter.push_back(DeviceId(f));
    } else {
      spec.filter.push_back(DeviceId(filter));
    }
  }
  const std::string enabled = Scalar(node["mig-enabled"], "mig-enabled");
  if (enabled != "true" && enabled != "false")
    Fail(node["mig-enabled"], "mig-enabled must be true or false");
  spec.mig_enabled = enabled == "true";
  const YAML::Node devices = node["mig-devices"];
  if (spec.mig_enabled && !devices)
    Fail(node, "a spec with mig-enabled: true needs 'mig-devices' ({} for none)");
  if (!devices) return spec;
  if (!devices.IsMap()) Fail(devices, "mig-devices must map profiles to counts");
  if (!spec.mig_enabled && devices.size() > 0)
    Fail(devices, "mig-devices must be empty when mig-enabled is false");
  for (const auto& entry : devices) {
    spec.mig_devices.emplace_back(entry.first.as<std::string>(),
                                  static_cast<int>(NonNegativeInt(entry.second, "a count")));
  }
  return spec;
}

MigPartedFile Read(const YAML::Node& root, const std::string& path) {
  if (!root.IsDefined() || root.IsNull())
    throw YamlError{"empty file: expected version and mig-configs", 1};
  ExpectKeys(root, {"version", "mig-configs"}, "the file");
  if (!root["version"]) Fail(root, "missing 'version' (v1)");
  if (Scalar(root["version"], "version") != "v1") {
    Fail(root["version"],
         "unknown version '" + root["version"].as<std::string>() + "' (expected v1)");
  }
  const YAML::Node configs = root["mig-configs"];
  if (!configs || !configs.IsMap() || configs.size() == 0) {
    Fail(configs ? configs : root, "mig-configs must name at least one config");
  }
  MigPartedFile file{.path = path, .configs = {}};
  for (const auto& entry : configs) {
    const std::string name = entry.first.as<std::string>();
    if (!entry.second.IsSequence() || entry.second.size() == 0) {
      Fail(entry.first, "config '" + name + "' needs a list of at least one spec");
    }
    if (file.configs.count(name) > 0) Fail(entry.first, "config '" + name + "' is defined twice");
    std::vector<MigPartedSpec>& specs = file.configs[name];
    for (const YAML::Node& spec : entry.second) specs.push_back(ReadSpec(spec));
  }
  return file;
}

}  // namespace

Result<MigPartedFile> ParseMigParted(std::string_view text, const std::string& path) {
  Result<std::vector<YAML::Node>> documents = LoadYamlDocuments(text, path);
  if (!documents.ok()) return documents.status();
  if (documents.value().size() > 1) {
    return Status::InvalidArgument(
        "a mig-parted config is one YAML document, found " +
            std::to_string(documents.value().size()),
        {path, "line " + std::to_string(documents.value()[1].Mark().line + 1)});
  }
  try {
    return Read(documents.value().empty() ? YAML::Node() : documents.value().front(), path);
  } catch (const YamlError& e) {
    return Status::InvalidArgument(e.message, {path, "line " + std::to_string(e.line)});
  } catch (const YAML::Exception& e) {
    return Status::ParseError("malformed YAML: " + e.msg,
                              {path, "line " + std::to_string(e.mark.line + 1)});
  }
}

Result<MigPartedFile> LoadMigPartedFile(const std::string& path) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  return ParseMigParted(text.value(), path);
}

}  // namespace migsim

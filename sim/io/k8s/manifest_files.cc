// Reading the manifest files a scenario names: files, or directories of them.

#include <algorithm>
#include <filesystem>

#include "sim/io/input_file.h"
#include "sim/io/k8s/manifest_scenario.h"

namespace migsim::io {
namespace {

bool IsManifestFile(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// A directory's manifest files in name order (a deterministic order on every system).
std::vector<std::string> FilesOf(const std::string& path, std::string* problem) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (entry.is_regular_file(error) && IsManifestFile(entry.path())) {
      files.push_back(entry.path().string());
    }
  }
  if (error) *problem = "cannot list directory '" + path + "': " + error.message();
  std::sort(files.begin(), files.end());
  if (files.empty() && problem->empty()) {
    *problem = "directory '" + path + "' has no .yaml, .yml or .json file";
  }
  return files;
}

void ReadFile(LoadContext* ctx, const std::string& file, k8s::ManifestSet* out) {
  Result<std::string> text = ReadInputFile(file);
  if (!text.ok()) return ctx->Fail(text.status());
  Result<k8s::ManifestSet> set = k8s::ParseManifests(text.value(), file);
  if (!set.ok()) return ctx->Fail(set.status());
  for (k8s::ManifestObject& o : set.value().objects) out->objects.push_back(std::move(o));
  for (std::string& w : set.value().warnings) out->warnings.push_back(std::move(w));
}

void ReadPath(LoadContext* ctx, const std::string& pointer, const std::string& path,
              k8s::ManifestSet* out) {
  std::error_code error;
  if (!std::filesystem::is_directory(path, error)) return ReadFile(ctx, path, out);
  std::string problem;
  const std::vector<std::string> files = FilesOf(path, &problem);
  if (!problem.empty()) return ctx->Fail(pointer, problem);
  for (const std::string& file : files) {
    ReadFile(ctx, file, out);
    if (!ctx->ok()) return;
  }
}

}  // namespace

std::optional<k8s::ManifestSet> ReadManifests(LoadContext* ctx, const JsonRef* list,
                                              const std::vector<std::string>& extra) {
  k8s::ManifestSet out;
  if (list != nullptr && ExpectArray(ctx, *list)) {
    for (size_t i = 0; i < list->value().size() && ctx->ok(); ++i) {
      const JsonRef entry = list->Element(i);
      const std::optional<std::string> path = ReadString(ctx, entry);
      if (path && path->empty()) ctx->Fail(entry.pointer(), "must not be empty");
      if (path && ctx->ok()) ReadPath(ctx, entry.pointer(), ctx->ResolvePath(*path), &out);
    }
  }
  for (size_t i = 0; i < extra.size() && ctx->ok(); ++i) ReadPath(ctx, "", extra[i], &out);
  if (!ctx->ok()) return std::nullopt;
  return out;
}

}  // namespace migsim::io

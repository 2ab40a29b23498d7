// GPU models and node types as data: `gpu_models`, `node_types` and catalog files (see
// README.md "GPU models and node types").

#include "sim/io/catalog_json.h"

#include <algorithm>
#include <cctype>

#include "sim/io/input_file.h"

namespace migsim::io {
namespace {

// Far above any GPU (a B200 has 183359 MiB and 148 SMs, 1000 W), low enough to catch a
// typo in units (bytes for MiB, mW for W).
constexpr int64_t kMaxGpuMemoryMib = 16 * 1024 * 1024;
constexpr int64_t kMaxSms = 100000;
constexpr double kMaxWatts = 100000;
// Node types, as for the node pools of cluster_json.cc.
constexpr int64_t kMaxGpusPerNode = 64;
constexpr int64_t kMaxVcpu = 100000;
constexpr double kMaxMemoryGib = 1048576;  // 1 PiB

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Kubernetes' label-value syntax (apimachinery validation.IsValidLabelValue): at most 63
// characters of [A-Za-z0-9._-], beginning and ending alphanumeric. GFD publishes the
// product label as the value of nvidia.com/gpu.product.
bool IsLabelValue(std::string_view text) {
  if (text.empty() || text.size() > 63 || !IsAlnum(text.front()) || !IsAlnum(text.back())) {
    return false;
  }
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return IsAlnum(c) || c == '.' || c == '_' || c == '-'; });
}

// "built in" or "defined earlier", for collision messages.
std::string Origin(const HardwareCatalog& catalog, const GpuModel& model) {
  return catalog.IsUser(model) ? "defined earlier" : "built in";
}

// The model's name, product label and aliases each name no other model, and no two of them
// repeat (the name may equal the label).
void CheckModelNames(LoadContext* ctx, const ObjectReader& r, const GpuModel& model,
                     const HardwareCatalog& catalog) {
  struct Key {
    std::string text, pointer, what;
  };
  std::vector<Key> keys = {
      {model.name, r.object().pointer(), "name"},
      {model.product_label, r.Field("product_label").pointer(), "product label"}};
  for (size_t i = 0; i < model.aliases.size(); ++i) {
    keys.push_back({model.aliases[i], r.Field("aliases").Element(i).pointer(), "alias"});
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (std::shared_ptr<const GpuModel> other = catalog.FindGpuModel(keys[i].text)) {
      ctx->Fail(keys[i].pointer, "'" + keys[i].text + "' is already a name, product label or " +
                                     "alias of GPU model '" + other->name + "' (" +
                                     Origin(catalog, *other) + "); give this " + keys[i].what +
                                     " another value");
      return;
    }
    if (i < 2) continue;  // the name and the product label may be equal
    for (size_t j = 0; j < i; ++j) {
      if (keys[j].text == keys[i].text) {
        ctx->Fail(keys[i].pointer, "'" + keys[i].text + "' repeats this model's " + keys[j].what);
        return;
      }
    }
  }
}

std::vector<std::string> ReadNonEmptyStrings(LoadContext* ctx, const JsonRef& ref) {
  std::vector<std::string> sources = ReadStringArray(ctx, ref);
  for (size_t i = 0; i < sources.size() && ctx->ok(); ++i) {
    if (sources[i].empty()) ctx->Fail(ref.Element(i).pointer(), "must not be empty");
  }
  return sources;
}

// An entry's sources: those its file gives for every entry, then its own.
std::vector<std::string> WithFileSources(LoadContext* ctx, const ObjectReader& r,
                                         const std::vector<std::string>& file_sources) {
  std::vector<std::string> sources = file_sources;
  if (r.Has("sources")) {
    for (std::string& own : ReadNonEmptyStrings(ctx, r.Field("sources"))) {
      sources.push_back(std::move(own));
    }
  }
  return sources;
}

std::shared_ptr<const GpuModel> LoadGpuModel(LoadContext* ctx, const std::string& name,
                                             const JsonRef& ref, const HardwareCatalog& catalog,
                                             const std::vector<std::string>& file_sources) {
  ObjectReader r(ctx, ref,
                 {"product_label", "aliases", "memory_mib", "sms", "max_watts", "idle_watts", "mig",
                  "sources"});
  if (!r.valid()) return nullptr;
  if (!IsPlainName(name)) {
    ctx->Fail(ref.pointer(),
              "'" + name + "' is not a GPU model name: use letters, digits, '.', '_' and '-'");
    return nullptr;
  }
  GpuModel model{.name = name};
  model.product_label = r.NonEmptyString("product_label");
  if (ctx->ok() && !IsLabelValue(model.product_label)) {
    ctx->Fail(r.Field("product_label").pointer(),
              "'" + model.product_label + "' is not a Kubernetes label value (at most 63 " +
                  "characters of letters, digits, '.', '_' and '-', alphanumeric at both ends)");
  }
  if (r.Has("aliases")) model.aliases = ReadNonEmptyStrings(ctx, r.Field("aliases"));
  for (const char* key : {"memory_mib", "sms", "max_watts", "idle_watts"}) r.Require(key);
  model.memory_mib = static_cast<int>(r.Int("memory_mib", 1, 1, kMaxGpuMemoryMib));
  model.sms = static_cast<int>(r.Int("sms", 1, 1, kMaxSms));
  model.max_watts = r.Number("max_watts", 1, 0, kMaxWatts);
  model.idle_watts = r.Number("idle_watts", 0, 0, kMaxWatts);
  if (ctx->ok() && !(model.idle_watts > 0 && model.idle_watts < model.max_watts)) {
    ctx->Fail(r.Field("idle_watts").pointer(),
              "must be > 0 and below max_watts (" + FormatNumber(model.max_watts) + ")");
  }
  model.sources = WithFileSources(ctx, r, file_sources);
  if (ctx->ok()) CheckModelNames(ctx, r, model, catalog);
  if (r.Has("mig") && ctx->ok()) LoadMig(ctx, r.Field("mig"), &model);
  if (!ctx->ok()) return nullptr;
  return std::make_shared<const GpuModel>(std::move(model));
}

// YYYY-MM-DD, YYYY-MM or YYYY (ISO 8601 calendar dates, reduced precision allowed: a price
// page often gives only the month).
bool IsDate(std::string_view text) {
  auto digits = [&](size_t at, size_t n) {
    return text.size() >= at + n && std::all_of(text.begin() + static_cast<long>(at),
                                                text.begin() + static_cast<long>(at + n),
                                                [](char c) { return c >= '0' && c <= '9'; });
  };
  auto number = [&](size_t at) { return (text[at] - '0') * 10 + (text[at + 1] - '0'); };
  if (!digits(0, 4)) return false;
  if (text.size() == 4) return true;
  if (text[4] != '-' || !digits(5, 2) || number(5) < 1 || number(5) > 12) return false;
  if (text.size() == 7) return true;
  return text.size() == 10 && text[7] == '-' && digits(8, 2) && number(8) >= 1 && number(8) <= 31;
}

std::shared_ptr<const NodeType> LoadNodeType(LoadContext* ctx, const std::string& name,
                                             const JsonRef& ref, const HardwareCatalog& catalog,
                                             const std::vector<std::string>& file_sources) {
  ObjectReader r(ctx, ref,
                 {"vcpu", "memory_gib", "gpus", "gpu_model", "price_per_hour",
                  "spot_price_per_hour", "cloud", "region", "price_date", "sources"});
  NodeType type{.name = name};
  r.Require("vcpu");
  type.vcpu = static_cast<int>(r.Int("vcpu", 1, 1, kMaxVcpu));
  r.Require("memory_gib");
  type.memory_gib = r.Number("memory_gib", 1, 0, kMaxMemoryGib);
  if (r.Has("memory_gib") && ctx->ok() && type.memory_gib * 1024 < 1) {
    ctx->Fail(r.Field("memory_gib").pointer(), "must be at least 1 MiB (0.0009765625)");
  }
  type.gpu_count = static_cast<int>(r.Int("gpus", 0, 0, kMaxGpusPerNode));
  if (type.gpu_count > 0 && r.Require("gpu_model")) {
    std::string model = r.String("gpu_model");
    type.gpu_owner = catalog.FindGpuModel(model);
    type.gpu = type.gpu_owner.get();
    if (type.gpu == nullptr && ctx->ok()) {
      ctx->Fail(r.Field("gpu_model").pointer(),
                UnknownNameMessage("GPU model", model, catalog.GpuModelNames()));
    }
  } else if (r.Has("gpu_model")) {
    ctx->Fail(r.Field("gpu_model").pointer(), "only allowed when gpus >= 1");
  }
  type.price_per_hour = r.Number("price_per_hour", 0, 0);
  if (r.Has("spot_price_per_hour"))
    type.spot_price_per_hour = r.Number("spot_price_per_hour", 0, 0);
  if (r.Has("cloud")) type.cloud = r.NonEmptyString("cloud");
  if (r.Has("region")) type.region = r.NonEmptyString("region");
  if (r.Has("price_date")) type.price_date = r.NonEmptyString("price_date");
  if (ctx->ok() && r.Has("price_date") && !IsDate(type.price_date)) {
    ctx->Fail(r.Field("price_date").pointer(),
              "'" + type.price_date + "' is not a date (YYYY-MM-DD, YYYY-MM or YYYY)");
  }
  type.sources = WithFileSources(ctx, r, file_sources);
  if (!ctx->ok()) return nullptr;
  return std::make_shared<const NodeType>(std::move(type));
}

void LoadCatalogFile(LoadContext* ctx, const JsonRef& ref, HardwareCatalog* catalog) {
  std::optional<std::string> name = ReadString(ctx, ref);
  if (!name || !ctx->MayReadNamedFile(ref.pointer())) return;
  if (name->empty()) {
    ctx->Fail(ref.pointer(), "must not be empty");
    return;
  }
  const std::string path = ctx->ResolvePath(*name);
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) {
    ctx->Fail(ref.pointer(), text.status().ToString());
    return;
  }
  Result<Json> doc = CatchJsonErrors(path, [&] { return ParseJson(text.value(), path); });
  if (!doc.ok()) {
    ctx->Fail(doc.status());
    return;
  }
  LoadContext file_ctx(path);
  LoadCatalogDocument(&file_ctx, JsonRef(doc.value(), ""), /*user=*/true, CatalogSections::kBoth,
                      catalog);
  if (!file_ctx.ok()) ctx->Fail(file_ctx.status());
}

}  // namespace

bool IsPlainName(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return IsAlnum(c) || c == '.' || c == '_' || c == '-';
  });
}

void LoadGpuModels(LoadContext* ctx, const JsonRef& ref, bool user, HardwareCatalog* catalog,
                   const std::vector<std::string>& file_sources) {
  if (!ExpectNamedObject(ctx, ref, "GPU model")) return;
  for (const auto& [name, value] : ref.value().items()) {
    std::shared_ptr<const GpuModel> model =
        LoadGpuModel(ctx, name, ref.Member(name), *catalog, file_sources);
    if (model == nullptr) return;
    catalog->Add(std::move(model), user);
  }
}

void LoadNodeTypes(LoadContext* ctx, const JsonRef& ref, bool user, HardwareCatalog* catalog,
                   const std::vector<std::string>& file_sources) {
  if (!ExpectNamedObject(ctx, ref, "node type")) return;
  for (const auto& [name, value] : ref.value().items()) {
    if (std::shared_ptr<const NodeType> known = catalog->FindNodeType(name)) {
      ctx->Fail(ref.PointerTo(name),
                catalog->IsUser(*known)
                    ? "node type '" + name + "' is defined twice"
                    : "'" + name + "' is a catalog node type; give the custom type another name");
      return;
    }
    std::shared_ptr<const NodeType> type =
        LoadNodeType(ctx, name, ref.Member(name), *catalog, file_sources);
    if (type == nullptr) return;
    catalog->Add(std::move(type), user);
  }
}

void LoadCatalogDocument(LoadContext* ctx, const JsonRef& root, bool user, CatalogSections sections,
                         HardwareCatalog* catalog) {
  ObjectReader r(ctx, root, {"sources", "gpu_models", "node_types"});
  if (!r.valid()) return;
  std::vector<std::string> file_sources;
  if (r.Has("sources")) file_sources = ReadNonEmptyStrings(ctx, r.Field("sources"));
  if (r.Has("gpu_models") && sections != CatalogSections::kNodeTypes && ctx->ok()) {
    LoadGpuModels(ctx, r.Field("gpu_models"), user, catalog, file_sources);
  }
  if (r.Has("node_types") && sections != CatalogSections::kGpuModels && ctx->ok()) {
    LoadNodeTypes(ctx, r.Field("node_types"), user, catalog, file_sources);
  }
}

void LoadClusterDefinitions(LoadContext* ctx, const JsonRef& cluster, HardwareCatalog* catalog) {
  const Json& value = cluster.value();
  if (value.contains("catalog")) {
    const JsonRef files = cluster.Member("catalog");
    if (files.value().is_array()) {
      for (size_t i = 0; i < files.value().size() && ctx->ok(); ++i) {
        LoadCatalogFile(ctx, files.Element(i), catalog);
      }
    } else if (files.value().is_string()) {
      LoadCatalogFile(ctx, files, catalog);
    } else {
      ctx->Fail(files.pointer(),
                "expected a path or an array of paths, got " + TypeName(files.value()));
    }
  }
  if (value.contains("gpu_models") && ctx->ok()) {
    LoadGpuModels(ctx, cluster.Member("gpu_models"), /*user=*/true, catalog);
  }
  if (value.contains("node_types") && ctx->ok()) {
    LoadNodeTypes(ctx, cluster.Member("node_types"), /*user=*/true, catalog);
  }
}

}  // namespace migsim::io

namespace migsim {

Result<HardwareCatalog> LoadUserCatalog(const std::string& path) {
  Result<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  return io::CatchJsonErrors(path, [&]() -> Result<HardwareCatalog> {
    Result<io::Json> doc = io::ParseJson(text.value(), path);
    if (!doc.ok()) return doc.status();
    HardwareCatalog catalog = BuiltinCatalog();
    io::LoadContext ctx(path);
    const io::JsonRef root(doc.value(), "");
    if (root.value().is_object() && root.value().contains("cluster")) {
      const io::JsonRef cluster = root.Member("cluster");
      if (io::ExpectObject(&ctx, cluster)) io::LoadClusterDefinitions(&ctx, cluster, &catalog);
    } else {
      io::LoadCatalogDocument(&ctx, root, /*user=*/true, io::CatalogSections::kBoth, &catalog);
    }
    if (!ctx.ok()) return ctx.status();
    return catalog;
  });
}

}  // namespace migsim

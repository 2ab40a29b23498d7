#include "sim/io/schema_reference.h"

namespace migsim::io {

Status TakeSchemaReference(const std::string& file_label, Json* doc) {
  constexpr const char* kKey = "$schema";
  if (!doc->is_object() || !doc->contains(kKey)) return Status::Ok();
  LoadContext ctx(file_label);
  if (!ReadString(&ctx, JsonRef((*doc)[kKey], "/$schema"))) return ctx.status();
  doc->erase(kKey);
  return Status::Ok();
}

}  // namespace migsim::io

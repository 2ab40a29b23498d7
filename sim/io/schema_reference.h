#pragma once
// Internal to sim/io: a document's top-level "$schema" member, the JSON Schema it follows
// (schema/scenario.schema.json, sweep.schema.json, plan.schema.json), there for editors and
// validators. Scenario, sweep and plan files may hold one; it changes nothing they mean.

#include <string>

#include "sim/core/status.h"
#include "sim/io/json_reader.h"

namespace migsim::io {

// Removes the top-level "$schema" member of `doc`, when `doc` is an object that has one.
// A value that is not a string is an InvalidArgument at "/$schema" ("expected a string, got
// a number"), as JSON Schema's own meta-schema requires. Nothing else is checked: the
// reference is the editor's business (a relative path, a URL), never read by the loaders.
Status TakeSchemaReference(const std::string& file_label, Json* doc);

}  // namespace migsim::io

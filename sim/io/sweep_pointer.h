#pragma once
// Internal to sim/io: setting a value inside a JSON document at an RFC 6901 pointer, as a
// sweep point does to its scenario. Brings in nlohmann/json (through json_reader.h), so
// only sim/io .cc files include it.

#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/io/json_reader.h"

namespace migsim::io {

// The reference tokens of `pointer`, unescaped ("~1" -> '/', "~0" -> '~'). The empty
// pointer (the whole document) is refused: a sweep changes parts of a scenario.
// InvalidArgument without a location, e.g. "'seed' is not a JSON pointer (it must start
// with '/')".
Result<std::vector<std::string>> ParsePointer(std::string_view pointer);

// Sets the value at `pointer` (REQUIRES: ParsePointer accepts it) to `value`. Every token
// but the last must name an existing object member or array element; the last may name a
// new member of an object (it is added at the end) or an existing element of an array.
// On failure `doc` is unchanged and the InvalidArgument (no location) reads
// "cannot set /a/b/c: the scenario has no /a/b (...)".
Status SetAtPointer(Json* doc, std::string_view pointer, Json value);

}  // namespace migsim::io

#pragma once
// Which of migsim's input documents a file holds: a scenario, a sweep or a plan file, told
// apart as schema/schema_files.py tells them (the editors' and CI's view): by the file name
// of its "$schema" reference when that names one of schema/*.schema.json, else by the
// members only one kind has. `migsim validate` checks each with its own loader.

#include <string>
#include <string_view>

#include "sim/core/status.h"

namespace migsim {

enum class DocumentKind { kScenario, kSweep, kPlan };

// "scenario", "sweep", "plan".
std::string_view DocumentKindName(DocumentKind kind);

// The kind of the document in `text`, the file `file_label`'s content:
//  - a YAML file (.yaml, .yml) is a scenario: only scenarios may be YAML;
//  - a "$schema" string whose last path segment is scenario.schema.json, sweep.schema.json
//    or plan.schema.json decides ("../../schema/sweep.schema.json": a sweep);
//  - else the members: "configurations" is a plan's, "axes" and "points" a sweep's,
//    "cluster" and "manifests" a scenario's. One kind's members name that kind; none, a
//    scenario (whose loader then says what is missing), except with a "scenario" member.
//  - Text that is not a JSON object is a scenario: its loader reports what is wrong.
// Errors: InvalidArgument at the file for members of two kinds, or a "scenario" member with
// neither kind's: "cannot tell whether this is a sweep or a plan file: it has \"scenario\"
// (...); name its kind with \"$schema\" (...)".
Result<DocumentKind> DocumentKindOf(std::string_view text, const std::string& file_label);

}  // namespace migsim

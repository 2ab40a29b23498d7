#pragma once
// Internal to sim/io (the YAML readers: Kubernetes manifests, mig-parted): the documents of a
// multi-document YAML text, loaded so that no input can keep the loader busy forever.

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"

namespace migsim {

// The documents of `text`, in order (an empty text has none). A syntax error is a ParseError
// at "<file_label>:line L, column C" (1-based); so is a text that is not UTF-8, or holds a
// control character YAML does not allow (C0 but tab, LF, CR; DEL), at its first bad byte
// (names and labels read from YAML end up in JSON outputs and terminals).
//
// yaml-cpp 0.7's LoadAll never returns on some malformed texts: a ',' outside a flow
// collection (a document that is just ",", or "[a],") is neither consumed nor reported, so
// the next document starts at the same token, forever. The text is first walked event by
// event, and a document that starts where the previous one started and consumed nothing is
// reported as a ParseError at that token ("malformed YAML: unexpected ',' where a document or
// value should begin").
Result<std::vector<YAML::Node>> LoadYamlDocuments(std::string_view text,
                                                  const std::string& file_label);

}  // namespace migsim

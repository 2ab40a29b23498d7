#include "sim/io/sweep_pointer.h"

#include <charconv>

namespace migsim::io {
namespace {

// An array index as RFC 6901 spells it: "0", or digits without a leading zero.
std::optional<size_t> ArrayIndex(const std::string& token) {
  size_t index = 0;
  if (token.empty() || (token.size() > 1 && token[0] == '0')) return std::nullopt;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), index);
  if (error != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return index;
}

// The child `token` names in `parent`, or nullptr with `why` set.
Json* Child(Json* parent, const std::string& token, const std::string& parent_pointer,
            std::string* why) {
  if (parent->is_object()) {
    auto it = parent->find(token);
    if (it != parent->end()) return &*it;
    *why = "the scenario has no " + parent_pointer + "/" + EscapePointerToken(token) +
           " (only the last member of a pointer may be new)";
    return nullptr;
  }
  if (parent->is_array()) {
    std::optional<size_t> index = ArrayIndex(token);
    if (index && *index < parent->size()) return &(*parent)[*index];
    *why = "'" + token + "' is not an index of the array " + parent_pointer + " (size " +
           std::to_string(parent->size()) + ")";
    return nullptr;
  }
  *why = (parent_pointer.empty() ? std::string("the document") : parent_pointer) + " is " +
         TypeName(*parent) + ", not an object or an array";
  return nullptr;
}

}  // namespace

Result<std::vector<std::string>> ParsePointer(std::string_view pointer) {
  const std::string quoted = "'" + std::string(pointer) + "'";
  if (pointer.empty()) {
    return Status::InvalidArgument(
        "the empty pointer names the whole scenario: name a member, e.g. /seed");
  }
  if (pointer[0] != '/') {
    return Status::InvalidArgument(quoted + " is not a JSON pointer (it must start with '/')");
  }
  std::vector<std::string> tokens(1);
  for (size_t i = 1; i < pointer.size(); ++i) {
    const char c = pointer[i];
    if (c == '/') {
      tokens.emplace_back();
    } else if (c != '~') {
      tokens.back() += c;
    } else if (i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
      tokens.back() += pointer[++i] == '0' ? '~' : '/';
    } else {
      return Status::InvalidArgument(quoted +
                                     " is not a JSON pointer ('~' must be followed by 0 or 1)");
    }
  }
  return tokens;
}

Status SetAtPointer(Json* doc, std::string_view pointer, Json value) {
  Result<std::vector<std::string>> parsed = ParsePointer(pointer);
  if (!parsed.ok()) return parsed.status();
  const std::vector<std::string>& tokens = parsed.value();
  const std::string prefix = "cannot set " + std::string(pointer) + ": ";
  Json* parent = doc;
  std::string parent_pointer;
  std::string why;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    parent = Child(parent, tokens[i], parent_pointer, &why);
    if (parent == nullptr) return Status::InvalidArgument(prefix + why);
    parent_pointer += "/" + EscapePointerToken(tokens[i]);
  }
  if (parent->is_object()) {
    (*parent)[tokens.back()] = std::move(value);
    return Status::Ok();
  }
  Json* target = Child(parent, tokens.back(), parent_pointer, &why);
  if (target == nullptr) return Status::InvalidArgument(prefix + why);
  *target = std::move(value);
  return Status::Ok();
}

}  // namespace migsim::io

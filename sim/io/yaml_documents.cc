// Loading multi-document YAML with a guard against yaml-cpp's non-advancing documents.

#include "sim/io/yaml_documents.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <sstream>

#include "sim/io/utf8.h"

namespace migsim {
namespace {

// Watches the documents' start marks. A document that starts at the same position as the
// previous one, when that one held at most a null, means the parser did not move.
class ProgressWatch : public YAML::EventHandler {
 public:
  bool stuck() const { return stuck_; }
  const YAML::Mark& where() const { return where_; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (mark.pos == last_start_ && nodes_ <= 1) {
      stuck_ = true;
      where_ = mark;
    }
    last_start_ = mark.pos;
    nodes_ = 0;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { ++nodes_; }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { ++nodes_; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {
    ++nodes_;
  }
  // A collection counts as two, so that even an empty one is progress.
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    nodes_ += 2;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    nodes_ += 2;
  }
  void OnMapEnd() override {}

 private:
  int last_start_ = -1;
  int nodes_ = 0;
  bool stuck_ = false;
  YAML::Mark where_ = YAML::Mark::null_mark();
};

Status MalformedAt(const YAML::Mark& mark, const std::string& what, const std::string& file_label) {
  return Status::ParseError(
      "malformed YAML: " + what,
      InputLocation{file_label, "line " + std::to_string(mark.line + 1) + ", column " +
                                    std::to_string(mark.column + 1)});
}

// The first byte of `text` that is not UTF-8, by line, column and byte offset. (yaml-cpp
// refuses escapes that would make a scalar of a UTF-8 text that is not: "\ud800" is
// "invalid unicode".)
Status NotUtf8At(std::string_view text, size_t bad, const std::string& file_label) {
  const std::string_view before = text.substr(0, bad);
  const size_t line_start = before.rfind('\n');
  const size_t column = line_start == std::string_view::npos ? bad + 1 : bad - line_start;
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  return Status::ParseError(
      NotUtf8Message(text, bad),
      InputLocation{file_label,
                    "line " + std::to_string(line) + ", column " + std::to_string(column)});
}

// The character a stuck document starts at, quoted ("','"), for the message.
std::string TokenAt(std::string_view text, const YAML::Mark& mark) {
  const auto pos = static_cast<size_t>(mark.pos);
  if (mark.pos < 0 || pos >= text.size()) return "token";
  return "'" + std::string(1, text[pos]) + "' where a document or value should begin";
}

}  // namespace

Result<std::vector<YAML::Node>> LoadYamlDocuments(std::string_view text,
                                                  const std::string& file_label) {
  if (const size_t bad = FirstInvalidUtf8(text); bad != std::string_view::npos) {
    return NotUtf8At(text, bad, file_label);
  }
  try {
    std::istringstream stream{std::string(text)};
    YAML::Parser parser(stream);
    ProgressWatch watch;
    while (parser.HandleNextDocument(watch)) {
      if (watch.stuck()) {
        return MalformedAt(watch.where(), "unexpected " + TokenAt(text, watch.where()), file_label);
      }
    }
    return YAML::LoadAll(std::string(text));
  } catch (const YAML::Exception& e) {
    return MalformedAt(e.mark, e.msg, file_label);
  }
}

}  // namespace migsim

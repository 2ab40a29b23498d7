// Loading multi-document YAML with a guard against yaml-cpp's non-advancing documents.

#include "sim/io/yaml_documents.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <sstream>

#include "sim/core/out_of_memory.h"
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

// `message` about the byte of `text` at `bad`, located by line and column.
Status BadByteAt(std::string_view text, size_t bad, std::string message,
                 const std::string& file_label) {
  const std::string_view before = text.substr(0, bad);
  const size_t line_start = before.rfind('\n');
  const size_t column = line_start == std::string_view::npos ? bad + 1 : bad - line_start;
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  return Status::ParseError(
      std::move(message),
      InputLocation{file_label,
                    "line " + std::to_string(line) + ", column " + std::to_string(column)});
}

// The first control character YAML does not allow in a stream (YAML 1.2's c-printable: of
// the C0 controls only tab, line feed and carriage return; not DEL), or npos. yaml-cpp reads
// a NUL as the end of its input and hands on what follows it mangled, bytes that are not
// UTF-8. (Escapes such as "\x00" in a double-quoted scalar are text, and allowed.)
size_t FirstControlCharacter(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) return i;
  }
  return std::string_view::npos;
}

std::string ControlCharacterMessage(std::string_view text, size_t bad) {
  return "a control character YAML does not allow (" + ByteAtOffset(text, bad) + ")";
}

// The character a stuck document starts at, quoted ("','"), for the message.
std::string TokenAt(std::string_view text, const YAML::Mark& mark) {
  const auto pos = static_cast<size_t>(mark.pos);
  if (mark.pos < 0 || pos >= text.size()) return "token";
  return "'" + std::string(1, text[pos]) + "' where a document or value should begin";
}

}  // namespace

namespace {

Result<std::vector<YAML::Node>> LoadYamlText(std::string_view text,
                                             const std::string& file_label) {
  // Refused: a byte that is not UTF-8 (yaml-cpp refuses escapes that would make a scalar
  // of a UTF-8 text that is not: "\ud800" is "invalid unicode"), a control character.
  if (const size_t bad = FirstInvalidUtf8(text); bad != std::string_view::npos) {
    return BadByteAt(text, bad, NotUtf8Message(text, bad), file_label);
  }
  if (const size_t bad = FirstControlCharacter(text); bad != std::string_view::npos) {
    return BadByteAt(text, bad, ControlCharacterMessage(text, bad), file_label);
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

}  // namespace

Result<std::vector<YAML::Node>> LoadYamlDocuments(std::string_view text,
                                                  const std::string& file_label) {
  return NamingOutOfMemory("parsing " + file_label,
                           [&] { return LoadYamlText(text, file_label); });
}

}  // namespace migsim

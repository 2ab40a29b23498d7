#include "sim/io/csv_lines.h"

#include <cstdio>
#include <filesystem>
#include <memory>

namespace migsim {

std::string_view TrimCsvField(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

void SplitCsvLine(std::string_view line, std::vector<std::string_view>* fields) {
  fields->clear();
  for (size_t comma; (comma = line.find(',')) != std::string_view::npos;) {
    fields->push_back(TrimCsvField(line.substr(0, comma)));
    line.remove_prefix(comma + 1);
  }
  fields->push_back(TrimCsvField(line));
}

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t extra = 0;
    uint32_t code = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, code = c & 0x07;
    } else {
      return false;
    }
    if (i + extra >= s.size()) return false;  // truncated sequence
    for (size_t k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(s[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (code < kMin[extra] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return false;
    i += extra + 1;
  }
  return true;
}

std::string JoinFields(const std::vector<std::string_view>& parts, std::string_view separator) {
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

// Far beyond any trace we know (the openb pod lists are under 1 MB), and small enough to
// hold in memory.
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{1} << 30;

// stdio rather than ifstream: a directory opens as a stream but fails here on read.
Result<std::string> ReadTextFile(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) return Status::IoError("is a directory", {path, ""});
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    return Status::IoError("not a regular file", {path, ""});  // /dev/zero, a FIFO, ...
  }
  if (std::filesystem::exists(status) && std::filesystem::file_size(path, ec) > kMaxFileBytes) {
    return Status::IoError("larger than 1 GiB", {path, ""});
  }
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (f == nullptr) return Status::IoError("cannot read file", {path, ""});
  std::string text;
  char buffer[1 << 16];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f.get())) > 0;) text.append(buffer, n);
  if (std::ferror(f.get())) return Status::IoError("cannot read file", {path, ""});
  return text;
}

}  // namespace migsim

#include "sim/report/study_page.h"

#include <cctype>

#include "sim/report/svg_chart.h"

namespace migsim {
namespace {

constexpr const char* kCss =
    "body{font-family:sans-serif;margin:24px auto;max-width:1360px;padding:0 12px;color:#222}"
    "h1{margin-bottom:4px}h2{margin-top:32px;border-bottom:1px solid #ddd}"
    ".note{color:#666;font-size:90%}"
    ".charts{display:flex;flex-wrap:wrap;gap:12px}"
    "svg.chart{background:#fff;border:1px solid #ddd;max-width:100%;height:auto}"
    "table{border-collapse:collapse;font-size:90%}"
    "th,td{border:1px solid #ddd;padding:2px 6px}td.n{text-align:right}"
    "tr.best{background:#eef7ee;font-weight:bold}.wide{overflow-x:auto}";

bool Numeric(const std::string& cell) {
  return !cell.empty() && (std::isdigit(static_cast<unsigned char>(cell[0])) || cell[0] == '-' ||
                           cell[0] == '.' || cell[0] == '+');
}

}  // namespace

std::string StudyPageStart(const std::string& title, const std::string& note) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">\n<title>" +
         svg::Escape(title) + " - migsim report</title>\n<style>" + kCss +
         "</style>\n</head>\n<body>\n<h1>" + svg::Escape(title) + "</h1>\n<p class=\"note\">" +
         svg::Escape(note) + "</p>\n";
}

std::string StudyPageEnd() { return "</body>\n</html>\n"; }

std::string HtmlTable(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows) {
  std::string out = "<div class=\"wide\"><table><tr>";
  for (const std::string& h : header) out += "<th>" + svg::Escape(h) + "</th>";
  out += "</tr>\n";
  for (const std::vector<std::string>& row : rows) {
    out += "<tr>";
    for (const std::string& cell : row) {
      out += (Numeric(cell) ? "<td class=\"n\">" : "<td>") + svg::Escape(cell) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table></div>\n";
}

}  // namespace migsim

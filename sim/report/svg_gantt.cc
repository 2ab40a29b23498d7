// The Gantt chart of svg_chart.h: labelled rows of bars over a time axis.

#include <algorithm>
#include <cmath>

#include "sim/report/svg_chart.h"
#include "sim/report/svg_parts.h"

namespace migsim::svg {
namespace {

// The label column, row height and right margin, in px.
constexpr double kLabelWidth = 190, kRowHeight = 14, kRightMargin = 16;

LegendEntries Entries(const std::vector<std::pair<std::string, std::string>>& legend) {
  LegendEntries out;
  for (const auto& [label, color] : legend) out.push_back({label, color, ""});
  return out;
}

}  // namespace

Gantt::Gantt(std::string title, double end) : title_(std::move(title)), end_(end > 0 ? end : 1) {}

size_t Gantt::AddRow(std::string label, int level) {
  rows_.push_back({std::move(label), level, false, {}});
  return rows_.size() - 1;
}

void Gantt::AddHeader(std::string label, int level) {
  rows_.push_back({std::move(label), level, true, {}});
}

void Gantt::AddBar(size_t row, double from, double to, std::string color, std::string tooltip) {
  rows_.at(row).bars.push_back({from, to, std::move(color), std::move(tooltip)});
}

void Gantt::AddLegendEntry(std::string label, std::string color) {
  legend_.emplace_back(std::move(label), std::move(color));
}

int Gantt::LegendHeight(int width) const {
  return static_cast<int>(kLegendLine) *
         LegendLines(Entries(legend_), kLabelWidth, width - kRightMargin);
}

std::string Gantt::RenderAxis(double top, double bottom, int width) const {
  double right = width - kRightMargin;
  const TimeUnit unit = TimeUnitFor(end_);  // ticks in the unit, bars in seconds
  const double end = end_ / unit.seconds;
  double step = TickStep(0, end, 10);
  std::string out = "<g>";
  for (double v : Ticks(0, end, 10)) {
    double x = kLabelWidth + v / end * (right - kLabelWidth);
    out += Line(x, top, x, bottom, "grid");
    out += Text(x, top - 4, TickLabel(v, step), "text-anchor=\"middle\"");
  }
  out += Text(right, bottom + 14, unit.axis_label, "text-anchor=\"end\"");
  return out + "</g>";
}

std::string Gantt::RenderRow(const Row& row, double y, int width) const {
  std::string out;
  if (!row.label.empty()) {
    out = Text(8 + 12.0 * row.level, y + kRowHeight - 3, Shorten(row.label, 28),
               row.header ? "class=\"hdr\"" : "");
  }
  double scale = (width - kRightMargin - kLabelWidth) / end_;
  for (const Bar& b : row.bars) {
    double x = kLabelWidth + std::clamp(b.from, 0.0, end_) * scale;
    double w = std::max(0.5, (std::clamp(b.to, 0.0, end_) - std::clamp(b.from, 0.0, end_)) * scale);
    out += "<rect x=\"" + Coord(x) + "\" y=\"" + Coord(y + 2) + "\" width=\"" + Coord(w) +
           "\" height=\"" + Coord(kRowHeight - 4) + "\" fill=\"" + b.color + "\"><title>" +
           Escape(b.tooltip) + "</title></rect>";
  }
  return out;
}

std::string Gantt::RenderLegend(int width, double y) const {
  return LegendSvg(Entries(legend_), kLabelWidth, y, width - kRightMargin);
}

std::string Gantt::Render(int width, size_t max_rows) const {
  size_t shown = std::min(max_rows, rows_.size());
  double top = 30 + LegendHeight(width) + 24;
  double bottom = top + kRowHeight * static_cast<double>(shown);
  bool cut = shown < rows_.size();
  int height = static_cast<int>(std::ceil(bottom + 22 + (cut ? 16 : 0)));
  std::string out = SvgOpen(width, height, title_) + RenderLegend(width, 38);
  out += RenderAxis(top, bottom, width);
  for (size_t i = 0; i < shown; ++i) {
    out += RenderRow(rows_[i], top + kRowHeight * static_cast<double>(i), width);
  }
  if (cut) {
    out += Text(8, bottom + 30, std::to_string(rows_.size() - shown) + " more rows not shown");
  }
  return out + "</svg>";
}

}  // namespace migsim::svg

#include "sim/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace migsim::svg {
namespace {

constexpr double kCharWidth = 6.5;  // of the 11 px sans-serif text, roughly
constexpr double kLegendLine = 16;
// The Gantt chart: label column, row height and right margin, in px.
constexpr double kLabelWidth = 190, kRowHeight = 14, kRightMargin = 16;

using LegendEntries = std::vector<std::pair<std::string, std::string>>;  // label, colour

std::string Text(double x, double y, std::string_view text, std::string_view attrs = "") {
  std::string out = "<text x=\"" + Coord(x) + "\" y=\"" + Coord(y) + "\"";
  if (!attrs.empty()) out += " " + std::string(attrs);
  return out + ">" + Escape(text) + "</text>";
}

// Where each legend entry goes when they flow left to right from x0, wrapping at x_max.
std::vector<Point> LegendLayout(const LegendEntries& entries, double x0, double x_max) {
  std::vector<Point> at;
  Point p{x0, 0};
  for (const auto& [label, color] : entries) {
    double w = 22 + kCharWidth * static_cast<double>(label.size()) + 14;
    if (p.x > x0 && p.x + w > x_max) p = {x0, p.y + kLegendLine};
    at.push_back(p);
    p.x += w;
  }
  return at;
}

int LegendLines(const LegendEntries& entries, double x0, double x_max) {
  if (entries.empty()) return 0;
  return static_cast<int>(LegendLayout(entries, x0, x_max).back().y / kLegendLine) + 1;
}

std::string LegendSvg(const LegendEntries& entries, double x0, double y0, double x_max) {
  std::vector<Point> at = LegendLayout(entries, x0, x_max);
  std::string out = "<g class=\"legend\">";
  for (size_t i = 0; i < entries.size(); ++i) {
    double x = at[i].x, y = y0 + at[i].y;
    out += "<rect x=\"" + Coord(x) + "\" y=\"" + Coord(y - 8) +
           "\" width=\"16\" height=\"8\" fill=\"" + entries[i].second + "\"/>" +
           Text(x + 20, y, entries[i].first);
  }
  return out + "</g>";
}

// At most `max_chars` bytes of `text`, cut on a UTF-8 character boundary, with "..." when cut.
std::string Shorten(const std::string& text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  size_t n = max_chars - 3;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n) + "...";
}

std::string Line(double x1, double y1, double x2, double y2, std::string_view cls) {
  return "<line class=\"" + std::string(cls) + "\" x1=\"" + Coord(x1) + "\" y1=\"" + Coord(y1) +
         "\" x2=\"" + Coord(x2) + "\" y2=\"" + Coord(y2) + "\"/>";
}

std::string SvgOpen(int width, int height, std::string_view title) {
  std::string w = std::to_string(width), h = std::to_string(height);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + w + "\" height=\"" +
         h + "\" viewBox=\"0 0 " + w + " " + h +
         "\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\"><title>" + Escape(title) +
         "</title><style>.grid{stroke:#e3e3e3}.axis{stroke:#555}.title{font-size:13px;"
         "font-weight:bold}.hdr{font-weight:bold}</style>" +
         Text(8, 18, title, "class=\"title\"");
}

std::string Hex(double r, double g, double b) {
  char buf[8];
  auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(r), byte(g), byte(b));
  return buf;
}

// CSS's hsl() -> rgb conversion; hue in degrees, saturation and lightness in [0, 1].
std::string HslColor(double hue, double sat, double light) {
  double a = sat * std::min(light, 1 - light);
  auto channel = [&](double n) {
    double k = std::fmod(n + hue / 30, 12.0);
    return light - a * std::max(-1.0, std::min({k - 3, 9 - k, 1.0}));
  };
  return Hex(channel(0), channel(8), channel(4));
}

}  // namespace

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Coord(double v) {
  if (!std::isfinite(v)) return "0";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s == "-0" ? "0" : s;
}

double TickStep(double lo, double hi, int max_ticks) {
  if (!(hi > lo)) hi = lo + 1;
  double raw = (hi - lo) / std::max(1, max_ticks);
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * magnitude >= raw * (1 - 1e-9)) return m * magnitude;
  }
  return 10 * magnitude;
}

std::vector<double> Ticks(double lo, double hi, int max_ticks) {
  if (!(hi > lo)) hi = lo + 1;
  double step = TickStep(lo, hi, max_ticks);
  double first = std::ceil(lo / step - 1e-9);
  std::vector<double> ticks;
  for (double k = first; k * step <= hi + step * 1e-9; k += 1) {
    double v = k * step;
    ticks.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  }
  return ticks;
}

std::string TickLabel(double v, double step) {
  int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);
  return s;
}

std::vector<Point> StepVertices(std::span<const Point> samples) {
  std::vector<Point> out;
  out.reserve(samples.size() * 2);
  for (size_t i = 0; i < samples.size(); ++i) {
    if (i > 0) out.push_back({samples[i].x, samples[i - 1].y});
    out.push_back(samples[i]);
  }
  return out;
}

std::vector<Point> Downsample(std::span<const Point> points, double x_lo, double x_hi,
                              int columns) {
  size_t n = points.size();
  if (columns < 1 || n <= 2 * static_cast<size_t>(columns) + 2) {
    return {points.begin(), points.end()};
  }
  double width = x_hi > x_lo ? (x_hi - x_lo) / columns : 1;
  auto column = [&](double x) {
    return std::clamp(static_cast<int64_t>(std::floor((x - x_lo) / width)), int64_t{0},
                      static_cast<int64_t>(columns - 1));
  };
  std::vector<bool> keep(n, false);
  keep[0] = keep[n - 1] = true;
  size_t lo = 0, hi = 0;
  for (size_t i = 1; i <= n; ++i) {
    if (i == n || column(points[i].x) != column(points[lo].x)) {
      keep[lo] = keep[hi] = true;
      if (i < n) lo = hi = i;
      continue;
    }
    if (points[i].y < points[lo].y) lo = i;
    if (points[i].y > points[hi].y) hi = i;
  }
  std::vector<Point> out;
  for (size_t i = 0; i < n; ++i) {
    if (keep[i]) out.push_back(points[i]);
  }
  return out;
}

std::string SeriesColor(size_t index) {
  static constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                             "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kPalette[index % std::size(kPalette)];
}

std::string KeyColor(std::string_view key) {
  uint32_t h = 2166136261u;  // FNV-1a
  for (unsigned char c : key) h = (h ^ c) * 16777619u;
  double hue = static_cast<double>(h % 360);
  double sat = 0.50 + static_cast<double>((h >> 9) % 25) / 100;
  double light = 0.42 + static_cast<double>((h >> 17) % 16) / 100;
  return HslColor(hue, sat, light);
}

// ---------------------------------------------------------------------------- LineChart

struct LineChart::Frame {
  double left, top, right, bottom;  // the plot area, px
  double x_lo, x_hi, y_lo, y_hi;    // the data ranges
  double x_px(double x) const { return left + (x - x_lo) / (x_hi - x_lo) * (right - left); }
  double y_px(double y) const {
    y = std::clamp(y, y_lo, y_hi);
    return bottom - (y - y_lo) / (y_hi - y_lo) * (bottom - top);
  }
};

LineChart::LineChart(std::string title, std::string x_label, std::string y_label)
    : title_(std::move(title)), x_label_(std::move(x_label)), y_label_(std::move(y_label)) {}

void LineChart::SetYRange(double lo, double hi) {
  fixed_y_ = true;
  y_lo_ = lo;
  y_hi_ = hi > lo ? hi : lo + 1;
}

void LineChart::AddSeries(std::string name, std::vector<Point> points, bool step) {
  series_.push_back({std::move(name), std::move(points), step});
}

LineChart::Frame LineChart::MakeFrame(int width, int height) const {
  LegendEntries legend;
  for (const Series& s : series_) legend.emplace_back(s.name, "");
  Frame f{58, 0, width - 16.0, height - 40.0, 0, 1, y_lo_, y_hi_};
  f.top = 30 + kLegendLine * LegendLines(legend, f.left, f.right) + 8;
  double x_min = 0, x_max = 0, y_max = 0;
  for (const Series& s : series_) {
    for (const Point& p : s.points) {
      x_min = std::min(x_min, p.x);
      x_max = std::max(x_max, p.x);
      y_max = std::max(y_max, p.y);
    }
  }
  f.x_lo = x_min;
  f.x_hi = x_max > x_min ? x_max : x_min + 1;
  if (!fixed_y_) {
    f.y_lo = 0;
    double step = TickStep(0, y_max, 5);
    f.y_hi = y_max > 0 ? std::ceil(y_max / step - 1e-9) * step : 1;
  }
  return f;
}

std::string LineChart::RenderAxes(const Frame& f) const {
  std::string out = "<g>";
  double y_step = TickStep(f.y_lo, f.y_hi, 5);
  for (double v : Ticks(f.y_lo, f.y_hi, 5)) {
    double y = f.y_px(v);
    out += Line(f.left, y, f.right, y, "grid");
    out += Text(f.left - 6, y + 4, TickLabel(v, y_step), "text-anchor=\"end\"");
  }
  double x_step = TickStep(f.x_lo, f.x_hi, 8);
  for (double v : Ticks(f.x_lo, f.x_hi, 8)) {
    double x = f.x_px(v);
    out += Line(x, f.bottom, x, f.bottom + 4, "axis");
    out += Text(x, f.bottom + 16, TickLabel(v, x_step), "text-anchor=\"middle\"");
  }
  out += Line(f.left, f.top, f.left, f.bottom, "axis");
  out += Line(f.left, f.bottom, f.right, f.bottom, "axis");
  out += Text((f.left + f.right) / 2, f.bottom + 32, x_label_, "text-anchor=\"middle\"");
  std::string c = Coord((f.top + f.bottom) / 2);
  out += Text(14, (f.top + f.bottom) / 2, y_label_,
              "text-anchor=\"middle\" transform=\"rotate(-90 14 " + c + ")\"");
  return out + "</g>";
}

std::string LineChart::RenderSeries(const Frame& f) const {
  std::string out;
  int columns = std::max(1, static_cast<int>(f.right - f.left));
  for (size_t i = 0; i < series_.size(); ++i) {
    const Series& s = series_[i];
    std::vector<Point> vertices = s.step ? StepVertices(s.points) : s.points;
    std::string points, last;
    for (const Point& p : Downsample(vertices, f.x_lo, f.x_hi, columns)) {
      std::string xy = Coord(f.x_px(p.x)) + "," + Coord(f.y_px(p.y));
      if (xy == last) continue;
      points += (points.empty() ? "" : " ") + xy;
      last = xy;
    }
    // Earlier series are drawn wider, so that a later one on top leaves them visible.
    double stroke = std::min(4.5, 1.5 + static_cast<double>(series_.size() - 1 - i));
    out += "<polyline fill=\"none\" stroke-opacity=\"0.9\" stroke-width=\"" + Coord(stroke) +
           "\" stroke=\"" + SeriesColor(i) + "\" points=\"" + points + "\"><title>" +
           Escape(s.name) + "</title></polyline>";
  }
  return out;
}

std::string LineChart::RenderLegend(const Frame& f) const {
  LegendEntries legend;
  for (size_t i = 0; i < series_.size(); ++i) legend.emplace_back(series_[i].name, SeriesColor(i));
  return LegendSvg(legend, f.left, 38, f.right);
}

std::string LineChart::Render(int width, int height) const {
  Frame f = MakeFrame(width, height);
  return SvgOpen(width, height, title_) + RenderLegend(f) + RenderAxes(f) + RenderSeries(f) +
         "</svg>";
}

// -------------------------------------------------------------------------------- Gantt

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
  return static_cast<int>(kLegendLine) * LegendLines(legend_, kLabelWidth, width - kRightMargin);
}

std::string Gantt::RenderAxis(double top, double bottom, int width) const {
  double right = width - kRightMargin;
  double step = TickStep(0, end_, 10);
  std::string out = "<g>";
  for (double v : Ticks(0, end_, 10)) {
    double x = kLabelWidth + v / end_ * (right - kLabelWidth);
    out += Line(x, top, x, bottom, "grid");
    out += Text(x, top - 4, TickLabel(v, step), "text-anchor=\"middle\"");
  }
  out += Text(right, bottom + 14, "time (s)", "text-anchor=\"end\"");
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
  return LegendSvg(legend_, kLabelWidth, y, width - kRightMargin);
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

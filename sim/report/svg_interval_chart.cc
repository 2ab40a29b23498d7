#include "sim/report/svg_interval_chart.h"

#include <algorithm>
#include <cmath>

#include "sim/report/svg_chart.h"

namespace migsim::svg {
namespace {

constexpr double kLegendLine = 16;
constexpr double kLegendWidth = 190;  // right of the plot
constexpr size_t kMaxDots = 30;       // a series with more points is a curve: no dot on each

std::string Text(double x, double y, std::string_view text, std::string_view attrs = "") {
  std::string out = "<text x=\"" + Coord(x) + "\" y=\"" + Coord(y) + "\"";
  if (!attrs.empty()) out += " " + std::string(attrs);
  return out + ">" + Escape(text) + "</text>";
}

std::string Line(double x1, double y1, double x2, double y2, std::string_view attrs) {
  return "<line x1=\"" + Coord(x1) + "\" y1=\"" + Coord(y1) + "\" x2=\"" + Coord(x2) + "\" y2=\"" +
         Coord(y2) + "\" " + std::string(attrs) + "/>";
}

// At most `n` bytes of `text`, cut on a UTF-8 boundary, "..." when cut.
std::string Cut(const std::string& text, size_t n) {
  if (text.size() <= n) return text;
  size_t k = n - 3;
  while (k > 0 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80) --k;
  return text.substr(0, k) + "...";
}

}  // namespace

struct IntervalChart::Frame {
  double left, right, top, bottom;
  double x_lo, x_hi, y_lo, y_hi;
  double x_px(double x) const { return left + (x - x_lo) / (x_hi - x_lo) * (right - left); }
  double y_px(double y) const { return bottom - (y - y_lo) / (y_hi - y_lo) * (bottom - top); }
};

IntervalChart::IntervalChart(std::string title, std::string x_label, std::string y_label)
    : title_(std::move(title)), x_label_(std::move(x_label)), y_label_(std::move(y_label)) {}

void IntervalChart::SetCategories(std::vector<std::string> labels) {
  categories_ = std::move(labels);
}

void IntervalChart::AddSeries(std::string name, std::vector<IntervalPoint> points) {
  series_.push_back({std::move(name), std::move(points)});
}

void IntervalChart::AddThreshold(std::string label, double y) {
  thresholds_.emplace_back(std::move(label), y);
}

void IntervalChart::AddMark(std::string label, double x, double y) {
  marks_.push_back({std::move(label), x, y});
}

// x spans the points (categories: -0.5 .. k - 0.5); y spans 0 (or the lowest value, when
// negative) to the highest value, band, threshold or mark, rounded out to ticks.
IntervalChart::Frame IntervalChart::MakeFrame(int width, int height) const {
  Frame f{64, width - kLegendWidth, 34, height - 46.0, 0, 1, 0, 1};
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = 0, y_hi = -INFINITY;
  for (const Series& s : series_) {
    for (const IntervalPoint& p : s.points) {
      x_lo = std::min(x_lo, p.x), x_hi = std::max(x_hi, p.x);
      y_lo = std::min({y_lo, p.low, p.mean}), y_hi = std::max({y_hi, p.high, p.mean});
    }
  }
  for (const auto& [label, y] : thresholds_) y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
  for (const Mark& m : marks_) y_lo = std::min(y_lo, m.y), y_hi = std::max(y_hi, m.y);
  if (!categories_.empty()) {
    x_lo = -0.5, x_hi = static_cast<double>(categories_.size()) - 0.5;
  } else if (!(x_hi > x_lo)) {
    x_lo = std::isfinite(x_lo) ? x_lo - 1 : 0, x_hi = x_lo + 2;
  }
  if (!(y_hi > y_lo)) y_hi = y_lo + 1;
  const double step = TickStep(y_lo, y_hi, 5);
  f.x_lo = x_lo, f.x_hi = x_hi;
  f.y_lo = std::floor(y_lo / step) * step, f.y_hi = std::ceil(y_hi / step) * step;
  return f;
}

std::string IntervalChart::RenderAxes(const Frame& f) const {
  const std::string grid = "stroke=\"#e3e3e3\"", axis = "stroke=\"#555\"";
  std::string out = "<g>";
  const double y_step = TickStep(f.y_lo, f.y_hi, 5);
  for (double v : Ticks(f.y_lo, f.y_hi, 5)) {
    out += Line(f.left, f.y_px(v), f.right, f.y_px(v), grid);
    out += Text(f.left - 6, f.y_px(v) + 4, TickLabel(v, y_step), "text-anchor=\"end\"");
  }
  if (categories_.empty()) {
    const double x_step = TickStep(f.x_lo, f.x_hi, 8);
    for (double v : Ticks(f.x_lo, f.x_hi, 8)) {
      out += Line(f.x_px(v), f.bottom, f.x_px(v), f.bottom + 4, axis);
      out += Text(f.x_px(v), f.bottom + 16, TickLabel(v, x_step), "text-anchor=\"middle\"");
    }
  } else {
    const size_t chars = std::max<size_t>(
        4, static_cast<size_t>((f.right - f.left) / static_cast<double>(categories_.size()) / 6.5));
    for (size_t i = 0; i < categories_.size(); ++i) {
      const double x = f.x_px(static_cast<double>(i));
      out += Line(x, f.bottom, x, f.bottom + 4, axis);
      out += Text(x, f.bottom + 16, Cut(categories_[i], chars), "text-anchor=\"middle\"");
    }
  }
  out +=
      Line(f.left, f.top, f.left, f.bottom, axis) + Line(f.left, f.bottom, f.right, f.bottom, axis);
  out += Text((f.left + f.right) / 2, f.bottom + 34, x_label_, "text-anchor=\"middle\"");
  const std::string c = Coord((f.top + f.bottom) / 2);
  out += Text(14, (f.top + f.bottom) / 2, y_label_,
              "text-anchor=\"middle\" transform=\"rotate(-90 14 " + c + ")\"");
  return out + "</g>";
}

// Bands first (under every line), then per series its line and its points.
std::string IntervalChart::RenderSeries(const Frame& f) const {
  std::string bands, lines;
  for (size_t i = 0; i < series_.size(); ++i) {
    const Series& s = series_[i];
    const std::string color = SeriesColor(i);
    const bool spread = std::any_of(s.points.begin(), s.points.end(),
                                    [](const IntervalPoint& p) { return p.high > p.low; });
    if (spread && categories_.empty() && s.points.size() > 1) {
      std::string poly;
      for (const IntervalPoint& p : s.points) {
        poly += (poly.empty() ? "" : " ") + Coord(f.x_px(p.x)) + "," + Coord(f.y_px(p.high));
      }
      for (auto p = s.points.rbegin(); p != s.points.rend(); ++p) {
        poly += " " + Coord(f.x_px(p->x)) + "," + Coord(f.y_px(p->low));
      }
      bands += "<polygon class=\"band\" fill=\"" + color +
               "\" fill-opacity=\"0.18\" stroke=\"none\" points=\"" + poly + "\"><title>" +
               Escape(s.name) + " (interval)</title></polygon>";
    }
    std::string points;
    for (const IntervalPoint& p : s.points) {
      const double x = f.x_px(p.x), y = f.y_px(p.mean);
      points += (points.empty() ? "" : " ") + Coord(x) + "," + Coord(y);
      if (spread && (!categories_.empty() || s.points.size() == 1)) {
        const std::string stroke = "class=\"errorbar\" stroke=\"" + color + "\"";
        lines += Line(x, f.y_px(p.low), x, f.y_px(p.high), stroke) +
                 Line(x - 4, f.y_px(p.low), x + 4, f.y_px(p.low), stroke) +
                 Line(x - 4, f.y_px(p.high), x + 4, f.y_px(p.high), stroke);
      }
      if (s.points.size() <= kMaxDots) {
        lines += "<circle cx=\"" + Coord(x) + "\" cy=\"" + Coord(y) + "\" r=\"2.5\" fill=\"" +
                 color + "\"/>";
      }
    }
    lines += "<polyline fill=\"none\" stroke-width=\"1.8\" stroke=\"" + color + "\" points=\"" +
             points + "\"><title>" + Escape(s.name) + "</title></polyline>";
  }
  return bands + lines;
}

std::string IntervalChart::RenderOverlays(const Frame& f) const {
  std::string out;
  for (const auto& [label, y] : thresholds_) {
    out += Line(f.left, f.y_px(y), f.right, f.y_px(y),
                "class=\"threshold\" stroke=\"#a40000\" stroke-dasharray=\"6 4\"") +
           Text(f.left + 4, f.y_px(y) - 4, label, "fill=\"#a40000\"");
  }
  for (const Mark& m : marks_) {
    const double x = f.x_px(m.x), y = f.y_px(m.y);
    out += "<circle class=\"mark\" cx=\"" + Coord(x) + "\" cy=\"" + Coord(y) +
           "\" r=\"8\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"><title>" + Escape(m.label) +
           "</title></circle>" + Text(x + 10, y - 10, m.label, "font-weight=\"bold\"");
  }
  // The legend, right of the plot: a swatch and a name per series.
  double y = f.top + 8;
  for (size_t i = 0; i < series_.size(); ++i, y += kLegendLine) {
    out += "<rect x=\"" + Coord(f.right + 12) + "\" y=\"" + Coord(y - 8) +
           "\" width=\"16\" height=\"8\" fill=\"" + SeriesColor(i) + "\"/>" +
           Text(f.right + 32, y, Cut(series_[i].name, 24));
  }
  return out;
}

std::string IntervalChart::Render(int width, int height) const {
  const int legend = static_cast<int>(kLegendLine * static_cast<double>(series_.size())) + 60;
  height = std::max(height, legend);
  const Frame f = MakeFrame(width, height);
  const std::string w = std::to_string(width), h = std::to_string(height);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + w + "\" height=\"" +
         h + "\" viewBox=\"0 0 " + w + " " + h +
         "\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\"><title>" + Escape(title_) +
         "</title><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>" +
         Text(8, 18, title_, "font-size=\"13\" font-weight=\"bold\"") + RenderAxes(f) +
         RenderSeries(f) + RenderOverlays(f) + "</svg>";
}

}  // namespace migsim::svg

#include "sim/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>

#include "sim/report/svg_parts.h"

namespace migsim::svg {

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

namespace {

struct Rgb {
  int r = 0, g = 0, b = 0;
};

Rgb ParseHex(const std::string& color) {
  auto byte = [&](size_t at) {
    return static_cast<int>(std::stoi(color.substr(at, 2), nullptr, 16));
  };
  return {byte(1), byte(3), byte(5)};
}

double Distance(const Rgb& a, const Rgb& b) { return std::hypot(a.r - b.r, a.g - b.g, a.b - b.b); }

}  // namespace

// The palette (SeriesColor's), then farthest-point sampling over a grid of hues,
// saturations and lightnesses (none near the white background): each next colour is the
// candidate farthest, in RGB, from every colour taken. Past the grid, hues spaced evenly,
// their lightness stepped until the colour is unused.
std::vector<std::string> DistinctColors(size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n && i < 10; ++i) out.push_back(SeriesColor(i));
  std::vector<std::string> candidates;
  for (int hue = 0; hue < 360; hue += 10) {
    for (double sat : {0.55, 0.85}) {
      for (double light : {0.3, 0.45, 0.6, 0.72}) candidates.push_back(HslColor(hue, sat, light));
    }
  }
  std::vector<Rgb> rgb;
  for (const std::string& c : candidates) rgb.push_back(ParseHex(c));
  std::vector<double> farthest(candidates.size(), 1e9);  // from the colours taken
  auto take = [&](const std::string& color) {
    const Rgb taken = ParseHex(color);
    for (size_t c = 0; c < candidates.size(); ++c) {
      farthest[c] = std::min(farthest[c], Distance(rgb[c], taken));
    }
  };
  for (const std::string& color : out) take(color);
  std::set<std::string> used(out.begin(), out.end());
  for (size_t i = out.size(); i < n; ++i) {
    const size_t best =
        static_cast<size_t>(std::max_element(farthest.begin(), farthest.end()) - farthest.begin());
    std::string color = candidates[best];
    if (farthest[best] <= 0) {  // the grid is used up
      const double hue = 360.0 * static_cast<double>(i) / static_cast<double>(n);
      double light = 0.3;
      for (color = HslColor(hue, 0.7, light); used.count(color) != 0 && light < 0.9;) {
        color = HslColor(hue, 0.7, light += 0.004);
      }
    }
    take(color);
    used.insert(color);
    out.push_back(std::move(color));
  }
  return out;
}

TimeUnit TimeUnitFor(double span_s) {
  if (span_s <= 3 * 3600.0) return {};
  if (span_s <= 3 * 86400.0) return {3600, "time (h)"};
  return {86400, "time (d)"};
}

// ---------------------------------------------------------------------------- LineChart

namespace {

// A repeated series' dash patterns, in the order repeats come.
constexpr const char* kDashes[] = {"7 5", "2 4", "10 4 2 4", "4 4"};

}  // namespace

struct LineChart::Frame {
  double left, top, right, bottom;  // the plot area, px
  double x_lo, x_hi, y_lo, y_hi;    // the data ranges
  bool log_x = false;               // x_lo and x_hi are then > 0
  double x_px(double x) const {
    if (log_x) {
      x = std::clamp(x, x_lo, x_hi);
      return left + std::log10(x / x_lo) / std::log10(x_hi / x_lo) * (right - left);
    }
    return left + (x - x_lo) / (x_hi - x_lo) * (right - left);
  }
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

std::vector<int> LineChart::SameAs() const {
  std::vector<int> out(series_.size(), -1);
  for (size_t i = 0; i < series_.size(); ++i) {
    for (size_t j = 0; j < i && out[i] < 0; ++j) {
      const Series &a = series_[i], &b = series_[j];
      if (out[j] < 0 && !a.points.empty() && a.step == b.step && a.points == b.points) {
        out[i] = static_cast<int>(j);
      }
    }
  }
  return out;
}

std::vector<std::string> LineChart::LegendLabels() const {
  std::vector<int> same_as = SameAs();
  std::vector<std::string> out;
  for (size_t i = 0; i < series_.size(); ++i) {
    out.push_back(same_as[i] < 0 ? series_[i].name
                                 : series_[i].name + " (same as " +
                                       series_[static_cast<size_t>(same_as[i])].name + ")");
  }
  return out;
}

LineChart::Frame LineChart::MakeFrame(int width, int height) const {
  LegendEntries legend;
  for (std::string& label : LegendLabels()) legend.push_back({std::move(label), "", ""});
  Frame f{58, 0, width - 16.0, height - 40.0, 0, 1, y_lo_, y_hi_, log_x_};
  f.top = 30 + kLegendLine * LegendLines(legend, f.left, f.right) + 8;
  double x_min = 0, x_max = 0, y_max = 0, x_min_positive = 0;
  for (const Series& s : series_) {
    for (const Point& p : s.points) {
      x_min = std::min(x_min, p.x);
      x_max = std::max(x_max, p.x);
      y_max = std::max(y_max, p.y);
      if (p.x > 0 && (x_min_positive == 0 || p.x < x_min_positive)) x_min_positive = p.x;
    }
  }
  f.x_lo = x_min;
  f.x_hi = x_max > x_min ? x_max : x_min + 1;
  if (log_x_) {  // whole decades around the positive values, at most 6 of them
    f.x_hi = std::pow(10.0, std::ceil(std::log10(x_max > 0 ? x_max : 1)));
    f.x_lo = std::pow(10.0, std::floor(std::log10(x_min_positive > 0 ? x_min_positive : 1)));
    f.x_lo = std::min(std::max(f.x_lo, f.x_hi / 1e6), f.x_hi / 10);
  }
  if (!fixed_y_) {
    f.y_lo = 0;
    double step = TickStep(0, y_max, 5);
    f.y_hi = y_max > 0 ? std::ceil(y_max / step - 1e-9) * step : 1;
  }
  return f;
}

std::string LineChart::RenderXAxis(const Frame& f) const {
  std::string out;
  auto tick = [&](double v, const std::string& label) {
    double x = f.x_px(v);
    out += Line(x, f.bottom, x, f.bottom + 4, "axis");
    out += Text(x, f.bottom + 16, label, "text-anchor=\"middle\"");
  };
  if (f.log_x) {
    for (double v = f.x_lo; v <= f.x_hi * (1 + 1e-9); v *= 10) tick(v, TickLabel(v, v));
    return out;
  }
  double x_step = TickStep(f.x_lo, f.x_hi, 8);
  for (double v : Ticks(f.x_lo, f.x_hi, 8)) tick(v, TickLabel(v, x_step));
  return out;
}

std::string LineChart::RenderAxes(const Frame& f) const {
  std::string out = "<g>";
  double y_step = TickStep(f.y_lo, f.y_hi, 5);
  for (double v : Ticks(f.y_lo, f.y_hi, 5)) {
    double y = f.y_px(v);
    out += Line(f.left, y, f.right, y, "grid");
    out += Text(f.left - 6, y + 4, TickLabel(v, y_step), "text-anchor=\"end\"");
  }
  out += RenderXAxis(f);
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
  std::vector<int> same_as = SameAs();
  size_t repeats = 0;
  for (size_t i = 0; i < series_.size(); ++i) {
    const Series& s = series_[i];
    std::vector<Point> vertices = s.step ? StepVertices(s.points) : s.points;
    // On a log axis the columns are equal in px, not in x: thin out in px.
    double x_lo = f.x_lo, x_hi = f.x_hi;
    if (f.log_x) {
      for (Point& p : vertices) p.x = f.x_px(p.x);
      x_lo = f.left, x_hi = f.right;
    }
    std::string points, last;
    for (const Point& p : Downsample(vertices, x_lo, x_hi, columns)) {
      std::string xy = Coord(f.log_x ? p.x : f.x_px(p.x)) + "," + Coord(f.y_px(p.y));
      if (xy == last) continue;
      points += (points.empty() ? "" : " ") + xy;
      last = xy;
    }
    // Earlier series are drawn wider, so that a later one on top leaves them visible; one
    // drawn exactly over an earlier one is dashed.
    double stroke = std::min(4.5, 1.5 + static_cast<double>(series_.size() - 1 - i));
    std::string dash;
    if (same_as[i] >= 0) {
      dash = std::string(" stroke-dasharray=\"") + kDashes[repeats++ % std::size(kDashes)] + "\"";
    }
    out += "<polyline fill=\"none\" stroke-opacity=\"0.9\" stroke-width=\"" + Coord(stroke) +
           "\" stroke=\"" + SeriesColor(i) + "\"" + dash + " points=\"" + points + "\"><title>" +
           Escape(s.name) + "</title></polyline>";
  }
  return out;
}

std::string LineChart::RenderLegend(const Frame& f) const {
  std::vector<int> same_as = SameAs();
  std::vector<std::string> labels = LegendLabels();
  LegendEntries legend;
  size_t repeats = 0;
  for (size_t i = 0; i < series_.size(); ++i) {
    legend.push_back(
        {labels[i], SeriesColor(i), same_as[i] < 0 ? "" : kDashes[repeats++ % std::size(kDashes)]});
  }
  return LegendSvg(legend, f.left, 38, f.right);
}

std::string LineChart::Render(int width, int height) const {
  Frame f = MakeFrame(width, height);
  return SvgOpen(width, height, title_) + RenderLegend(f) + RenderAxes(f) + RenderSeries(f) +
         "</svg>";
}

}  // namespace migsim::svg

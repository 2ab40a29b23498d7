#include "sim/report/svg_parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace migsim::svg {
namespace {

// Where each legend entry goes when they flow left to right from x0, wrapping at x_max.
std::vector<Point> LegendLayout(const LegendEntries& entries, double x0, double x_max) {
  std::vector<Point> at;
  Point p{x0, 0};
  for (const LegendEntry& e : entries) {
    double w = 22 + kCharWidth * static_cast<double>(e.label.size()) + 14;
    if (p.x > x0 && p.x + w > x_max) p = {x0, p.y + kLegendLine};
    at.push_back(p);
    p.x += w;
  }
  return at;
}

}  // namespace

std::string Text(double x, double y, std::string_view text, std::string_view attrs) {
  std::string out = "<text x=\"" + Coord(x) + "\" y=\"" + Coord(y) + "\"";
  if (!attrs.empty()) out += " " + std::string(attrs);
  return out + ">" + Escape(text) + "</text>";
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
    const LegendEntry& e = entries[i];
    if (e.dash.empty()) {
      out += "<rect x=\"" + Coord(x) + "\" y=\"" + Coord(y - 8) +
             "\" width=\"16\" height=\"8\" fill=\"" + e.color + "\"/>";
    } else {
      out += "<line x1=\"" + Coord(x) + "\" y1=\"" + Coord(y - 4) + "\" x2=\"" + Coord(x + 16) +
             "\" y2=\"" + Coord(y - 4) + "\" stroke=\"" + e.color +
             "\" stroke-width=\"2.5\" stroke-dasharray=\"" + e.dash + "\"/>";
    }
    out += Text(x + 20, y, e.label);
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

}  // namespace migsim::svg

// Evaluation of parsed selectors, and Kubernetes quantities.

#include "sim/dra/selector.h"

#include <cctype>
#include <limits>

namespace migsim::dra {
namespace {

// A value during evaluation. kNone stands for a failed lookup or a type mismatch, CEL's
// error: it propagates through comparisons and !, and a selector that ends in it is false.
struct Value {
  enum class Type : uint8_t { kNone, kString, kInt, kBool, kQuantity } type = Type::kNone;
  int64_t number = 0;
  std::string text;
};

Value FromAttribute(const AttributeValue& attribute) {
  if (const int64_t* i = std::get_if<int64_t>(&attribute)) return {Value::Type::kInt, *i, {}};
  if (const bool* b = std::get_if<bool>(&attribute)) return {Value::Type::kBool, *b ? 1 : 0, {}};
  return {Value::Type::kString, 0, std::get<std::string>(attribute)};
}

Value FromLiteral(const Selector::Node& node) {
  switch (node.type) {
    case Selector::LiteralType::kString:
      return {Value::Type::kString, 0, node.text};
    case Selector::LiteralType::kInt:
      return {Value::Type::kInt, node.number, {}};
    case Selector::LiteralType::kBool:
      return {Value::Type::kBool, node.number, {}};
    case Selector::LiteralType::kQuantity:
      return {Value::Type::kQuantity, node.number, {}};
  }
  return {};
}

// -1, 0 or 1; nullopt when the two cannot be compared.
std::optional<int> Order(const Value& a, const Value& b) {
  if (a.type == Value::Type::kNone || a.type != b.type) return std::nullopt;
  if (a.type == Value::Type::kString) return a.text < b.text ? -1 : (a.text == b.text ? 0 : 1);
  return a.number < b.number ? -1 : (a.number == b.number ? 0 : 1);
}

bool Holds(Selector::Op op, int order) {
  switch (op) {
    case Selector::Op::kEq:
      return order == 0;
    case Selector::Op::kNe:
      return order != 0;
    case Selector::Op::kLt:
      return order < 0;
    case Selector::Op::kLe:
      return order <= 0;
    case Selector::Op::kGt:
      return order > 0;
    case Selector::Op::kGe:
      return order >= 0;
  }
  return false;
}

class Evaluation {
 public:
  Evaluation(const std::vector<Selector::Node>& nodes, const Device& device)
      : nodes_(nodes), device_(device) {}

  Value Eval(uint32_t index) const {
    const Selector::Node& n = nodes_[index];
    switch (n.kind) {
      case Selector::Kind::kLiteral:
        return FromLiteral(n);
      case Selector::Kind::kList:
        return {};
      case Selector::Kind::kDriver:
        return {Value::Type::kString, 0, device_.driver};
      case Selector::Kind::kAttribute:
        return Attribute(n);
      case Selector::Kind::kCapacity:
        return Capacity(n);
      case Selector::Kind::kCompareTo:
        return CompareTo(n);
      case Selector::Kind::kCompare: {
        std::optional<int> order = Order(Eval(n.children[0]), Eval(n.children[1]));
        return order ? Bool(Holds(n.op, *order)) : Value{};
      }
      case Selector::Kind::kIn:
        return In(n);
      case Selector::Kind::kAnd:
        return Logic(n, false);
      case Selector::Kind::kOr:
        return Logic(n, true);
      case Selector::Kind::kNot: {
        Value inner = Eval(n.children[0]);
        if (inner.type != Value::Type::kBool) return {};
        return Bool(inner.number == 0);
      }
    }
    return {};
  }
  bool True(uint32_t index) const {
    Value v = Eval(index);
    return v.type == Value::Type::kBool && v.number != 0;
  }

 private:
  static Value Bool(bool b) { return {Value::Type::kBool, b ? 1 : 0, {}}; }

  Value Attribute(const Selector::Node& n) const {
    if (n.domain != device_.driver) return {};
    auto it = device_.attributes.find(n.text);
    return it == device_.attributes.end() ? Value{} : FromAttribute(it->second);
  }
  Value Capacity(const Selector::Node& n) const {
    if (n.domain != device_.driver) return {};
    auto it = device_.capacity.find(n.text);
    if (it == device_.capacity.end()) return {};
    return {Value::Type::kQuantity, it->second.value, {}};
  }
  Value CompareTo(const Selector::Node& n) const {
    Value a = Eval(n.children[0]), b = Eval(n.children[1]);
    if (a.type != Value::Type::kQuantity) return {};
    std::optional<int> order = Order(a, b);
    return order ? Value{Value::Type::kInt, *order, {}} : Value{};
  }
  Value In(const Selector::Node& n) const {
    Value needle = Eval(n.children[0]);
    if (needle.type == Value::Type::kNone) return {};
    for (uint32_t element : nodes_[n.children[1]].children) {
      if (Order(needle, Eval(element)) == 0) return Bool(true);
    }
    return Bool(false);
  }
  // CEL's commutative && and ||: one operand decides (false for &&, true for ||) even when
  // the other is an error; otherwise an error stays one.
  Value Logic(const Selector::Node& n, bool deciding) const {
    Value a = Eval(n.children[0]), b = Eval(n.children[1]);
    auto decides = [deciding](const Value& v) {
      return v.type == Value::Type::kBool && (v.number != 0) == deciding;
    };
    if (decides(a) || decides(b)) return Bool(deciding);
    if (a.type != Value::Type::kBool || b.type != Value::Type::kBool) return {};
    return Bool(!deciding);
  }

  const std::vector<Selector::Node>& nodes_;
  const Device& device_;
};

// Exact intermediate products (a fraction of an exa-suffix exceeds 64 bits); __extension__
// keeps -Wpedantic quiet about the GCC/Clang type.
__extension__ typedef __int128 Wide;

struct Suffix {
  std::string_view text;
  int64_t multiplier;
};

// Suffixes below 1 (n, u, m) are rounded up to whole base units by the caller.
constexpr Suffix kSuffixes[] = {{"Ki", int64_t{1} << 10},
                                {"Mi", int64_t{1} << 20},
                                {"Gi", int64_t{1} << 30},
                                {"Ti", int64_t{1} << 40},
                                {"Pi", int64_t{1} << 50},
                                {"Ei", int64_t{1} << 60},
                                {"k", 1000},
                                {"M", 1000'000},
                                {"G", 1000'000'000},
                                {"T", 1000'000'000'000},
                                {"P", 1000'000'000'000'000},
                                {"E", 1000'000'000'000'000'000},
                                {"", 1}};

}  // namespace

bool Selector::Matches(const Device& device) const {
  if (nodes_.empty()) return false;
  return Evaluation(nodes_, device).True(static_cast<uint32_t>(nodes_.size() - 1));
}

// Whole and fractional digits then a suffix; exact in 128-bit arithmetic, then rounded up.
Result<Quantity> ParseQuantity(std::string_view text) {
  auto refuse = [&text]() {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a quantity");
  };
  size_t pos = 0;
  Wide whole = 0, fraction = 0, scale = 1;
  bool digits = false;
  for (; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) {
    whole = whole * 10 + (text[pos] - '0');
    digits = true;
    if (whole > std::numeric_limits<int64_t>::max()) return refuse();
  }
  if (pos < text.size() && text[pos] == '.') {
    for (++pos; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) {
      if (scale > 1'000'000'000) return refuse();
      fraction = fraction * 10 + (text[pos] - '0');
      scale *= 10;
      digits = true;
    }
  }
  if (!digits) return refuse();
  for (const Suffix& suffix : kSuffixes) {
    if (text.substr(pos) != suffix.text) continue;
    Wide value = whole * suffix.multiplier + (fraction * suffix.multiplier + scale - 1) / scale;
    if (value > std::numeric_limits<int64_t>::max()) return refuse();
    return Quantity{static_cast<int64_t>(value)};
  }
  return refuse();
}

}  // namespace migsim::dra

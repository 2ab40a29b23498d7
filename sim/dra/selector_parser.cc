// The recursive-descent parser of Selector::Parse. Errors name the expression, the column
// (1-based) and the construct, so that a user can find what migsim does not support.

#include <cctype>
#include <optional>

#include "sim/dra/selector.h"

namespace migsim::dra {

class SelectorParser {
 public:
  explicit SelectorParser(std::string_view text) : text_(text) {}

  Result<Selector> Run() {
    out_.expression_ = std::string(text_);
    // Kubernetes' limit on a device selector's CEL expression; it also bounds the depth of
    // a chain of && or || (left-deep trees), which Matches walks recursively.
    if (text_.size() > kMaxLength) {
      return Status::InvalidArgument("selector '" + std::string(text_.substr(0, 40)) +
                                     "...': " + std::to_string(text_.size()) +
                                     " bytes, more than Kubernetes' limit of " +
                                     std::to_string(kMaxLength));
    }
    std::optional<uint32_t> root = Or();
    if (root && (SkipSpace(), pos_ < text_.size())) Unexpected();
    if (!error_.empty()) return Status::InvalidArgument(error_);
    if (out_.nodes_[*root].kind == Selector::Kind::kLiteral &&
        out_.nodes_[*root].type != Selector::LiteralType::kBool) {
      return Status::InvalidArgument(Prefix() + "the expression is not a condition");
    }
    return std::move(out_);
  }

 private:
  using Node = Selector::Node;
  using Kind = Selector::Kind;

  std::string Prefix() const { return "selector '" + std::string(text_) + "': "; }
  std::string Column(size_t at) const { return " at column " + std::to_string(at + 1); }

  std::nullopt_t Fail(const std::string& message) {
    if (error_.empty()) error_ = Prefix() + message;
    return std::nullopt;
  }
  // A construct outside the subset: the word or operator found, named as such.
  std::nullopt_t Unsupported(std::string_view construct, size_t at) {
    return Fail("unsupported construct '" + std::string(construct) + "'" + Column(at) +
                " (migsim supports device.driver, device.attributes[...], device.capacity[...], "
                "literals, quantity(), compareTo(), == != < <= > >=, in [...], &&, || and !)");
  }
  std::nullopt_t Unexpected() {
    if (pos_ >= text_.size()) return Fail("unexpected end of expression");
    return Unsupported(PeekToken(), pos_);
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string_view PeekToken() {
    SkipSpace();
    size_t end = pos_;
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (end < text_.size() && word(text_[end])) {
      while (end < text_.size() && word(text_[end])) ++end;
    } else if (end < text_.size()) {
      ++end;
      if (end < text_.size() && std::string_view("=&|<>!").find(text_[end]) != std::string::npos &&
          std::string_view("=&|<>!").find(text_[end - 1]) != std::string::npos) {
        ++end;
      }
    }
    return text_.substr(pos_, end - pos_);
  }
  bool Accept(std::string_view token) {
    if (PeekToken() != token) return false;
    pos_ += token.size();
    return true;
  }
  bool Expect(std::string_view token) {
    if (Accept(token)) return true;
    if (pos_ >= text_.size()) {
      Fail("expected '" + std::string(token) + "' but the expression ended");
    } else {
      Fail("expected '" + std::string(token) + "' but found '" + std::string(PeekToken()) + "'" +
           Column(pos_));
    }
    return false;
  }

  uint32_t Add(Node node) {
    out_.nodes_.push_back(std::move(node));
    return static_cast<uint32_t>(out_.nodes_.size() - 1);
  }
  std::optional<uint32_t> Binary(Kind kind, std::string_view op,
                                 std::optional<uint32_t> (SelectorParser::*next)()) {
    std::optional<uint32_t> left = (this->*next)();
    while (left && Accept(op)) {
      std::optional<uint32_t> right = (this->*next)();
      if (!right) return std::nullopt;
      left = Add({.kind = kind, .children = {*left, *right}});
    }
    return left;
  }
  std::optional<uint32_t> Or() { return Binary(Kind::kOr, "||", &SelectorParser::And); }
  std::optional<uint32_t> And() { return Binary(Kind::kAnd, "&&", &SelectorParser::Unary); }
  // Every nesting ('!' and parentheses) passes here: the depth is bounded so that no
  // expression can exhaust the stack (found by the dra_selector fuzz target).
  std::optional<uint32_t> Unary() {
    if (depth_ > kMaxDepth) {  // the outermost Unary is not nested
      return Fail("nested more than " + std::to_string(kMaxDepth) + " levels deep" + Column(pos_));
    }
    ++depth_;
    std::optional<uint32_t> out = UnaryAt();
    --depth_;
    return out;
  }
  std::optional<uint32_t> UnaryAt() {
    if (!Accept("!")) return Relation();
    std::optional<uint32_t> inner = Unary();
    if (!inner) return std::nullopt;
    return Add({.kind = Kind::kNot, .children = {*inner}});
  }

  std::optional<Selector::Op> RelOp() {
    static constexpr std::pair<std::string_view, Selector::Op> kOps[] = {
        {"==", Selector::Op::kEq}, {"!=", Selector::Op::kNe}, {"<=", Selector::Op::kLe},
        {">=", Selector::Op::kGe}, {"<", Selector::Op::kLt},  {">", Selector::Op::kGt}};
    for (const auto& [token, op] : kOps) {
      if (Accept(token)) return op;
    }
    return std::nullopt;
  }
  std::optional<uint32_t> Relation() {
    std::optional<uint32_t> left = Term();
    if (!left) return std::nullopt;
    if (std::optional<Selector::Op> op = RelOp()) {
      std::optional<uint32_t> right = Term();
      if (!right) return std::nullopt;
      return Add({.kind = Kind::kCompare, .op = *op, .children = {*left, *right}});
    }
    if (Accept("in")) {
      std::optional<uint32_t> list = Term();
      if (!list) return std::nullopt;
      if (out_.nodes_[*list].kind != Kind::kList) return Fail("'in' needs a list [...]");
      return Add({.kind = Kind::kIn, .children = {*left, *list}});
    }
    return left;
  }

  std::optional<uint32_t> Term() {
    std::string_view token = PeekToken();
    if (token.empty()) return Unexpected();
    if (Accept("(")) {
      std::optional<uint32_t> inner = Or();
      if (!inner || !Expect(")")) return std::nullopt;
      return inner;
    }
    if (token == "[") return List();
    if (token == "device") return DeviceAccess();
    return Literal();
  }

  std::optional<uint32_t> List() {
    Accept("[");
    Node list{.kind = Kind::kList};
    if (!Accept("]")) {
      do {
        std::optional<uint32_t> element = Literal();
        if (!element) return std::nullopt;
        list.children.push_back(*element);
      } while (Accept(","));
      if (!Expect("]")) return std::nullopt;
    }
    return Add(std::move(list));
  }

  std::optional<std::string> StringLiteral() {
    SkipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) {
      Fail("expected a string literal" + Column(pos_));
      return std::nullopt;
    }
    const char quote = text_[pos_];
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) {
      Fail("unterminated string literal" + Column(pos_));
      return std::nullopt;
    }
    std::string value(text_.substr(pos_ + 1, end - pos_ - 1));
    if (value.find('\\') != std::string::npos) {
      Unsupported("\\", pos_ + 1 + value.find('\\'));
      return std::nullopt;
    }
    pos_ = end + 1;
    return value;
  }

  std::optional<uint32_t> Literal() {
    std::string_view token = PeekToken();
    const size_t at = pos_;
    if (token == "\"" || token == "'") {
      std::optional<std::string> text = StringLiteral();
      if (!text) return std::nullopt;
      return Add({.type = Selector::LiteralType::kString, .text = *text});
    }
    if (token == "true" || token == "false") {
      pos_ += token.size();
      return Add({.type = Selector::LiteralType::kBool, .number = token == "true" ? 1 : 0});
    }
    if (token == "quantity") return QuantityCall();
    const bool negative = token == "-";
    if (negative) pos_ += 1, token = PeekToken();
    if (!token.empty() && std::isdigit(static_cast<unsigned char>(token[0]))) {
      int64_t value = 0;
      for (char c : token) {
        if (!std::isdigit(static_cast<unsigned char>(c)) || value > (INT64_MAX - 9) / 10) {
          return Fail("'" + std::string(token) + "' is not an integer" + Column(pos_));
        }
        value = value * 10 + (c - '0');
      }
      pos_ += token.size();
      return Add({.type = Selector::LiteralType::kInt, .number = negative ? -value : value});
    }
    return Unsupported(negative ? "-" : token, at);
  }

  std::optional<uint32_t> QuantityCall() {
    const size_t at = pos_;
    Accept("quantity");
    if (!Expect("(")) return std::nullopt;
    std::optional<std::string> text = StringLiteral();
    if (!text || !Expect(")")) return std::nullopt;
    Result<Quantity> quantity = ParseQuantity(*text);
    if (!quantity.ok()) return Fail(quantity.status().message() + Column(at));
    return Add({.type = Selector::LiteralType::kQuantity, .number = quantity.value().value});
  }

  std::optional<uint32_t> DeviceAccess() {
    Accept("device");
    if (!Expect(".")) return std::nullopt;
    const size_t at = pos_;
    std::string_view field = PeekToken();
    pos_ += field.size();
    if (field == "driver") return Add({.kind = Kind::kDriver});
    if (field != "attributes" && field != "capacity")
      return Unsupported("device." + std::string(field), at);
    if (!Expect("[")) return std::nullopt;
    std::optional<std::string> domain = StringLiteral();
    if (!domain || !Expect("]") || !Expect(".")) return std::nullopt;
    std::string name(PeekToken());
    if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) {
      return Fail("expected an attribute name" + Column(pos_));
    }
    pos_ += name.size();
    const Kind kind = field == "attributes" ? Kind::kAttribute : Kind::kCapacity;
    uint32_t access = Add({.kind = kind, .text = name, .domain = *domain});
    return MethodCall(access);
  }

  // `.compareTo(x)` after a lookup; any other method is outside the subset.
  std::optional<uint32_t> MethodCall(uint32_t target) {
    SkipSpace();
    if (PeekToken() != ".") return target;
    ++pos_;
    const size_t at = pos_;
    std::string_view method = PeekToken();
    if (method != "compareTo") return Unsupported(method, at);
    pos_ += method.size();
    if (!Expect("(")) return std::nullopt;
    std::optional<uint32_t> argument = Term();
    if (!argument || !Expect(")")) return std::nullopt;
    return Add({.kind = Kind::kCompareTo, .children = {target, *argument}});
  }

  std::string_view text_;
  static constexpr int kMaxDepth = 64;
  static constexpr size_t kMaxLength = 10 * 1024;  // resource.k8s.io CELSelectorExpressionMaxLength

  size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;
  Selector out_;
};

Result<Selector> Selector::Parse(std::string_view expression) {
  return SelectorParser(expression).Run();
}

}  // namespace migsim::dra

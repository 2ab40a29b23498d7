#pragma once
// Device selectors: the subset of CEL that real ResourceClaims and DeviceClasses use,
// parsed once and evaluated against each device.
//
// Supported: `device.driver`, `device.attributes["<domain>"].<name>`,
// `device.capacity["<domain>"].<name>`, string/int/bool literals, `quantity("10Gi")`,
// `<capacity>.compareTo(<quantity>)` (-1, 0 or 1), the comparisons == != < <= > >=,
// `<value> in [<literal>, ...]`, `&&`, `||`, `!` and parentheses. Anything else (other
// functions or macros such as matches() or semver(), arithmetic, the ternary operator,
// other fields of `device`) is refused at parse time with the expression and the
// construct named.
//
// Evaluation differs from Kubernetes in one documented way: looking up an attribute or a
// capacity the device does not have, or comparing values of different types, makes the
// selector false for that device (Kubernetes' CEL runtime raises an error and the
// allocation is aborted).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/dra/device.h"

namespace migsim::dra {

class Selector {
 public:
  // One node of the expression tree; children are indices into nodes_, smaller than the
  // node's own index (the root is the last node).
  enum class Kind : uint8_t {
    kLiteral,    // text / number / flag / quantity hold the value
    kList,       // children: the literal elements
    kDriver,     // device.driver
    kAttribute,  // device.attributes[domain].name
    kCapacity,   // device.capacity[domain].name
    kCompareTo,  // children[0].compareTo(children[1])
    kCompare,    // children[0] op children[1]
    kIn,         // children[0] in children[1]
    kAnd,
    kOr,
    kNot,
  };
  enum class Op : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
  enum class LiteralType : uint8_t { kString, kInt, kBool, kQuantity };
  struct Node {
    Kind kind = Kind::kLiteral;
    Op op = Op::kEq;
    LiteralType type = LiteralType::kString;
    std::string text{};  // string literal; attribute or capacity name
    std::string domain{};
    int64_t number = 0;  // int literal, quantity (base units), bool (0/1)
    std::vector<uint32_t> children{};

    bool operator==(const Node&) const = default;
  };

  // Parses `expression`. InvalidArgument, e.g. "selector 'device.attributes[\"gpu.nvidia.com\"]
  // .uuid.matches(\"^GPU\")': unsupported construct 'matches' at column 42 (...)".
  static Result<Selector> Parse(std::string_view expression);

  // True when the device satisfies the expression (see the header comment for lookups
  // that fail).
  bool Matches(const Device& device) const;
  const std::string& expression() const { return expression_; }
  // The same expression however it is spelt: quotes, spaces and redundant parentheses aside.
  bool operator==(const Selector& other) const { return nodes_ == other.nodes_; }

 private:
  friend class SelectorParser;
  std::string expression_;
  std::vector<Node> nodes_;
};

// Parses a Kubernetes quantity ("10Gi", "500M", "4864Mi", "7", "1.5Gi") into base units,
// rounded up. InvalidArgument naming the text when it is not one.
Result<Quantity> ParseQuantity(std::string_view text);

}  // namespace migsim::dra

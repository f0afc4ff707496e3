#pragma once
// The syntax tree of a parsed template. Every node keeps its source position
// so that a render error can name the line and column. The tree is
// immutable after parsing: one parsed template renders on many threads.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chat/jinja/errors.h"
#include "chat/jinja/value.h"

namespace ingot::chat::jinja {

enum class NodeKind {
  // expressions
  kLiteral,
  kName,
  kListLiteral,
  kDictLiteral,
  kGetAttr,
  kGetItem,
  kSlice,
  kCall,
  kFilter,
  kTest,
  kUnary,
  kBinary,
  kLogical,
  kCompare,
  kCondExpr,
  // statements
  kText,
  kPrint,
  kIf,
  kFor,
  kSet,
  kSetBlock,
  kMacro,
  kCallBlock,
  kFilterBlock,
  kBreak,
  kContinue,
  kScopeBody,  // a plain sequence of statements ({% generation %} bodies)
};

struct Node {
  Node(NodeKind k, SourcePos p) : kind(k), pos(p) {}
  virtual ~Node() = default;
  NodeKind kind;
  SourcePos pos;
};

using NodePtr = std::unique_ptr<Node>;
using Body = std::vector<NodePtr>;

// ---- expressions ----

struct LiteralNode : Node {
  LiteralNode(SourcePos p, Value v) : Node(NodeKind::kLiteral, p), value(std::move(v)) {}
  Value value;
};

struct NameNode : Node {
  NameNode(SourcePos p, std::string n) : Node(NodeKind::kName, p), name(std::move(n)) {}
  std::string name;
};

struct ListLiteralNode : Node {
  ListLiteralNode(SourcePos p, bool tuple) : Node(NodeKind::kListLiteral, p), is_tuple(tuple) {}
  std::vector<NodePtr> items;
  bool is_tuple;
};

struct DictLiteralNode : Node {
  explicit DictLiteralNode(SourcePos p) : Node(NodeKind::kDictLiteral, p) {}
  std::vector<std::pair<NodePtr, NodePtr>> entries;
};

struct GetAttrNode : Node {
  GetAttrNode(SourcePos p, NodePtr o, std::string a)
      : Node(NodeKind::kGetAttr, p), object(std::move(o)), attribute(std::move(a)) {}
  NodePtr object;
  std::string attribute;
};

struct GetItemNode : Node {
  GetItemNode(SourcePos p, NodePtr o, NodePtr i)
      : Node(NodeKind::kGetItem, p), object(std::move(o)), index(std::move(i)) {}
  NodePtr object;
  NodePtr index;
};

struct SliceNode : Node {
  explicit SliceNode(SourcePos p) : Node(NodeKind::kSlice, p) {}
  NodePtr start, stop, step;  // each may be null
};

// Arguments as written at a call site.
struct ArgList {
  std::vector<NodePtr> positional;
  std::vector<std::pair<std::string, NodePtr>> keyword;
  NodePtr star_args;    // *args
  NodePtr star_kwargs;  // **kwargs
};

struct CallNode : Node {
  CallNode(SourcePos p, NodePtr c) : Node(NodeKind::kCall, p), callee(std::move(c)) {}
  NodePtr callee;
  ArgList args;
};

struct FilterNode : Node {
  FilterNode(SourcePos p, NodePtr in, std::string n)
      : Node(NodeKind::kFilter, p), input(std::move(in)), name(std::move(n)) {}
  NodePtr input;  // null inside {% filter %} and {% set x | f %}: the body
  std::string name;
  ArgList args;
};

struct TestNode : Node {
  TestNode(SourcePos p, NodePtr in, std::string n, bool neg)
      : Node(NodeKind::kTest, p), input(std::move(in)), name(std::move(n)), negated(neg) {}
  NodePtr input;
  std::string name;
  ArgList args;
  bool negated;
};

enum class UnaryOp { kNot, kNegate, kPlus };
struct UnaryNode : Node {
  UnaryNode(SourcePos p, UnaryOp o, NodePtr x)
      : Node(NodeKind::kUnary, p), op(o), operand(std::move(x)) {}
  UnaryOp op;
  NodePtr operand;
};

enum class BinaryOp { kAdd, kSub, kMul, kDiv, kFloorDiv, kMod, kPow, kConcat };
struct BinaryNode : Node {
  BinaryNode(SourcePos p, BinaryOp o, NodePtr l, NodePtr r)
      : Node(NodeKind::kBinary, p), op(o), left(std::move(l)), right(std::move(r)) {}
  BinaryOp op;
  NodePtr left, right;
};

struct LogicalNode : Node {
  LogicalNode(SourcePos p, bool and_op, NodePtr l, NodePtr r)
      : Node(NodeKind::kLogical, p), is_and(and_op), left(std::move(l)), right(std::move(r)) {}
  bool is_and;
  NodePtr left, right;
};

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe, kIn, kNotIn };
struct CompareNode : Node {
  CompareNode(SourcePos p, NodePtr f) : Node(NodeKind::kCompare, p), first(std::move(f)) {}
  NodePtr first;
  std::vector<std::pair<CompareOp, NodePtr>> rest;  // a < b < c chains
};

struct CondExprNode : Node {
  CondExprNode(SourcePos p, NodePtr t, NodePtr a, NodePtr b)
      : Node(NodeKind::kCondExpr, p),
        test(std::move(t)),
        then_value(std::move(a)),
        else_value(std::move(b)) {}
  NodePtr test, then_value, else_value;  // else_value may be null: Undefined
};

// ---- statements ----

struct TextNode : Node {
  TextNode(SourcePos p, std::string t) : Node(NodeKind::kText, p), text(std::move(t)) {}
  std::string text;
};

struct PrintNode : Node {
  PrintNode(SourcePos p, NodePtr e) : Node(NodeKind::kPrint, p), expr(std::move(e)) {}
  NodePtr expr;
};

struct IfNode : Node {
  explicit IfNode(SourcePos p) : Node(NodeKind::kIf, p) {}
  std::vector<std::pair<NodePtr, Body>> branches;  // if, then each elif
  Body else_body;
};

struct ForNode : Node {
  explicit ForNode(SourcePos p) : Node(NodeKind::kFor, p) {}
  NodePtr target;  // a name or a tuple of names
  NodePtr iterable;
  NodePtr condition;  // `for x in xs if cond`, may be null
  Body body;
  Body else_body;
  bool recursive = false;
};

struct SetNode : Node {
  SetNode(SourcePos p, NodePtr t, NodePtr v)
      : Node(NodeKind::kSet, p), target(std::move(t)), value(std::move(v)) {}
  NodePtr target;  // a name, a tuple of names, or namespace.attribute
  NodePtr value;
};

struct SetBlockNode : Node {
  SetBlockNode(SourcePos p, NodePtr t) : Node(NodeKind::kSetBlock, p), target(std::move(t)) {}
  NodePtr target;
  NodePtr filter;  // a FilterNode chain applied to the body, may be null
  Body body;
};

struct MacroParam {
  std::string name;
  NodePtr default_value;  // may be null
};

struct MacroNode : Node {
  MacroNode(SourcePos p, std::string n) : Node(NodeKind::kMacro, p), name(std::move(n)) {}
  std::string name;
  std::vector<MacroParam> params;
  Body body;
  // Whether the body reads `varargs`, `kwargs` or `caller`: Jinja2 accepts
  // extra arguments only then.
  bool uses_varargs = false;
  bool uses_kwargs = false;
  bool uses_caller = false;
};

struct CallBlockNode : Node {
  explicit CallBlockNode(SourcePos p) : Node(NodeKind::kCallBlock, p) {}
  NodePtr call;                       // a CallNode
  std::shared_ptr<MacroNode> caller;  // the body as the macro `caller`
};

struct FilterBlockNode : Node {
  explicit FilterBlockNode(SourcePos p) : Node(NodeKind::kFilterBlock, p) {}
  NodePtr filter;  // a FilterNode chain whose innermost input is null
  Body body;
};

struct ScopeBodyNode : Node {
  explicit ScopeBodyNode(SourcePos p) : Node(NodeKind::kScopeBody, p) {}
  Body body;
};

struct LoopControlNode : Node {
  LoopControlNode(SourcePos p, bool is_break)
      : Node(is_break ? NodeKind::kBreak : NodeKind::kContinue, p) {}
};

}  // namespace ingot::chat::jinja

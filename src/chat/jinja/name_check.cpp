#include "chat/jinja/name_check.h"

#include "chat/jinja/builtin_tests.h"
#include "chat/jinja/filters.h"

namespace ingot::chat::jinja {
namespace {

class NameChecker {
 public:
  void body(const Body& nodes, bool soft) {
    for (const NodePtr& node : nodes) visit(node.get(), soft);
  }

 private:
  void args(const ArgList& list, bool soft) {
    for (const NodePtr& arg : list.positional) visit(arg.get(), soft);
    for (const auto& [_, arg] : list.keyword) visit(arg.get(), soft);
    visit(list.star_args.get(), soft);
    visit(list.star_kwargs.get(), soft);
  }

  void visit(const Node* node, bool soft) {
    if (!node) return;
    switch (node->kind) {
      case NodeKind::kListLiteral:
        for (const NodePtr& item : static_cast<const ListLiteralNode*>(node)->items)
          visit(item.get(), soft);
        break;
      case NodeKind::kDictLiteral:
        for (const auto& [k, v] : static_cast<const DictLiteralNode*>(node)->entries) {
          visit(k.get(), soft);
          visit(v.get(), soft);
        }
        break;
      case NodeKind::kGetAttr:
        visit(static_cast<const GetAttrNode*>(node)->object.get(), soft);
        break;
      case NodeKind::kGetItem: {
        const auto* n = static_cast<const GetItemNode*>(node);
        visit(n->object.get(), soft);
        visit(n->index.get(), soft);
        break;
      }
      case NodeKind::kSlice: {
        const auto* n = static_cast<const SliceNode*>(node);
        visit(n->start.get(), soft);
        visit(n->stop.get(), soft);
        visit(n->step.get(), soft);
        break;
      }
      case NodeKind::kCall: {
        const auto* n = static_cast<const CallNode*>(node);
        visit(n->callee.get(), soft);
        args(n->args, soft);
        break;
      }
      case NodeKind::kFilter: {
        const auto* n = static_cast<const FilterNode*>(node);
        if (!soft && !is_known_filter(n->name)) {
          throw_syntax_error(n->pos, "No filter named '" + n->name + "'.");
        }
        visit(n->input.get(), soft);
        args(n->args, soft);
        break;
      }
      case NodeKind::kTest: {
        const auto* n = static_cast<const TestNode*>(node);
        if (!soft && !is_known_test(n->name)) {
          throw_syntax_error(n->pos, "No test named '" + n->name + "'.");
        }
        visit(n->input.get(), soft);
        args(n->args, soft);
        break;
      }
      case NodeKind::kUnary:
        visit(static_cast<const UnaryNode*>(node)->operand.get(), soft);
        break;
      case NodeKind::kBinary: {
        const auto* n = static_cast<const BinaryNode*>(node);
        visit(n->left.get(), soft);
        visit(n->right.get(), soft);
        break;
      }
      case NodeKind::kLogical: {
        const auto* n = static_cast<const LogicalNode*>(node);
        visit(n->left.get(), soft);
        visit(n->right.get(), soft);
        break;
      }
      case NodeKind::kCompare: {
        const auto* n = static_cast<const CompareNode*>(node);
        visit(n->first.get(), soft);
        for (const auto& [_, operand] : n->rest) visit(operand.get(), soft);
        break;
      }
      case NodeKind::kCondExpr: {
        const auto* n = static_cast<const CondExprNode*>(node);
        visit(n->test.get(), true);
        visit(n->then_value.get(), true);
        visit(n->else_value.get(), true);
        break;
      }
      default:
        statement(node, soft);
    }
  }

  // Loops, macros and blocks open a new compiler frame, which is never soft.
  void statement(const Node* node, bool soft) {
    switch (node->kind) {
      case NodeKind::kPrint:
        visit(static_cast<const PrintNode*>(node)->expr.get(), soft);
        break;
      case NodeKind::kIf: {
        const auto* n = static_cast<const IfNode*>(node);
        for (const auto& [test, branch] : n->branches) {
          visit(test.get(), true);
          body(branch, true);
        }
        body(n->else_body, true);
        break;
      }
      case NodeKind::kFor: {
        const auto* n = static_cast<const ForNode*>(node);
        visit(n->iterable.get(), soft);
        visit(n->condition.get(), false);
        body(n->body, false);
        body(n->else_body, false);
        break;
      }
      case NodeKind::kSet:
        visit(static_cast<const SetNode*>(node)->value.get(), soft);
        break;
      case NodeKind::kSetBlock: {
        const auto* n = static_cast<const SetBlockNode*>(node);
        visit(n->filter.get(), soft);
        body(n->body, false);
        break;
      }
      case NodeKind::kMacro: {
        const auto* n = static_cast<const MacroNode*>(node);
        for (const MacroParam& param : n->params) visit(param.default_value.get(), false);
        body(n->body, false);
        break;
      }
      case NodeKind::kCallBlock: {
        const auto* n = static_cast<const CallBlockNode*>(node);
        visit(n->call.get(), soft);
        body(n->caller->body, false);
        break;
      }
      case NodeKind::kFilterBlock: {
        const auto* n = static_cast<const FilterBlockNode*>(node);
        visit(n->filter.get(), soft);
        body(n->body, false);
        break;
      }
      case NodeKind::kScopeBody:
        body(static_cast<const ScopeBodyNode*>(node)->body, soft);
        break;
      default:
        break;
    }
  }
};

}  // namespace

void check_filter_and_test_names(const Body& body) {
  NameChecker().body(body, false);
}

}  // namespace ingot::chat::jinja

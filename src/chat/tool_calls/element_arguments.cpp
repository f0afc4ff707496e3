#include "chat/tool_calls/element_arguments.h"

#include "chat/tool_calls/json_text.h"
#include "chat/tool_calls/scan_rules.h"

namespace ingot::chat::tool_calls {
namespace {

using Json = nlohmann::ordered_json;

// A tag longer than this, or elements nested deeper, are not arguments.
constexpr size_t kMaxTag = 256;

const Json* member_schema(const Json* schema, const char* field, const std::string& name = {}) {
  if (!schema || !schema->is_object()) return nullptr;
  auto found = schema->find(field);
  if (found == schema->end()) return nullptr;
  if (name.empty()) return &*found;
  if (!found->is_object()) return nullptr;
  auto member = found->find(name);
  return member == found->end() ? nullptr : &*member;
}

bool all_items(const std::vector<ElementArgumentsParser::Element>& children) {
  for (const auto& child : children) {
    if (child.name != "item") return false;
  }
  return true;
}

}  // namespace

Json element_value(const ElementArgumentsParser::Element& element, const Json* schema) {
  std::set<std::string> types = schema ? schema_types(*schema) : std::set<std::string>();
  if (element.children.empty()) {
    bool blank = trim_json_space(element.text).empty();
    if (blank && types.size() == 1 && types.contains("object")) return Json::object();
    if (blank && types.size() == 1 && types.contains("array")) return Json::array();
    return Json::parse(typed_argument(element.text, schema));
  }
  bool array = types.contains("array") ? !types.contains("object") || all_items(element.children)
                                       : !types.contains("object") && all_items(element.children);
  if (array) {
    Json items = Json::array();
    const Json* item_schema = member_schema(schema, "items");
    for (const auto& child : element.children) items.push_back(element_value(child, item_schema));
    return items;
  }
  Json object = Json::object();
  for (const auto& child : element.children) {
    object[child.name] = element_value(child, member_schema(schema, "properties", child.name));
  }
  return object;
}

ElementArgumentsParser::ElementArgumentsParser(std::string_view marker, std::string tool,
                                               const ToolSchemas& schemas, CallSink& sink)
    : marker_(marker), tool_(std::move(tool)), schemas_(schemas), sink_(sink), until_(marker) {
  sink_.open_call(tool_);
  sink_.append_arguments("{");
}

Outcome ElementArgumentsParser::feed(char c) {
  switch (phase_) {
    case Phase::kText:
      return text_byte(c);
    case Phase::kTagOpen:
      if (c != '<') return Outcome::failed();
      phase_ = Phase::kTagName;
      tag_.clear();
      return Outcome::more();
    case Phase::kTagName:
      return tag_name_byte(c);
  }
  return Outcome::failed();
}

Outcome ElementArgumentsParser::text_byte(char c) {
  std::string released;
  bool marked = until_.feed(c, released);
  if (open_.empty()) {
    if (!trim_json_space(released).empty()) return Outcome::failed();
  } else {
    open_.back().text += released;
  }
  if (marked) phase_ = Phase::kTagOpen;
  return Outcome::more();
}

Outcome ElementArgumentsParser::tag_name_byte(char c) {
  if (c == '/' && tag_.empty() && open_.empty()) {
    // The call's own closing tag: the format's close reads it.
    close_object();
    std::string spill(marker_);
    spill += "</";
    return Outcome::done(std::move(spill));
  }
  if (c != '>') {
    tag_ += c;
    return tag_.size() <= kMaxTag ? Outcome::more() : Outcome::failed();
  }
  return end_tag();
}

Outcome ElementArgumentsParser::end_tag() {
  phase_ = Phase::kText;
  until_ = TextUntil(marker_);
  if (!tag_.starts_with('/')) {
    if (tag_.empty() || open_.size() >= size_t{kMaxArgumentNesting}) return Outcome::failed();
    open_.push_back({tag_, {}, {}});
    return Outcome::more();
  }
  if (open_.empty() || open_.back().name != std::string_view(tag_).substr(1)) {
    return Outcome::failed();
  }
  Element closed = std::move(open_.back());
  open_.pop_back();
  if (open_.empty()) {
    send(closed);
  } else {
    open_.back().children.push_back(std::move(closed));
  }
  return Outcome::more();
}

void ElementArgumentsParser::send(const Element& parameter) {
  std::string member = any_member_ ? "," : "";
  member += compact_json(Json(parameter.name)) + ":";
  member += compact_json(element_value(parameter, schemas_.parameter(tool_, parameter.name)));
  sink_.append_arguments(member);
  any_member_ = true;
}

void ElementArgumentsParser::close_object() {
  if (closed_) return;
  closed_ = true;
  sink_.append_arguments("}");
}

Outcome ElementArgumentsParser::finish() {
  close_object();
  return Outcome::done();
}

}  // namespace ingot::chat::tool_calls

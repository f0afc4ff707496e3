#include "server/openai/json_body.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ingot::server {
namespace {

using nlohmann::ordered_json;
using Object = ordered_json::object_t;
// An object's members as the vector they are kept in: ordered_map's own
// operator[] and emplace search the members before them.
using Members = Object::Container;

// An object's keys are compared one by one while it is small; past this
// many, through an index of its own.
constexpr size_t kKeysScannedInOrder = 16;

// Builds the document from nlohmann's SAX events, as its own DOM parser
// does, but appends each object member without searching the members
// before it, and stops at the first limit a body passes.
class BoundedDocumentBuilder {
 public:
  bool null() { return add(nullptr); }
  bool boolean(bool value) { return add(value); }
  bool number_integer(ordered_json::number_integer_t value) { return add(value); }
  bool number_unsigned(ordered_json::number_unsigned_t value) { return add(value); }
  bool number_float(ordered_json::number_float_t value, const std::string&) { return add(value); }
  bool string(std::string& value) { return add(std::move(value)); }
  bool binary(ordered_json::binary_t& value) { return add(std::move(value)); }

  bool start_object(size_t) { return open(ordered_json::object()); }
  bool start_array(size_t) { return open(ordered_json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& name) {
    Frame& frame = frames_.back();
    Members& members = frame.value->get_ref<Object&>();
    if (std::optional<size_t> existing = find_member(frame, name)) {
      // A repeated key keeps its first place and takes the last value, as
      // nlohmann's own parser does.
      member_ = &members[*existing].second;
      return true;
    }
    if (members.size() == kMaxJsonObjectKeys) return refuse(too_many_keys());
    members.emplace_back(std::move(name), nullptr);
    if (frame.index) frame.index->emplace(members.back().first, members.size() - 1);
    member_ = &members.back().second;
    return true;
  }

  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception& error) {
    // nlohmann prefixes "[json.exception.parse_error.101] "; clients need
    // only the rest. A number past a double's range arrives here too
    // (out_of_range.406).
    std::string_view what = error.what();
    if (size_t bracket = what.find("] "); bracket != std::string_view::npos) {
      what.remove_prefix(bracket + 2);
    }
    return refuse("The request body is not valid JSON: " + std::string(what));
  }

  const std::optional<std::string>& refusal() const { return refusal_; }
  ordered_json& document() { return document_; }

 private:
  struct Frame {
    ordered_json* value;
    // Key to member position, once the object holds more than
    // kKeysScannedInOrder members.
    std::unique_ptr<std::unordered_map<std::string, size_t>> index;
  };

  // Where the next value goes: the document, the open array's end or the
  // member whose key came last.
  ordered_json* place(ordered_json&& value) {
    if (frames_.empty()) {
      document_ = std::move(value);
      return &document_;
    }
    ordered_json& container = *frames_.back().value;
    if (container.is_array()) {
      auto& elements = container.get_ref<ordered_json::array_t&>();
      if (elements.size() == kMaxJsonArrayElements) {
        refuse(too_many_elements());
        return nullptr;
      }
      elements.push_back(std::move(value));
      return &elements.back();
    }
    *member_ = std::move(value);
    return member_;
  }

  template <class Value>
  bool add(Value&& value) {
    return place(ordered_json(std::forward<Value>(value))) != nullptr;
  }

  bool open(ordered_json&& container) {
    if (frames_.size() >= size_t(kMaxJsonDepth)) {
      return refuse("The request body nests deeper than " + std::to_string(kMaxJsonDepth) +
                    " levels.");
    }
    ordered_json* placed = place(std::move(container));
    if (!placed) return false;
    frames_.push_back({placed, nullptr});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  std::optional<size_t> find_member(Frame& frame, const std::string& name) {
    const Members& members = frame.value->get_ref<const Object&>();
    if (frame.index) {
      auto found = frame.index->find(name);
      if (found == frame.index->end()) return std::nullopt;
      return found->second;
    }
    for (size_t i = 0; i < members.size(); ++i) {
      if (members[i].first == name) return i;
    }
    if (members.size() >= kKeysScannedInOrder) {
      frame.index = std::make_unique<std::unordered_map<std::string, size_t>>();
      for (size_t i = 0; i < members.size(); ++i) frame.index->emplace(members[i].first, i);
    }
    return std::nullopt;
  }

  static std::string too_many_keys() {
    return "The request body has an object of more than " + std::to_string(kMaxJsonObjectKeys) +
           " keys.";
  }

  static std::string too_many_elements() {
    return "The request body has an array of more than " + std::to_string(kMaxJsonArrayElements) +
           " elements.";
  }

  bool refuse(std::string message) {
    if (!refusal_) refusal_ = std::move(message);
    return false;
  }

  ordered_json document_;
  std::vector<Frame> frames_;
  ordered_json* member_ = nullptr;
  std::optional<std::string> refusal_;
};

}  // namespace

std::variant<nlohmann::ordered_json, ApiError> parse_json_body(std::string_view body) {
  BoundedDocumentBuilder builder;
  bool parsed = ordered_json::sax_parse(body.begin(), body.end(), &builder);
  if (!parsed || builder.refusal()) {
    std::string message = builder.refusal().value_or("The request body is not valid JSON.");
    return invalid_request(std::move(message), std::nullopt, "invalid_json");
  }
  return std::move(builder.document());
}

}  // namespace ingot::server

#pragma once
// Field-by-field validation of a JSON request body: the first problem
// found is kept as an ApiError naming its `param`; later checks are
// skipped, so the documented validation order decides which error a
// request with several problems gets.

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "server/api_error.h"

namespace ingot::server {

// Each check either leaves `error` empty or fills it with the first problem.
class Validator {
 public:
  using json = nlohmann::ordered_json;

  explicit Validator(const json& body) : body_(body) {}

  bool failed() const { return error_.has_value(); }
  ApiError take_error() { return std::move(*error_); }

  void fail(std::string message, std::string param, std::optional<std::string> code = {}) {
    if (!error_) error_ = invalid_request(std::move(message), std::move(param), std::move(code));
  }
  void fail_with(ApiError error) {
    if (!error_) error_ = std::move(error);
  }

  // A field that is absent or null counts as not given.
  const json* field(const char* name) const {
    auto it = body_.find(name);
    if (it == body_.end() || it->is_null()) return nullptr;
    return &*it;
  }

  std::optional<float> number_in(const char* name, double lo, double hi, bool lo_open = false) {
    const json* v = field(name);
    if (v == nullptr || failed()) return std::nullopt;
    if (!v->is_number()) {
      fail(std::string("'") + name + "' must be a number.", name);
      return std::nullopt;
    }
    double x = v->get<double>();
    bool below = lo_open ? x <= lo : x < lo;
    if (!std::isfinite(x) || below || x > hi) {
      fail(std::string("'") + name + "' must be " + (lo_open ? "greater than " : "between ") +
               format_number(lo) + (lo_open ? " and at most " : " and ") + format_number(hi) +
               ", got " + v->dump() + ".",
           name);
      return std::nullopt;
    }
    return static_cast<float>(x);
  }

  std::optional<int64_t> integer(const char* name) {
    const json* v = field(name);
    if (v == nullptr || failed()) return std::nullopt;
    if (v->is_boolean() || !(v->is_number_integer() || v->is_number_unsigned())) {
      fail(std::string("'") + name + "' must be an integer.", name);
      return std::nullopt;
    }
    if (v->is_number_unsigned() &&
        v->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      fail(std::string("'") + name + "' is too large.", name);
      return std::nullopt;
    }
    return v->get<int64_t>();
  }

  std::optional<bool> boolean(const char* name) {
    const json* v = field(name);
    if (v == nullptr || failed()) return std::nullopt;
    if (!v->is_boolean()) {
      fail(std::string("'") + name + "' must be a boolean.", name);
      return std::nullopt;
    }
    return v->get<bool>();
  }

 private:
  static std::string format_number(double x) {
    json j = x;
    if (x == std::floor(x) && std::fabs(x) < 1e15) j = static_cast<int64_t>(x);
    return j.dump();
  }

  const json& body_;
  std::optional<ApiError> error_;
};

}  // namespace ingot::server

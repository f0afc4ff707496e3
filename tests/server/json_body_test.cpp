#include "server/openai/json_body.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

ApiError refused(const std::variant<json, ApiError>& result) {
  EXPECT_TRUE(std::holds_alternative<ApiError>(result));
  return std::holds_alternative<ApiError>(result) ? std::get<ApiError>(result) : ApiError{};
}

std::string object_of_keys(size_t count) {
  std::string body = "{";
  for (size_t i = 0; i < count; ++i) body += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  return body + "}";
}

std::string array_of(size_t count, const std::string& element) {
  std::string body = "[";
  for (size_t i = 0; i < count; ++i) body += (i ? "," : "") + element;
  return body + "]";
}

TEST(JsonBody, RejectsMalformedJson) {
  for (std::string body :
       {"{", "{\"a\": NaN}", "{\"a\": Infinity}", "{\"a\": \"\xff\"}", "", "[1,]"}) {
    auto result = parse_json_body(body);
    ASSERT_TRUE(std::holds_alternative<ApiError>(result)) << body;
    EXPECT_EQ(std::get<ApiError>(result).code, "invalid_json");
  }
}

// nlohmann reports a number past a double's range as out_of_range, not as a
// parse error; it must still be the client's 400, never the server's 500.
TEST(JsonBody, NumbersPastADoublesRangeAreInvalidJson) {
  for (std::string body : {R"({"max_tokens": 1e400})", R"({"temperature": -1e400})",
                           R"({"logit_bias": {"1": 1e400}})", R"([1e999999999])"}) {
    auto result = parse_json_body(body);
    ASSERT_TRUE(std::holds_alternative<ApiError>(result)) << body;
    const ApiError& error = std::get<ApiError>(result);
    EXPECT_EQ(error.status, 400) << body;
    EXPECT_EQ(error.code, "invalid_json") << body;
    EXPECT_THAT(error.message, ::testing::HasSubstr("number")) << body;
  }
}

TEST(JsonBody, RejectsNestingPast64Levels) {
  std::string deep = std::string(65, '[') + std::string(65, ']');
  EXPECT_TRUE(std::holds_alternative<ApiError>(parse_json_body(deep)));
  std::string fine = std::string(63, '[') + std::string(63, ']');
  EXPECT_TRUE(std::holds_alternative<json>(parse_json_body(fine)));
  std::string very_deep = std::string(100000, '[');
  EXPECT_TRUE(std::holds_alternative<ApiError>(parse_json_body(very_deep)));
}

TEST(JsonBody, ARepeatedKeyKeepsItsPlaceAndTakesTheLastValue) {
  auto small = parse_json_body(R"({"a": 1, "b": 2, "a": 3})");
  ASSERT_TRUE(std::holds_alternative<json>(small));
  EXPECT_EQ(std::get<json>(small).dump(), R"({"a":3,"b":2})");
  // Past the keys compared one by one, the same through the object's index.
  std::string large = object_of_keys(40);
  large.insert(large.size() - 1, R"(,"k3":"last","k39":"end")");
  auto parsed = parse_json_body(large);
  ASSERT_TRUE(std::holds_alternative<json>(parsed));
  const json& object = std::get<json>(parsed);
  EXPECT_EQ(object.size(), 40u);
  EXPECT_EQ(object.items().begin().key(), "k0");
  EXPECT_EQ(std::next(object.begin(), 3).key(), "k3");
  EXPECT_EQ(object["k3"], "last");
  EXPECT_EQ(object["k39"], "end");
}

TEST(JsonBody, NestedContainersKeepTheirMembersInOrder) {
  const std::string body = R"({"z": [1, {"y": [true, null, "s"], "x": {}}, []], "w": -2.5})";
  auto parsed = parse_json_body(body);
  ASSERT_TRUE(std::holds_alternative<json>(parsed));
  EXPECT_EQ(std::get<json>(parsed).dump(), json::parse(body).dump());
}

TEST(JsonBody, AnObjectOfMoreThanTheKeyLimitIsRefused) {
  EXPECT_TRUE(std::holds_alternative<json>(parse_json_body(object_of_keys(kMaxJsonObjectKeys))));
  const ApiError error = refused(parse_json_body(object_of_keys(kMaxJsonObjectKeys + 1)));
  EXPECT_EQ(error.status, 400);
  EXPECT_EQ(error.code, "invalid_json");
  EXPECT_THAT(error.message, ::testing::HasSubstr(std::to_string(kMaxJsonObjectKeys) + " keys"));
}

TEST(JsonBody, AnArrayOfMoreThanTheElementLimitIsRefused) {
  EXPECT_TRUE(std::holds_alternative<json>(parse_json_body(array_of(kMaxJsonArrayElements, "0"))));
  const ApiError error = refused(parse_json_body(array_of(kMaxJsonArrayElements + 1, "0")));
  EXPECT_EQ(error.code, "invalid_json");
  EXPECT_THAT(error.message,
              ::testing::HasSubstr(std::to_string(kMaxJsonArrayElements) + " elements"));
}

TEST(JsonBody, FourHundredThousandEmptyObjectsParse) {
  auto parsed = parse_json_body(array_of(400'000, "{}"));
  ASSERT_TRUE(std::holds_alternative<json>(parsed));
  EXPECT_EQ(std::get<json>(parsed).size(), 400'000u);
}

}  // namespace
}  // namespace ingot::server

// The Responses API's reply JSON: the response object, its output items,
// and a stream whose events fold (as the SDK folds them) to the same
// output as the whole reply.

#include "server/responses/responses_response.h"

#include <gtest/gtest.h>

namespace ingot::server::responses {
namespace {

using json = nlohmann::ordered_json;
namespace tools = chat::tool_calls;

engine::FinishEvent finished(engine::FinishReason reason) {
  engine::FinishEvent finish{reason, {}, {}, {}};
  finish.usage.prompt_tokens = 10;
  finish.usage.completion_tokens = 7;
  finish.usage.cached_tokens = 4;
  finish.usage.reasoning_tokens = 2;
  return finish;
}

ResponseFrame frame() {
  return new_response_frame("m", {{"store", true}, {"tool_choice", "auto"}});
}

// Items without their random ids, to compare two replies' outputs.
json without_ids(json items) {
  for (json& item : items) item.erase("id");
  return items;
}

TEST(ResponsesResponse, TheWholeResponseHasItsItemsInOrderAndItsUsage) {
  tools::ParsedReply reply{"Hello", {{"call_1", "f", "{\"a\":1}"}}};
  const json output = output_items("think", reply, {}, finished(engine::FinishReason::kStop));
  const engine::FinishEvent finish = finished(engine::FinishReason::kStop);
  const json response = response_object(frame(), output, &finish);
  EXPECT_EQ(response["object"], "response");
  EXPECT_EQ(response["status"], "completed");
  EXPECT_TRUE(response["incomplete_details"].is_null());
  EXPECT_EQ(response["store"], true);
  ASSERT_EQ(response["output"].size(), 3u);
  EXPECT_EQ(response["output"][0]["type"], "reasoning");
  EXPECT_EQ(response["output"][0]["content"][0]["text"], "think");
  EXPECT_EQ(response["output"][1]["content"][0]["text"], "Hello");
  EXPECT_EQ(response["output"][2]["call_id"], "call_1");
  EXPECT_EQ(response["output"][2]["arguments"], "{\"a\":1}");
  EXPECT_EQ(response["usage"], json::parse(R"({"input_tokens":10,
      "input_tokens_details":{"cached_tokens":4},"output_tokens":7,
      "output_tokens_details":{"reasoning_tokens":2},"total_tokens":17})"));
}

TEST(ResponsesResponse, ACallToANamespacedFunctionIsNamedAsTheApiNamesIt) {
  const ToolNamespaces namespaces = {{"agents__spawn", {"agents", "spawn"}}};
  tools::ParsedReply reply{std::nullopt,
                           {{"call_1", "agents__spawn", "{}"}, {"call_2", "plain", "{}"}}};
  const json output = output_items("", reply, namespaces, finished(engine::FinishReason::kStop));
  ASSERT_EQ(output.size(), 2u);
  EXPECT_EQ(output[0]["name"], "spawn");
  EXPECT_EQ(output[0]["namespace"], "agents");
  EXPECT_EQ(output[1]["name"], "plain");
  EXPECT_FALSE(output[1].contains("namespace"));

  ResponseEvents writer(new_response_frame("m", json::object(), namespaces));
  writer.start();
  writer.tool_call({0, "call_1", "agents__spawn", ""});
  writer.finish(finished(engine::FinishReason::kStop));
  EXPECT_EQ(writer.output()[0]["name"], "spawn");
  EXPECT_EQ(writer.output()[0]["namespace"], "agents");
}

TEST(ResponsesResponse, AReplyCutByItsTokenLimitIsIncomplete) {
  const engine::FinishEvent finish = finished(engine::FinishReason::kLength);
  const json response = response_object(frame(), json::array(), &finish);
  EXPECT_EQ(response["status"], "incomplete");
  EXPECT_EQ(response["incomplete_details"]["reason"], "max_output_tokens");
}

TEST(ResponsesResponse, ACallCutByTheTokenLimitIsAnIncompleteItem) {
  tools::ParsedReply reply{std::nullopt, {{"call_1", "f", "{\"a\": "}}};
  const json whole = output_items("", reply, {}, finished(engine::FinishReason::kLength));
  EXPECT_EQ(whole.back()["status"], "incomplete");
  EXPECT_EQ(output_items("", reply, {}, finished(engine::FinishReason::kStop)).back()["status"],
            "completed");

  ResponseEvents writer(frame());
  writer.start();
  writer.tool_call({0, "call_1", "f", "{\"a\": "});
  std::vector<StreamEvent> end = writer.finish(finished(engine::FinishReason::kLength));
  EXPECT_EQ(writer.output().back()["status"], "incomplete");
  EXPECT_EQ(end.back().data["type"], "response.incomplete");
}

TEST(ResponsesResponse, IdsAreLongAndNeverRepeat) {
  const ResponseFrame a = frame(), b = frame();
  EXPECT_EQ(a.id.size(), 5u + 48u);
  EXPECT_EQ(a.id.rfind("resp_", 0), 0u);
  EXPECT_NE(a.id, b.id);
}

// What the SDK's accumulator does with the events this writer sends.
void fold(json& snapshot, const StreamEvent& event) {
  const json& data = event.data;
  const std::string type = data["type"];
  if (type == "response.created") {
    snapshot = data["response"];
  } else if (type == "response.output_item.added") {
    snapshot["output"].push_back(data["item"]);
  } else if (type == "response.content_part.added") {
    snapshot["output"][data["output_index"].get<size_t>()]["content"].push_back(data["part"]);
  } else if (type == "response.output_text.delta" || type == "response.reasoning_text.delta") {
    json& part = snapshot["output"][data["output_index"].get<size_t>()]["content"]
                         [data["content_index"].get<size_t>()];
    part["text"] = part["text"].get<std::string>() + data["delta"].get<std::string>();
  } else if (type == "response.function_call_arguments.delta") {
    json& item = snapshot["output"][data["output_index"].get<size_t>()];
    item["arguments"] = item["arguments"].get<std::string>() + data["delta"].get<std::string>();
  } else if (type == "response.output_item.done") {
    snapshot["output"][data["output_index"].get<size_t>()] = data["item"];
  } else if (type == "response.completed" || type == "response.incomplete") {
    EXPECT_EQ(without_ids(snapshot["output"]), without_ids(data["response"]["output"]));
    snapshot = data["response"];
  }
}

TEST(ResponsesResponse, AStreamFoldsToTheWholeResponse) {
  ResponseEvents writer(frame());
  std::vector<StreamEvent> events = writer.start();
  auto append = [&events](std::vector<StreamEvent> more) {
    for (StreamEvent& event : more) events.push_back(std::move(event));
  };
  append(writer.reasoning("thi"));
  append(writer.reasoning("nk"));
  append(writer.text("Hel"));
  append(writer.text("lo"));
  append(writer.tool_call({0, "call_1", "f", ""}));
  append(writer.tool_call({0, std::nullopt, std::nullopt, "{\"a\":"}));
  append(writer.tool_call({0, std::nullopt, std::nullopt, "1}"}));
  append(writer.finish(finished(engine::FinishReason::kStop)));

  json snapshot;
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].data["sequence_number"], i);
    EXPECT_EQ(events[i].name, events[i].data["type"]);
    fold(snapshot, events[i]);
  }
  EXPECT_EQ(events.front().name, "response.created");
  EXPECT_EQ(events[1].name, "response.in_progress");
  EXPECT_EQ(events.back().name, "response.completed");
  tools::ParsedReply reply{"Hello", {{"call_1", "f", "{\"a\":1}"}}};
  EXPECT_EQ(without_ids(snapshot["output"]),
            without_ids(output_items("think", reply, {}, finished(engine::FinishReason::kStop))));
  EXPECT_EQ(writer.output(), snapshot["output"]);
}

TEST(ResponsesResponse, AnErrorMidStreamIsAnErrorEventThenAFailedResponse) {
  ResponseEvents writer(frame());
  writer.start();
  writer.text("partial");
  ApiError error = invalid_request("the engine failed");
  error.code = "server_error";
  std::vector<StreamEvent> events = writer.fail(error);
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[events.size() - 2].name, "error");
  EXPECT_EQ(events[events.size() - 2].data["code"], "server_error");
  EXPECT_EQ(events.back().name, "response.failed");
  EXPECT_EQ(events.back().data["response"]["status"], "failed");
}

}  // namespace
}  // namespace ingot::server::responses

// `ingot tokenize` as a user runs it: ids, pieces, BOS and special-token
// switches, input from a file, and a one-line error for a bad model.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "cli/run_command.h"
#include "support/shared_data.h"

namespace ingot::testing {
namespace {

CommandResult tokenize(const std::string& model, std::vector<std::string> args) {
  std::vector<std::string> argv = {ingot_binary(), "tokenize", "--model",
                                   shared_path(model).string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

TEST(Tokenize, IdsWithBosAsTheModelAsks) {
  INGOT_REQUIRE_SHARED();
  CommandResult result = tokenize("models/stories260K.gguf", {"--ids", "Once upon a time"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "[1, 403, 407, 261, 378]\n");
  result = tokenize("models/stories260K.gguf", {"--ids", "--no-bos", "Once upon a time"});
  EXPECT_EQ(result.out, "[403, 407, 261, 378]\n");
}

// --log-level belongs to ingot itself but may follow the subcommand.
TEST(Tokenize, LogLevelMayFollowTheSubcommand) {
  INGOT_REQUIRE_SHARED();
  CommandResult result =
      tokenize("models/stories260K.gguf", {"--log-level", "error", "--ids", "Once upon a time"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "[1, 403, 407, 261, 378]\n");
  result = tokenize("models/stories260K.gguf", {"--log-level", "loud", "--ids", "Once"});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find("--log-level"), std::string::npos) << result.err;
}

TEST(Tokenize, SpecialTokensParsedUnlessAskedNotTo) {
  INGOT_REQUIRE_SHARED();
  CommandResult parsed = tokenize("models/tiny-qwen3-f16.gguf", {"--ids", "<|im_end|>"});
  EXPECT_EQ(parsed.out, "[151645]\n");
  CommandResult plain =
      tokenize("models/tiny-qwen3-f16.gguf", {"--ids", "--no-parse-special", "<|im_end|>"});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out, "[151645]\n");
}

TEST(Tokenize, PiecesFromAFile) {
  INGOT_REQUIRE_SHARED();
  std::string path = (temp_dir() / "input.txt").string();
  std::ofstream(path) << "Hello world";
  CommandResult result = tokenize("models/tiny-qwen3-f16.gguf", {"--pieces", "-f", path});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "\"Hello\"\n\" world\"\n");
}

TEST(Tokenize, NotAGgufIsAOneLineError) {
  std::string path = (temp_dir() / "not.gguf").string();
  std::ofstream(path) << "definitely not a model";
  CommandResult result = run_command({ingot_binary(), "tokenize", "--model", path, "hi"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("error: "), std::string::npos);
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;
}

}  // namespace
}  // namespace ingot::testing

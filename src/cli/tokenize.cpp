// `ingot tokenize`: what the model's tokenizer makes of a text, with the
// same ids llama.cpp gives. --bench measures encoding speed instead.

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "gguf/reader.h"
#include "tokenizer/tokenizer.h"

namespace ingot::cli {
namespace {

struct TokenizeOptions {
  std::string model;
  std::string text;
  std::string file;
  bool ids_only = false;
  bool pieces_only = false;
  bool no_bos = false;
  bool no_parse_special = false;
  bool bench = false;
};

std::optional<std::string> read_input(const TokenizeOptions& options) {
  if (options.file.empty()) return options.text;
  std::ifstream in(options.file, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A piece as a JSON string: escapes control characters and shows bytes of
// a split character as U+FFFD instead of failing.
std::string quoted(const std::string& piece) {
  return nlohmann::json(piece).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void print_tokens(const tokenizer::Tokenizer& tokenizer, const std::vector<int32_t>& ids,
                  const TokenizeOptions& options) {
  if (options.ids_only) {
    std::string line = "[";
    for (size_t i = 0; i < ids.size(); ++i) {
      line += (i ? ", " : "") + std::to_string(ids[i]);
    }
    std::printf("%s]\n", line.c_str());
    return;
  }
  for (int32_t id : ids) {
    std::string piece = quoted(tokenizer.token_to_piece(id));
    if (options.pieces_only) {
      std::printf("%s\n", piece.c_str());
    } else {
      std::printf("%6d -> %s\n", id, piece.c_str());
    }
  }
}

// Encodes the input repeatedly for at least a second and reports the rate.
void run_bench(const tokenizer::Tokenizer& tokenizer, const std::string& input,
               const TokenizeOptions& options) {
  using Clock = std::chrono::steady_clock;
  size_t tokens = 0;
  int rounds = 0;
  auto start = Clock::now();
  std::chrono::duration<double> elapsed{};
  do {
    tokens = tokenizer.encode(input, !options.no_bos, !options.no_parse_special).size();
    ++rounds;
    elapsed = Clock::now() - start;
  } while (elapsed.count() < 1.0 || rounds < 3);
  double seconds = elapsed.count() / rounds;
  std::printf("%zu bytes -> %zu tokens in %.1f ms: %.2f MB/s (%d rounds)\n", input.size(), tokens,
              seconds * 1e3, static_cast<double>(input.size()) / seconds / 1e6, rounds);
}

int run(const TokenizeOptions& options) {
  auto file = gguf::GgufFile::open(options.model);
  if (!file.ok()) {
    std::fprintf(stderr, "error: %s\n", file.error().describe().c_str());
    return 1;
  }
  auto tokenizer = tokenizer::Tokenizer::from_gguf(*file);
  if (!tokenizer.ok()) {
    std::fprintf(stderr, "error: %s\n", tokenizer.error().describe().c_str());
    return 1;
  }
  std::optional<std::string> input = read_input(options);
  if (!input) {
    std::fprintf(stderr, "error: cannot read %s\n", options.file.c_str());
    return 1;
  }
  if (options.bench) {
    run_bench(*tokenizer, *input, options);
    return 0;
  }
  print_tokens(*tokenizer, tokenizer->encode(*input, !options.no_bos, !options.no_parse_special),
               options);
  return 0;
}

}  // namespace

void register_tokenize(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<TokenizeOptions>();
  CLI::App* command = app.add_subcommand("tokenize", "Show the token ids a model gives a text");
  command->add_option("--model,-m", options->model, "GGUF model or vocabulary file")
      ->required()
      ->check(CLI::ExistingFile);
  auto* text = command->add_option("text", options->text, "The text to tokenize");
  auto* file = command->add_option("-f,--file", options->file, "Read the text from a file")
                   ->check(CLI::ExistingFile);
  text->excludes(file);
  auto* ids = command->add_flag("--ids", options->ids_only, "Print only the ids, as a list");
  command->add_flag("--pieces", options->pieces_only, "Print only the pieces, one per line")
      ->excludes(ids);
  command->add_flag("--no-bos", options->no_bos, "Do not add BOS/EOS even if the model asks");
  command->add_flag("--no-parse-special", options->no_parse_special,
                    "Treat control-token text such as <|im_start|> as plain text");
  command->add_flag("--bench", options->bench, "Measure encoding speed (MB/s) on the input");
  command->callback([options, &exit_code] {
    if (options->text.empty() && options->file.empty()) {
      throw CLI::ValidationError("tokenize", "give a TEXT or -f FILE");
    }
    exit_code = run(*options);
  });
}

}  // namespace ingot::cli

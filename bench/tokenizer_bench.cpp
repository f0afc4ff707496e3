// Tokenizer speed on about 1 MB of mixed text: English prose and Markdown
// (../shared's documents), code (../shared's chat templates) and CJK
// sentences, with the Qwen2/3 and Llama 3 vocabularies. Reports MB/s.
// Run: build/release/bench/ingot_tokenizer_benchmarks (built alone), or
// build/release/bench/ingot_benchmarks --benchmark_filter=encode_mixed_text

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gguf/reader.h"
#include "tokenizer/tokenizer.h"

namespace {

namespace fs = std::filesystem;

fs::path shared_dir() {
  const char* env = std::getenv("INGOT_SHARED_DIR");
  return env != nullptr ? fs::path(env) : fs::path(INGOT_SHARED_DIR_DEFAULT);
}

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string concatenate_folder(const fs::path& folder) {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(folder)) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  std::string all;
  for (const fs::path& path : paths) all += read_all(path) + "\n";
  return all;
}

// Sentences written for this benchmark: Chinese, Japanese and Korean.
const std::vector<std::string>& cjk_sentences() {
  static const std::vector<std::string> sentences = {
      "今天早上我们在河边散步，看见很多人在打太极拳。",
      "这个服务器在本地运行大型语言模型，不需要连接互联网。",
      "请把昨天的会议记录发给我，我想再检查一下数字是否正确。",
      "他花了三个月的时间学习编程，现在已经能写简单的网站了。",
      "天气预报说明天会下雨，出门的时候别忘了带伞。",
      "我们的团队由五位工程师组成，每个人负责一个模块。",
      "图书馆周末开放到晚上九点，学生可以在那里安静地复习。",
      "这道菜的做法很简单：先把鸡蛋打散，再和西红柿一起炒。",
      "如果程序出现错误，日志里会写明原因和发生的位置。",
      "火车站离这里不远，步行大约十五分钟就能到。",
      "秋天的山上开满了红叶，很多游客专门来拍照。",
      "请在表格中填写您的姓名、电话号码和联系地址。",
      "東京の朝はとても静かで、駅の近くの喫茶店だけが開いています。",
      "このプログラムは入力された文章を小さな単位に分けて処理します。",
      "週末に友達と一緒に山へ登り、頂上でお弁当を食べました。",
      "오늘은 날씨가 좋아서 공원에서 자전거를 탔습니다.",
      "이 도구는 텍스트를 토큰으로 나누고 다시 원래 문장으로 되돌립니다.",
  };
  return sentences;
}

// About 1 MB: 40% prose, 35% code, 25% CJK, in interleaved chunks.
std::string mixed_text() {
  const std::string prose = read_all(shared_dir() / "DESIGN.md") +
                            read_all(shared_dir() / "README.md") +
                            concatenate_folder(shared_dir() / "reference");
  const std::string code = concatenate_folder(shared_dir() / "fixtures/templates");
  std::mt19937 rng(7);
  std::string text;
  size_t prose_at = 0;
  size_t code_at = 0;
  const size_t kChunk = 4000;
  while (text.size() < 1000000) {
    text += prose.substr(prose_at % prose.size(), kChunk * 4 / 10);
    prose_at += kChunk * 4 / 10;
    text += code.substr(code_at % code.size(), kChunk * 35 / 100);
    code_at += kChunk * 35 / 100;
    std::string cjk;
    while (cjk.size() < kChunk / 4) {
      const auto& sentences = cjk_sentences();
      cjk += sentences[rng() % sentences.size()];
      if (rng() % 4 == 0) cjk += "\n";
    }
    text += cjk + "\n";
  }
  return text;
}

void encode_mixed_text(benchmark::State& state, const char* model) {
  auto file = ingot::gguf::GgufFile::open((shared_dir() / "models" / model).string());
  if (!file.ok()) {
    state.SkipWithError(file.error().describe().c_str());
    return;
  }
  auto tokenizer = ingot::tokenizer::Tokenizer::from_gguf(*file);
  if (!tokenizer.ok()) {
    state.SkipWithError(tokenizer.error().describe().c_str());
    return;
  }
  const std::string text = mixed_text();
  size_t tokens = 0;
  for (auto _ : state) {
    auto ids = tokenizer->encode(text, false, true);
    tokens = ids.size();
    benchmark::DoNotOptimize(ids.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["tokens"] = static_cast<double>(tokens);
  state.counters["bytes"] = static_cast<double>(text.size());
}

BENCHMARK_CAPTURE(encode_mixed_text, qwen2, "tiny-qwen2-f16.gguf")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(encode_mixed_text, llama3, "tiny-llama3-f16.gguf")->Unit(benchmark::kMillisecond);

}  // namespace

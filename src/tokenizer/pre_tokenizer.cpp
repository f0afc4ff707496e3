#include "tokenizer/pre_tokenizer.h"

#include <array>

namespace ingot::tokenizer {
namespace {

// GPT-2's word pattern: contractions, letters, digits, other symbols, and
// white space that does not precede a word.
constexpr std::string_view kGpt2Words =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)";

// Llama 3 (tiktoken cl100k style): case-insensitive contractions, numbers in
// groups of up to three, punctuation runs carrying their newlines.
constexpr std::string_view kLlama3Words =
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

// Qwen2: the Llama 3 pattern with single digits.
constexpr std::string_view kQwen2Words =
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
    "\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

// Mistral's Tekken in llama.cpp's form: a word is optional "upper" letters
// then "lower" ones (or the reverse), where upper means any letter but a-z
// and lower any letter but A-Z, so camelCase splits at each capital.
constexpr std::string_view kTekkenWords =
    "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))*((?=[\\p{L}])([^A-Z]))+|"
    "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))+((?=[\\p{L}])([^A-Z]))*|"
    "\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

// DeepSeek LLM's cased-letter class (Latin, Greek, Cyrillic, Armenian,
// Georgian, Cherokee, Glagolitic, Coptic, Deseret, ... as in its tokenizer).
constexpr std::string_view kDeepseekLetters =
    "\\s?[A-Za-z\\x{B5}\\x{C0}-\\x{D6}\\x{D8}-\\x{F6}\\x{F8}-\\x{1BA}\\x{1BC}-\\x{1BF}"
    "\\x{1C4}-\\x{293}\\x{295}-\\x{2AF}\\x{370}-\\x{373}\\x{376}\\x{377}\\x{37B}-\\x{37D}"
    "\\x{37F}\\x{386}\\x{388}-\\x{38A}\\x{38C}\\x{38E}-\\x{3A1}\\x{3A3}-\\x{3F5}\\x{3F7}-\\x{481}"
    "\\x{48A}-\\x{52F}\\x{531}-\\x{556}\\x{10A0}-\\x{10C5}\\x{13A0}-\\x{13F5}\\x{13F8}-\\x{13FD}"
    "\\x{1C90}-\\x{1CBA}\\x{1CBD}-\\x{1CBF}\\x{1D00}-\\x{1D2B}\\x{1D6B}-\\x{1D77}"
    "\\x{1D79}-\\x{1D9A}\\x{1E00}-\\x{1F15}\\x{1F18}-\\x{1F1D}\\x{1F20}-\\x{1F45}"
    "\\x{1F48}-\\x{1F4D}\\x{1F50}-\\x{1F57}\\x{1F59}\\x{1F5B}\\x{1F5D}\\x{1F5F}-\\x{1F7D}"
    "\\x{1F80}-\\x{1FB4}\\x{1FB6}-\\x{1FBC}\\x{1FBE}\\x{1FC2}-\\x{1FC4}\\x{1FC6}-\\x{1FCC}"
    "\\x{1FD0}-\\x{1FD3}\\x{1FD6}-\\x{1FDB}\\x{1FE0}-\\x{1FEC}\\x{1FF2}-\\x{1FF4}"
    "\\x{1FF6}-\\x{1FFC}\\x{2102}\\x{2107}\\x{210A}-\\x{2113}\\x{2115}\\x{2119}-\\x{211D}"
    "\\x{2124}\\x{2126}\\x{2128}\\x{212A}-\\x{212D}\\x{212F}-\\x{2134}\\x{2139}"
    "\\x{213C}-\\x{213F}\\x{2145}-\\x{2149}\\x{214E}\\x{2183}\\x{2184}\\x{2C00}-\\x{2C7B}"
    "\\x{2C7E}-\\x{2CE4}\\x{2CEB}-\\x{2CEE}\\x{2CF2}\\x{2CF3}\\x{A640}-\\x{A66D}"
    "\\x{A680}-\\x{A69B}\\x{A722}-\\x{A76F}\\x{A771}-\\x{A787}\\x{A78B}-\\x{A78E}"
    "\\x{AB70}-\\x{ABBF}\\x{FB00}-\\x{FB06}\\x{FB13}-\\x{FB17}\\x{FF21}-\\x{FF3A}"
    "\\x{FF41}-\\x{FF5A}\\x{10400}-\\x{1044F}\\x{104B0}-\\x{104D3}\\x{104D8}-\\x{104FB}"
    "\\x{10C80}-\\x{10CB2}\\x{10CC0}-\\x{10CF2}\\x{118A0}-\\x{118DF}\\x{1E900}-\\x{1E943}]+";

// ASCII and full-width punctuation, curly quotes, CJK punctuation.
constexpr std::string_view kDeepseekPunctuation =
    "\\s?[!-/:-~\\x{FF01}-\\x{FF0F}\\x{FF1A}-\\x{FF5E}\\x{2018}-\\x{201F}\\x{3000}-\\x{3002}]+";

// CJK ideographs (and everything from U+0800 up to them) and Hangul.
constexpr std::string_view kDeepseekCjk =
    "[\\x{4E00}-\\x{9FA5}\\x{800}-\\x{4E00}\\x{AC00}-\\x{D7FF}]+";

struct Preset {
  std::vector<std::string_view> names;
  std::vector<std::string_view> regexes;
  bool ignore_merges = false;
};

const std::array<Preset, 10>& presets() {
  static const std::array<Preset, 10> table = {{
      {{"default"}, {"[\\p{P}\\$\\+<=>\\^~\\|]+", kGpt2Words, "\\p{N}+", "[0-9][0-9][0-9]"}},
      {{"llama3", "llama-v3", "llama-bpe", "falcon3", "pixtral"}, {kLlama3Words}, true},
      {{"dbrx", "smaug-bpe"}, {kLlama3Words}},
      {{"tekken"}, {kTekkenWords}, true},
      {{"qwen2", "deepseek-r1-qwen", "megrez"}, {kQwen2Words}},
      {{"gpt-2", "phi-2", "jina-es", "jina-de", "jina-v1-en", "jina-v2-es", "jina-v2-de",
        "jina-v2-code", "roberta-bpe", "mpt", "olmo", "jais"},
       {kGpt2Words}},
      {{"starcoder", "refact", "command-r", "smollm", "codeshell", "exaone", "minerva-7b"},
       {"\\p{N}", kGpt2Words}},
      {{"falcon"}, {"[\\p{P}\\$\\+<=>\\^~\\|`]+", kGpt2Words, "[0-9][0-9][0-9]"}},
      {{"deepseek-llm"},
       {"[\\r\\n]", kDeepseekLetters, kDeepseekPunctuation, "\\s+$", kDeepseekCjk, "\\p{N}+"}},
      {{"deepseek-coder"}, {"[\\r\\n]", "\\s?\\p{L}+", "\\s?\\p{P}+", kDeepseekCjk, "\\p{N}"}},
  }};
  return table;
}

}  // namespace

std::vector<std::string_view> pre_tokenizer_names() {
  std::vector<std::string_view> names;
  for (const Preset& preset : presets())
    names.insert(names.end(), preset.names.begin(), preset.names.end());
  return names;
}

Result<PreTokenizer> PreTokenizer::create(std::string_view name) {
  for (const Preset& preset : presets()) {
    for (std::string_view candidate : preset.names) {
      if (candidate != name) continue;
      PreTokenizer pre;
      pre.name_ = std::string(name);
      pre.ignore_merges_ = preset.ignore_merges;
      for (std::string_view pattern : preset.regexes) {
        INGOT_ASSIGN_OR_RETURN(SplitRegex regex, SplitRegex::compile(pattern));
        pre.regexes_.push_back(std::move(regex));
      }
      return pre;
    }
  }
  std::string known;
  for (std::string_view candidate : pre_tokenizer_names()) {
    known += known.empty() ? "" : ", ";
    known += candidate;
  }
  return unsupported("unknown pre-tokenizer '" + std::string(name) +
                     "' (tokenizer.ggml.pre); known: " + known);
}

std::vector<std::string_view> PreTokenizer::split(std::string_view text) const {
  std::vector<std::string_view> pieces;
  if (!text.empty()) pieces.push_back(text);
  std::vector<std::string_view> next;
  for (const SplitRegex& regex : regexes_) {
    next.clear();
    regex.split(pieces, next);
    pieces.swap(next);
  }
  return pieces;
}

}  // namespace ingot::tokenizer

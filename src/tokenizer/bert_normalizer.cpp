#include "tokenizer/bert_normalizer.h"

#include <utf8proc.h>

#include "util/utf8.h"

namespace ingot::tokenizer {
namespace {

// The CJK ideograph blocks BERT splits into single characters (with the
// upper bound of Extension C..E as Hugging Face's tokenizers writes it).
bool is_cjk_ideograph(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

char32_t first_of_decomposition(char32_t code_point) {
  utf8proc_int32_t buffer[32];
  int last_boundclass = 0;
  utf8proc_ssize_t count = utf8proc_decompose_char(
      static_cast<utf8proc_int32_t>(code_point), buffer, 32, UTF8PROC_DECOMPOSE, &last_boundclass);
  return count > 0 ? static_cast<char32_t>(buffer[0]) : code_point;
}

bool is_control(utf8proc_category_t category) {
  return category == UTF8PROC_CATEGORY_CC || category == UTF8PROC_CATEGORY_CF ||
         category == UTF8PROC_CATEGORY_CO || category == UTF8PROC_CATEGORY_CS;
}

bool is_punctuation(utf8proc_category_t category) {
  return category >= UTF8PROC_CATEGORY_PC && category <= UTF8PROC_CATEGORY_PO;
}

bool is_symbol(utf8proc_category_t category) {
  return category >= UTF8PROC_CATEGORY_SM && category <= UTF8PROC_CATEGORY_SO;
}

}  // namespace

bool is_unicode_whitespace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

std::vector<std::string> bert_words(std::string_view text) {
  std::vector<std::string> words(1);
  auto end_word = [&words] {
    if (!words.back().empty()) words.emplace_back();
  };
  size_t pos = 0;
  while (pos < text.size()) {
    char32_t code_point = first_of_decomposition(utf8::decode(text, pos));
    if (is_unicode_whitespace(code_point)) {
      end_word();
      continue;
    }
    auto category = utf8proc_category(static_cast<utf8proc_int32_t>(code_point));
    if (code_point == 0 || code_point == 0xFFFD || is_control(category)) continue;
    auto lower = static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(code_point)));
    if (is_punctuation(category) || (code_point < 0x7F && is_symbol(category)) ||
        is_cjk_ideograph(code_point)) {
      end_word();
      utf8::append(words.back(), lower);
      words.emplace_back();
    } else {
      utf8::append(words.back(), lower);
    }
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

}  // namespace ingot::tokenizer

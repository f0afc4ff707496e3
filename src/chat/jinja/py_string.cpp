#include "chat/jinja/py_string.h"

#include <algorithm>

#include "util/utf8.h"

namespace ingot::chat::jinja::py {
namespace {

bool is_ascii(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// Simple one-to-one case pairs for the scripts chat text commonly uses:
// ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic.
char32_t to_lower(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if (c < 0x80) return c;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7)) return c + 32;
  if (c >= 0x100 && c <= 0x137 && c % 2 == 0) return c + 1;
  if (c >= 0x139 && c <= 0x148 && c % 2 == 1) return c + 1;
  if (c >= 0x14A && c <= 0x177 && c % 2 == 0) return c + 1;
  if (c == 0x178) return 0xFF;
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}

char32_t to_upper(char32_t c) {
  if (c >= 'a' && c <= 'z') return c - 32;
  if (c < 0x80) return c;
  if (c == 0xB5) return 0x39C;
  if ((c >= 0xE0 && c <= 0xFE && c != 0xF7)) return c - 32;
  if (c == 0xFF) return 0x178;
  if (c >= 0x101 && c <= 0x138 && c % 2 == 1 && c != 0x131 && c != 0x138) return c - 1;
  if (c >= 0x13A && c <= 0x148 && c % 2 == 0) return c - 1;
  if (c >= 0x14B && c <= 0x177 && c % 2 == 1) return c - 1;
  if (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) return c - 32;
  if (c == 0x3C2) return 0x3A3;
  if (c >= 0x430 && c <= 0x44F) return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  return c;
}

bool is_cased(char32_t c) {
  return to_lower(c) != c || to_upper(c) != c || c == 0xDF;
}

void append_upper(std::u32string& out, char32_t c) {
  if (c == 0xDF) {  // German sharp s upper-cases to two letters
    out += U"SS";
    return;
  }
  out += to_upper(c);
}

bool in_chars(char32_t c, const std::optional<std::u32string>& chars) {
  if (!chars) return is_space(c);
  return chars->find(c) != std::u32string::npos;
}

std::vector<std::string> split_whitespace(std::u32string_view text, int64_t maxsplit) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    if (i >= text.size()) break;
    if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
      size_t end = text.size();
      while (end > i && is_space(text[end - 1])) --end;
      parts.push_back(encode(text.substr(i, end - i)));
      return parts;
    }
    size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    parts.push_back(encode(text.substr(start, i - start)));
  }
  return parts;
}

}  // namespace

bool is_space(char32_t c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F) || c == 0x85 ||
         c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

std::u32string decode(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) out += utf8::decode(text, pos);
  return out;
}

std::string encode(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) utf8::append(out, c);
  return out;
}

size_t length(std::string_view text) {
  if (is_ascii(text)) return text.size();
  size_t n = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    utf8::decode(text, pos);
    ++n;
  }
  return n;
}

std::string strip(std::string_view text, const std::optional<std::string>& chars, bool left,
                  bool right) {
  std::u32string cps = decode(text);
  std::optional<std::u32string> set;
  if (chars) set = decode(*chars);
  size_t begin = 0;
  size_t end = cps.size();
  if (left) {
    while (begin < end && in_chars(cps[begin], set)) ++begin;
  }
  if (right) {
    while (end > begin && in_chars(cps[end - 1], set)) --end;
  }
  return encode(std::u32string_view(cps).substr(begin, end - begin));
}

std::vector<std::string> split(std::string_view text, const std::optional<std::string>& sep,
                               int64_t maxsplit) {
  if (!sep) return split_whitespace(decode(text), maxsplit);
  std::vector<std::string> parts;
  size_t start = 0;
  while (maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit) {
    size_t hit = text.find(*sep, start);
    if (hit == std::string_view::npos) break;
    parts.emplace_back(text.substr(start, hit - start));
    start = hit + sep->size();
  }
  parts.emplace_back(text.substr(start));
  return parts;
}

std::vector<std::string> rsplit(std::string_view text, const std::optional<std::string>& sep,
                                int64_t maxsplit) {
  if (!sep || maxsplit < 0) {
    if (!sep && maxsplit >= 0) {
      // Whitespace rsplit with a limit: split from the right by reversing.
      std::u32string cps = decode(text);
      std::reverse(cps.begin(), cps.end());
      std::vector<std::string> parts = split_whitespace(cps, maxsplit);
      std::reverse(parts.begin(), parts.end());
      for (std::string& part : parts) {
        std::u32string p = decode(part);
        std::reverse(p.begin(), p.end());
        part = encode(p);
      }
      return parts;
    }
    return split(text, sep, maxsplit);
  }
  std::vector<std::string> parts;
  size_t end = text.size();
  while (static_cast<int64_t>(parts.size()) < maxsplit) {
    if (end < sep->size()) break;
    size_t hit = text.rfind(*sep, end - sep->size());
    if (hit == std::string_view::npos) break;
    parts.emplace_back(text.substr(hit + sep->size(), end - hit - sep->size()));
    end = hit;
  }
  parts.emplace_back(text.substr(0, end));
  std::reverse(parts.begin(), parts.end());
  return parts;
}

std::vector<std::string> splitlines(std::string_view text) {
  std::u32string cps = decode(text);
  std::vector<std::string> lines;
  size_t start = 0;
  size_t i = 0;
  while (i < cps.size()) {
    char32_t c = cps[i];
    bool is_break = c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || (c >= 0x1C && c <= 0x1E) ||
                    c == 0x85 || c == 0x2028 || c == 0x2029;
    if (!is_break) {
      ++i;
      continue;
    }
    lines.push_back(encode(std::u32string_view(cps).substr(start, i - start)));
    i += (c == '\r' && i + 1 < cps.size() && cps[i + 1] == '\n') ? 2 : 1;
    start = i;
  }
  if (start < cps.size()) lines.push_back(encode(std::u32string_view(cps).substr(start)));
  return lines;
}

std::string replace(std::string_view text, std::string_view old_text, std::string_view new_text,
                    int64_t count) {
  std::string out;
  if (old_text.empty()) {
    // Python inserts the replacement before every code point and at the end.
    std::u32string cps = decode(text);
    int64_t done = 0;
    for (char32_t c : cps) {
      if (count < 0 || done < count) {
        out += new_text;
        ++done;
      }
      utf8::append(out, c);
    }
    if (count < 0 || done < count) out += new_text;
    return out;
  }
  size_t start = 0;
  int64_t done = 0;
  while (count < 0 || done < count) {
    size_t hit = text.find(old_text, start);
    if (hit == std::string_view::npos) break;
    out += text.substr(start, hit - start);
    out += new_text;
    start = hit + old_text.size();
    ++done;
  }
  out += text.substr(start);
  return out;
}

int64_t find(std::string_view text, std::string_view sub) {
  size_t hit = text.find(sub);
  if (hit == std::string_view::npos) return -1;
  return static_cast<int64_t>(length(text.substr(0, hit)));
}

int64_t count(std::string_view text, std::string_view sub) {
  if (sub.empty()) return static_cast<int64_t>(length(text)) + 1;
  int64_t n = 0;
  size_t start = 0;
  while ((start = text.find(sub, start)) != std::string_view::npos) {
    ++n;
    start += sub.size();
  }
  return n;
}

std::string lower(std::string_view text) {
  std::u32string cps = decode(text);
  for (char32_t& c : cps) c = to_lower(c);
  return encode(cps);
}

std::string upper(std::string_view text) {
  std::u32string out;
  for (char32_t c : decode(text)) append_upper(out, c);
  return encode(out);
}

std::string title(std::string_view text) {
  std::u32string out;
  bool previous_cased = false;
  for (char32_t c : decode(text)) {
    if (previous_cased) {
      out += to_lower(c);
    } else {
      append_upper(out, c);
    }
    previous_cased = is_cased(c);
  }
  return encode(out);
}

std::string capitalize(std::string_view text) {
  std::u32string out;
  bool first = true;
  for (char32_t c : decode(text)) {
    if (first) {
      append_upper(out, c);
      first = false;
    } else {
      out += to_lower(c);
    }
  }
  return encode(out);
}

std::vector<int64_t> slice_indices(int64_t size, std::optional<int64_t> start,
                                   std::optional<int64_t> stop, int64_t step) {
  auto clamp = [size, step](std::optional<int64_t> index, int64_t fallback) {
    if (!index) return fallback;
    int64_t i = *index;
    if (i < 0) i += size;
    if (step > 0) return std::clamp<int64_t>(i, 0, size);
    return std::clamp<int64_t>(i, -1, size - 1);
  };
  std::vector<int64_t> indexes;
  if (step > 0) {
    int64_t begin = clamp(start, 0);
    int64_t end = clamp(stop, size);
    // Steps are compared before adding so that a huge step cannot overflow.
    for (int64_t i = begin; i < end; i += step) {
      indexes.push_back(i);
      if (end - i <= step) break;
    }
  } else {
    int64_t begin = clamp(start, size - 1);
    int64_t end = clamp(stop, -1);
    for (int64_t i = begin; i > end; i += step) {
      indexes.push_back(i);
      if (i - end <= -(step + 1) + 1) break;
    }
  }
  return indexes;
}

}  // namespace ingot::chat::jinja::py

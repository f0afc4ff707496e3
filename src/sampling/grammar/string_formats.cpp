#include "sampling/grammar/string_formats.h"

#include <string>

namespace ingot::sampling::grammar {
namespace {

const std::vector<std::pair<std::string_view, std::string_view>> kDateRules = {
    {"format-date",
     R"(format-year "-" ( format-month-31 "-" format-day-31 | format-month-30 "-" format-day-30 | "02-" format-day-28 ) | format-leap-year "-02-29")"},
    {"format-year", "[0-9]{4}"},
    // A year divisible by 4 but not by 100, or divisible by 400.
    {"format-leap-year",
     R"([0-9]{2} ( "0" [48] | [2468] [048] | [13579] [26] ) | ( "0" [048] | [2468] [048] | [13579] [26] ) "00")"},
    {"format-month-31", R"("0" [13578] | "1" [02])"},
    {"format-month-30", R"("0" [469] | "11")"},
    {"format-day-28", R"("0" [1-9] | "1" [0-9] | "2" [0-8])"},
    {"format-day-30", R"(format-day-28 | "29" | "30")"},
    {"format-day-31", R"(format-day-30 | "31")"},
};

const std::vector<std::pair<std::string_view, std::string_view>> kTimeRules = {
    {"format-time",
     R"(format-hour ":" format-minute ":" format-minute ( "." [0-9]{1,9} )? ( "Z" | [+-] format-hour ":" format-minute ))"},
    {"format-hour", R"([01] [0-9] | "2" [0-3])"},
    {"format-minute", "[0-5] [0-9]"},
};

std::vector<GbnfRule> to_rules(
    const std::vector<std::pair<std::string_view, std::string_view>>& a,
    const std::vector<std::pair<std::string_view, std::string_view>>& b = {}) {
  std::vector<GbnfRule> out;
  for (const auto* list : {&a, &b}) {
    for (auto [name, body] : *list) out.push_back({std::string(name), std::string(body)});
  }
  return out;
}

}  // namespace

std::optional<std::vector<GbnfRule>> string_format_rules(std::string_view format) {
  if (format == "date") return to_rules(kDateRules);
  if (format == "time") return to_rules(kTimeRules);
  if (format == "date-time") {
    std::vector<GbnfRule> rules = {{"format-date-time", R"(format-date "T" format-time)"}};
    for (GbnfRule& rule : to_rules(kDateRules, kTimeRules)) rules.push_back(std::move(rule));
    return rules;
  }
  if (format == "uuid") {
    return std::vector<GbnfRule>{
        {"format-uuid",
         R"(format-hex{8} "-" format-hex{4} "-" format-hex{4} "-" format-hex{4} "-" format-hex{12})"},
        {"format-hex", "[0-9a-fA-F]"}};
  }
  if (format == "email") {
    return std::vector<GbnfRule>{
        {"format-email",
         R"(format-email-atom ( "." format-email-atom )* "@" format-domain-label ( "." format-domain-label )+)"},
        {"format-email-atom", R"([a-zA-Z0-9!#$%&'*+/=?^_`{|}~\-]+)"},
        {"format-domain-label", R"([a-zA-Z0-9] ( [a-zA-Z0-9\-]* [a-zA-Z0-9] )?)"}};
  }
  return std::nullopt;
}

const std::vector<std::string_view>& supported_string_formats() {
  static const std::vector<std::string_view> formats = {"date", "time", "date-time", "uuid",
                                                        "email"};
  return formats;
}

}  // namespace ingot::sampling::grammar

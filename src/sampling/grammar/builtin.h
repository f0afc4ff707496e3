#pragma once
// Grammars ingot ships: any JSON value, and any JSON object (what
// `response_format: {"type": "json_object"}` asks for). Whitespace between
// tokens is limited to one optional run of at most 20 characters so that a
// model cannot stall in an endless run of blanks.

#include <string_view>

namespace ingot::sampling::grammar {

inline constexpr std::string_view kJsonValueGbnf = R"(root   ::= value
value  ::= object | array | string | number | ("true" | "false" | "null") ws
object ::= "{" ws ( string ":" ws value ("," ws string ":" ws value)* )? "}" ws
array  ::= "[" ws ( value ("," ws value)* )? "]" ws
string ::= "\"" char* "\"" ws
char   ::= [^"\\\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})
number ::= "-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]+)? ([eE] [-+]? [0-9]+)? ws
ws     ::= [ \t\n]{0,20}
)";

// The same rules with an object at the top.
inline constexpr std::string_view kJsonObjectGbnf = R"(root   ::= object
value  ::= object | array | string | number | ("true" | "false" | "null") ws
object ::= "{" ws ( string ":" ws value ("," ws string ":" ws value)* )? "}" ws
array  ::= "[" ws ( value ("," ws value)* )? "]" ws
string ::= "\"" char* "\"" ws
char   ::= [^"\\\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})
number ::= "-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]+)? ([eE] [-+]? [0-9]+)? ws
ws     ::= [ \t\n]{0,20}
)";

}  // namespace ingot::sampling::grammar

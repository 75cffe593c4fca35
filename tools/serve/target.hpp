// A request's target as the client sent it (percent-encoded), read apart from the HTTP library:
// its path and query decoded, checked to be UTF-8, and any text of it made safe for a log line.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace damas::cli {

using QueryParams = std::multimap<std::string, std::string>;

struct Target {
    std::string path;   // decoded
    QueryParams query;  // names and values decoded, '+' read as a space; "a" alone is a=""
};

// The decoded target, or nullopt with `problem` set (a client error: a stray '%', text that is
// not UTF-8 once decoded, a target that does not start with '/').
std::optional<Target> decode_target(std::string_view target, std::string& problem);

// Whether `s` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool is_utf8(std::string_view s);

// `s` for a log line: printable ASCII kept, every other byte (controls, DEL, bytes past 0x7f)
// and the backslash written \xHH, so that a client cannot forge or colour lines; cut to
// `max_bytes` of input with "..." after.
std::string escape_for_log(std::string_view s, std::size_t max_bytes = 300);

}  // namespace damas::cli

// Text from outside shown inside a message (an error quoting a FEN, a path, a name).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace damas {

// Text from outside (a FEN, a path, a name) made safe to show in a message: control characters
// escaped (\n, \x1b), so that no input reaches a terminal as a command or breaks the one-line
// error, and cut after `limit` characters with "...", so that a 130 KB input does not come back
// whole. Backslashes are kept, so that a message escaped twice reads the same.
inline std::string printable(std::string_view text, std::size_t limit = 200) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (const char c : text) {
        if (out.size() >= limit) {
            out += "...";
            break;
        }
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7f) {
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace damas

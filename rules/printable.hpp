// Text from outside shown inside a message (an error quoting a FEN, a path, a name).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace damas {

// The length of the well-formed UTF-8 sequence that starts text[i] (2 to 4), or 0.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const std::size_t n = lead >= 0xc2 && lead <= 0xdf   ? 2
                          : lead >= 0xe0 && lead <= 0xef ? 3
                          : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                         : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((byte(i + k) & 0xc0) != 0x80) return 0;
    const unsigned char second = byte(i + 1);
    if ((lead == 0xe0 && second < 0xa0) || (lead == 0xed && second > 0x9f) ||  // overlong, UTF-16
        (lead == 0xf0 && second < 0x90) || (lead == 0xf4 && second > 0x8f))  // surrogates, > 10FFFF
        return 0;
    return n;
}

// Text from outside (a FEN, a path, a name) made safe to show in a message: control characters
// escaped (\n, \x1b), so that no input reaches a terminal as a command or breaks the one-line
// error, bytes that are not UTF-8 escaped (\xff), so that a message is valid UTF-8 (Python
// strings and JSON need it; a file name in another encoding shows as its bytes), and cut after
// `limit` characters with "...", so that a 130 KB input does not come back whole. Backslashes are
// kept, so that a message escaped twice reads the same.
inline std::string printable(std::string_view text, std::size_t limit = 200) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (out.size() >= limit) {
            out += "...";
            break;
        }
        const char c = text[i];
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u >= 0x80) {
            const std::size_t n = utf8_sequence_length(text, i);
            if (n == 0) {
                out += "\\x";
                out += hex[u >> 4];
                out += hex[u & 15];
                continue;
            }
            out += text.substr(i, n);
            i += n - 1;
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

// Reading request targets (see target.hpp).
#include "tools/serve/target.hpp"

#include <algorithm>

namespace damas::cli {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Percent-decoding; nullopt where a '%' is not followed by two hex digits.
std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            if (i + 2 >= s.size()) return std::nullopt;
            const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += plus_is_space && s[i] == '+' ? ' ' : s[i];
        }
    }
    return out;
}

}  // namespace

bool is_utf8(std::string_view s) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    for (std::size_t i = 0; i < s.size();) {
        const unsigned c = byte(i);
        int extra = 0;
        unsigned low = 0x80, high = 0xbf;  // the range of the byte after the first
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            extra = 1;
        } else if (c >= 0xe0 && c <= 0xef) {
            extra = 2;
            if (c == 0xe0) low = 0xa0;   // overlong
            if (c == 0xed) high = 0x9f;  // surrogates
        } else if (c >= 0xf0 && c <= 0xf4) {
            extra = 3;
            if (c == 0xf0) low = 0x90;   // overlong
            if (c == 0xf4) high = 0x8f;  // past U+10FFFF
        } else {
            return false;
        }
        if (i + static_cast<std::size_t>(extra) >= s.size()) return false;
        if (byte(i + 1) < low || byte(i + 1) > high) return false;
        for (int k = 2; k <= extra; ++k)
            if (byte(i + static_cast<std::size_t>(k)) < 0x80 ||
                byte(i + static_cast<std::size_t>(k)) > 0xbf)
                return false;
        i += static_cast<std::size_t>(extra) + 1;
    }
    return true;
}

std::optional<Target> decode_target(std::string_view target, std::string& problem) {
    if (target.empty() || target[0] != '/') {
        problem = "the request target must start with '/'";
        return std::nullopt;
    }
    const std::size_t question = target.find('?');
    Target t;
    const auto path = percent_decode(target.substr(0, question), false);
    if (!path) {
        problem = "a '%' in the path is not followed by two hexadecimal digits";
        return std::nullopt;
    }
    if (!is_utf8(*path)) {
        problem = "the path is not UTF-8 once decoded";
        return std::nullopt;
    }
    t.path = *path;
    if (question == std::string_view::npos) return t;
    std::string_view query = target.substr(question + 1);
    const std::size_t hash = query.find('#');
    if (hash != std::string_view::npos) query = query.substr(0, hash);
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        const auto name = percent_decode(pair.substr(0, eq), true);
        const auto value = percent_decode(
            eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
        if (!name || !value) {
            problem = "a '%' in the query is not followed by two hexadecimal digits";
            return std::nullopt;
        }
        if (!is_utf8(*name) || !is_utf8(*value)) {
            problem = "parameter '" + (is_utf8(*name) ? name->substr(0, 40) : std::string("?")) +
                      "' is not UTF-8 once decoded";
            return std::nullopt;
        }
        t.query.emplace(*name, *value);
    }
    return t;
}

std::string escape_for_log(std::string_view s, std::size_t max_bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    const std::size_t n = std::min(s.size(), max_bytes);
    out.reserve(n + 8);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    if (s.size() > max_bytes) out += "...";
    return out;
}

}  // namespace damas::cli

// Minimal JSON writer for --json output: objects and arrays built as strings, keys in order.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

namespace damas::cli {

inline std::string json_quote(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out + '"';
}

class JsonObject {
  public:
    JsonObject& raw(std::string_view key, std::string_view value) {
        body_ += (body_.empty() ? "" : ",") + json_quote(key) + ':' + std::string(value);
        return *this;
    }
    JsonObject& str(std::string_view key, std::string_view value) {
        return raw(key, json_quote(value));
    }
    JsonObject& boolean(std::string_view key, bool value) {
        return raw(key, value ? "true" : "false");
    }
    template <class T>
    JsonObject& num(std::string_view key, T value) {
        if constexpr (std::is_floating_point_v<T>) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.6g", static_cast<double>(value));
            return raw(key, buf);
        } else {
            return raw(key, std::to_string(value));
        }
    }
    std::string str_end() const { return '{' + body_ + '}'; }

  private:
    std::string body_;
};

class JsonArray {
  public:
    JsonArray& add(const JsonObject& o) { return add_raw(o.str_end()); }
    JsonArray& add_str(std::string_view s) { return add_raw(json_quote(s)); }
    JsonArray& add_raw(std::string_view s) {
        body_ += (body_.empty() ? "" : ",") + std::string(s);
        return *this;
    }
    std::string str() const { return '[' + body_ + ']'; }

  private:
    std::string body_;
};

}  // namespace damas::cli

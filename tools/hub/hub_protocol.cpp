// The lines of the Hub protocol (see hub_protocol.hpp).
#include "tools/hub/hub_protocol.hpp"

namespace damas::hub {
namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// Reads a word or a quoted value from `text` at `i`; stops at a space, or at '=' when
// `stop_at_equals`.
std::string read_token(std::string_view text, std::size_t& i, bool stop_at_equals) {
    std::string out;
    if (i < text.size() && text[i] == '"') {
        ++i;
        while (i < text.size() && text[i] != '"') out += text[i++];
        if (i < text.size()) ++i;  // the closing quote
        return out;
    }
    while (i < text.size() && !is_space(text[i]) && !(stop_at_equals && text[i] == '='))
        out += text[i++];
    return out;
}

}  // namespace

std::optional<std::string> HubLine::get(std::string_view name) const {
    for (const HubArgument& a : arguments)
        if (a.name == name) return a.value;
    return std::nullopt;
}

bool HubLine::has(std::string_view name) const {
    return get(name).has_value();
}

HubLine parse_hub_line(std::string_view text) {
    HubLine line;
    std::size_t i = 0;
    const auto skip_spaces = [&] {
        while (i < text.size() && is_space(text[i])) ++i;
    };
    skip_spaces();
    line.command = read_token(text, i, false);
    for (skip_spaces(); i < text.size(); skip_spaces()) {
        const std::size_t before = i;
        HubArgument a{read_token(text, i, true), ""};
        if (i < text.size() && text[i] == '=') {
            ++i;
            a.value = read_token(text, i, false);
        }
        if (i == before) ++i;  // a lone '"' or '=': skipped
        if (!a.name.empty()) line.arguments.push_back(std::move(a));
    }
    return line;
}

HubLineWriter::HubLineWriter(std::string_view command) : text_(command) {}

HubLineWriter& HubLineWriter::flag(std::string_view name) {
    text_ += ' ';
    text_ += name;
    return *this;
}

HubLineWriter& HubLineWriter::arg(std::string_view name, std::string_view value) {
    text_ += ' ';
    text_ += name;
    text_ += '=';
    bool quote = value.empty();
    for (char c : value)
        if (is_space(c) || c == '=' || c == '"') quote = true;
    if (quote) text_ += '"';
    for (char c : value) text_ += c == '"' ? '\'' : (c == '\n' || c == '\r') ? ' ' : c;
    if (quote) text_ += '"';
    return *this;
}

}  // namespace damas::hub

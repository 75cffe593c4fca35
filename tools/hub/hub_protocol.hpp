// The lines of the Hub protocol, version 2 (Scan 3.1's protocol.txt): "<command> <arg>=<val>
// <arg>=<val> ...", a flag argument written without "=val", a value in double quotes when it
// holds a space or '=' or is empty. Both sides ignore the commands and arguments they do not
// know, so the reader keeps them all and the caller asks for the ones it knows.
//
// Owns: reading a line into its command and arguments, and writing one back.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace damas::hub {

struct HubArgument {
    std::string name;
    std::string value;  // "" for a flag
};

struct HubLine {
    std::string command;  // "" for a blank line
    std::vector<HubArgument> arguments;

    // The value of the first argument of that name, or nullopt.
    std::optional<std::string> get(std::string_view name) const;
    bool has(std::string_view name) const;
};

// Reads a line (a trailing '\r' ignored). Lenient as the protocol asks: a quote left open runs
// to the end of the line, and text that is not an argument is skipped.
HubLine parse_hub_line(std::string_view text);

// A line to send: the command, then each argument added in order.
class HubLineWriter {
  public:
    explicit HubLineWriter(std::string_view command);
    HubLineWriter& flag(std::string_view name);
    // The value quoted when the protocol needs it; a double quote inside becomes a single one
    // (the protocol has no escape).
    HubLineWriter& arg(std::string_view name, std::string_view value);
    const std::string& text() const { return text_; }

  private:
    std::string text_;
};

}  // namespace damas::hub

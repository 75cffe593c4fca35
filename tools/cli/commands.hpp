// The `damas` command line: each command registers itself on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>

#include "limits/draw_rules.hpp"
#include "rules/variant.hpp"
#include "tools/render/analysis_json.hpp"

namespace damas::cli {

// Prints j (--json output) on one line on standard output.
void print_json(const Json& j);

// The variant named on the command line; throws Error listing the known names.
Variant variant_or_throw(const std::string& name);
// "seed" or "fmjd"; throws Error naming the known editions.
Edition edition_or_throw(const std::string& name);

void add_rules_commands(CLI::App& app);       // perft, moves
void add_index_commands(CLI::App& app);       // count, index, unindex
void add_gen_commands(CLI::App& app);         // gen, verify
void add_probe_commands(CLI::App& app);       // probe, best, line, stats, info
void add_draw_rules_commands(CLI::App& app);  // gen-rules, probe-rules
void add_svg_commands(CLI::App& app);         // svg
void add_serve_commands(CLI::App& app);       // serve
void add_annotate_commands(CLI::App& app);    // annotate
void add_hub_commands(CLI::App& app);         // hub

// The project's version, and git describe when the source is a checkout ("0.3.0 (git ...)"):
// what --version and the hub's id give (cli/version.cpp).
const char* version_text();

// When `dir` is a variant's folder inside a database (db/brazilian), the hint to give the
// database folder instead, " (db/brazilian is the brazilian tables' folder: give the database
// folder, -d db)"; else "". Appended to the message of a folder without the tables asked for.
std::string variant_folder_hint(const std::filesystem::path& dir);

// The check of every --dir option: an empty name is an error. Leaving --dir out means the
// default folder ($DAMAS_DB or ./db); an empty one is refused rather than read as ./db.
inline const CLI::Validator non_empty_folder(
    [](std::string& s) {
        return s.empty() ? std::string("an empty folder name (leave out --dir for the default)")
                         : std::string();
    },
    "FOLDER");

// The options every command spells the same way: --variant,-v (required unless the command has
// a default) and --dir,-d.
inline CLI::Option* add_variant_option(CLI::App& cmd, std::string& variant, bool required = true) {
    CLI::Option* option =
        cmd.add_option("--variant,-v", variant, "Variant (" + variant_names() + ")");
    return required ? option->required() : option;
}
inline CLI::Option* add_dir_option(CLI::App& cmd, std::string& dir) {
    return cmd.add_option("--dir,-d", dir, "Database folder (default: $DAMAS_DB or ./db)")
        ->check(non_empty_folder);
}

// Thrown by a command to end with this exit code after it printed its own report.
struct ExitCode {
    int code;
};

}  // namespace damas::cli

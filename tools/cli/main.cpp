// damas: the command line. Errors print one line on stderr (with --json, {"error": "..."} on
// standard output) and exit with code 2.
#include <cstdio>
#include <cstring>
#include <exception>

#include "rules/error.hpp"
#include "rules/printable.hpp"
#include "rules/variant.hpp"
#include "tools/cli/commands.hpp"

namespace {
// An error message as printed: one line, control characters escaped and long input cut
// (rules/printable.hpp), since messages quote what the user typed.
std::string shown(const char* message) {
    return damas::printable(message, 1000);
}

// Whether the command line asks for JSON: then errors come as JSON too.
bool wants_json(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--json") == 0) return true;
    return false;
}

int report_error(bool json, const std::string& message) {
    if (json) {
        std::fflush(stdout);
        damas::cli::print_json({{"error", message}});
    } else {
        std::fprintf(stderr, "damas: error: %s\n", message.c_str());
    }
    return 2;
}
}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"damas: endgame tablebases for the draughts family"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Show help for every command");
    app.set_version_flag("--version", std::string("damas ") + damas::cli::version_text(),
                         "Show the version and exit");
    damas::cli::add_rules_commands(app);
    damas::cli::add_index_commands(app);
    damas::cli::add_gen_commands(app);
    damas::cli::add_probe_commands(app);
    damas::cli::add_draw_rules_commands(app);
    damas::cli::add_svg_commands(app);
    damas::cli::add_serve_commands(app);
    damas::cli::add_annotate_commands(app);
    damas::cli::add_hub_commands(app);
    const bool json = wants_json(argc, argv);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --help-all, --version
        // Bad input: one line, as for every other error.
        return report_error(json, shown(e.what()) + " (see --help)");
    } catch (const damas::cli::ExitCode& e) {
        return e.code;
    } catch (const std::exception& e) {
        return report_error(json, shown(e.what()));
    }
    return 0;
}

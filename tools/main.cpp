// damas: the command line. Errors print one line on stderr and exit with code 2.
#include <cstdio>
#include <exception>

#include "rules/error.hpp"
#include "rules/printable.hpp"
#include "rules/variant.hpp"
#include "tools/commands.hpp"

namespace damas::cli {
Variant variant_or_throw(const std::string& name) {
    const auto v = parse_variant(name);
    if (!v) throw Error("unknown variant '" + name + "' (known: " + variant_names() + ")");
    return *v;
}
}  // namespace damas::cli

namespace {
// An error message as printed: one line, control characters escaped and long input cut
// (rules/printable.hpp), since messages quote what the user typed.
std::string shown(const char* message) {
    return damas::printable(message, 1000);
}
}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"damas: endgame tablebases for the draughts family"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Show help for every command");
    damas::cli::add_rules_commands(app);
    damas::cli::add_index_commands(app);
    damas::cli::add_gen_commands(app);
    damas::cli::add_probe_commands(app);
    damas::cli::add_draw_rules_commands(app);
    damas::cli::add_svg_commands(app);
    damas::cli::add_serve_commands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --help-all
        // Bad input: one line on stderr, as for every other error.
        std::fprintf(stderr, "damas: error: %s (see --help)\n", shown(e.what()).c_str());
        return 2;
    } catch (const damas::cli::ExitCode& e) {
        return e.code;
    } catch (const damas::Error& e) {
        std::fprintf(stderr, "damas: error: %s\n", shown(e.what()).c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "damas: error: %s\n", shown(e.what()).c_str());
        return 2;
    }
    return 0;
}

// hub: damas as a Hub engine (tools/hub/hub_session.hpp says what it answers), alone or in front
// of another Hub engine (--engine).
#include "folder/files.hpp"
#include "probe/probe.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/database.hpp"
#include "tools/hub/engine_process.hpp"
#include "tools/hub/hub_loop.hpp"

namespace damas::cli {
namespace {

struct HubCommandOptions {
    std::string variant = "normal";
    std::string dir;
    std::string engine;
    std::string edition = "seed";
};

void run_hub_command(const HubCommandOptions& o) {
    hub::HubOptions options;
    const auto variant = hub::variant_of_hub_name(o.variant);
    if (!variant)
        throw Error("unknown variant '" + o.variant + "' (Hub names: " + hub::hub_variant_names() +
                    ")");
    options.variant = *variant;
    options.edition = edition_or_throw(o.edition);
    options.version = version_text();
    const std::vector<std::string> engine =
        o.engine.empty() ? std::vector<std::string>{} : hub::command_words(o.engine);
    const auto tb = Tablebase::open(database_dir(o.dir), 64);
    const int code = hub::run_hub(*tb, options, engine);
    if (code != 0) throw ExitCode{code};
}

}  // namespace

void add_hub_commands(CLI::App& app) {
    static HubCommandOptions o;
    auto* cmd = app.add_subcommand(
        "hub",
        "A Hub engine (the protocol of Scan and the Hub GUI, version 2) on standard input and "
        "output: inside the tablebase it plays the best move under the move-limit rules at once; "
        "with --engine it wraps another Hub engine and answers only the positions inside the "
        "tablebase");
    cmd->add_option("--variant,-v", o.variant,
                    "The variant until the GUI sets one, by its Hub name (normal = "
                    "international, losing = international-giveaway, the others as damas "
                    "names them; default normal)");
    add_dir_option(*cmd, o.dir);
    cmd->add_option("--engine", o.engine,
                    "The Hub engine to wrap, its command and arguments in one word "
                    "(\"scan hub\")");
    cmd->add_option("--edition", o.edition,
                    "international move-limit rules: seed (10 moves, default) or fmjd (16)");
    cmd->callback([] { run_hub_command(o); });
}

}  // namespace damas::cli

// The database folder of a study command (see database.hpp).
#include "tools/cli/database.hpp"

#include "folder/files.hpp"
#include "probe/messages.hpp"
#include "rules/error.hpp"
#include "rules/printable.hpp"
#include "tools/cli/commands.hpp"

namespace damas::cli {

std::filesystem::path database_dir(const std::string& dir) {
    const std::filesystem::path d =
        dir.empty() ? default_database_dir() : std::filesystem::path(dir);
    if (!is_folder(d)) {
        std::string m = "no database folder ";
        m += printable(d.string());
        m += " (generate one with damas gen, or give --dir)";
        throw Error(m);
    }
    return d;
}

Database::Database(const std::string& variant_name, const std::string& dir_name)
    : variant(variant_or_throw(variant_name)), dir(database_dir(dir_name)) {
    if (!is_folder(dir / variant.name())) {
        std::string m = "no ";
        m += variant.name();
        m += " tables in ";
        m += printable(dir.string());
        m += " (generate them with damas gen --variant ";
        m += variant.name();
        m += ')';
        const std::string hint = variant_folder_hint(dir);
        throw Error(hint.empty()
                        ? m
                        : "no " + variant.name() + " tables in " + printable(dir.string()) + hint);
    }
    tb = Tablebase::open(dir, 64, 0, [p = last_problem](const std::string& s) { *p = s; });
}

std::string Database::describe_failure(const Position& p, ProbeStatus s) const {
    return probe_failure_message(*tb, variant, p, s, *last_problem);
}

ProbeResult Database::probe(const Position& p) const {
    const ProbeResult r = tb->probe_distance(variant, p);
    if (!r.ok()) throw Error(describe_failure(p, r.status));
    return r;
}

}  // namespace damas::cli

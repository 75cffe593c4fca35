// What every command of `damas` and `damas-mpi` shares: variant and edition names, JSON output,
// the hint for a variant's folder given as the database folder.
#include "rules/error.hpp"
#include "rules/variant.hpp"
#include "tools/cli/commands.hpp"

namespace damas::cli {

Edition edition_or_throw(const std::string& name) {
    const auto e = parse_edition(name);
    if (!e) throw Error("unknown edition '" + name + "' (known: seed, fmjd)");
    return *e;
}

Variant variant_or_throw(const std::string& name) {
    const auto v = parse_variant(name);
    if (!v) throw Error("unknown variant '" + name + "' (known: " + variant_names() + ")");
    return *v;
}

void print_json(const Json& j) {
    std::printf("%s\n", j.dump(-1, ' ', false, Json::error_handler_t::replace).c_str());
}

std::string variant_folder_hint(const std::filesystem::path& dir) {
    std::filesystem::path d = dir;
    if (!d.has_filename()) d = d.parent_path();  // "db/brazilian/"
    const auto v = parse_variant(d.filename().string());
    if (!v || !std::filesystem::is_directory(d)) return "";
    for (const Variant other : all_variants())  // a database folder that happens to be named so
        if (std::filesystem::is_directory(d / other.name())) return "";
    std::filesystem::path parent = d.parent_path();
    if (parent.empty()) parent = ".";
    return " (" + dir.string() + " is the " + v->name() +
           " tables' folder: give the database folder, -d " + parent.string() + ")";
}
}  // namespace damas::cli

// The messages of a failed probe (see messages.hpp).
#include "probe/messages.hpp"

#include "index/flip.hpp"
#include "index/material.hpp"
#include "rules/printable.hpp"

namespace damas {

std::string probe_failure_message(const Tablebase& tb, Variant v, const Position& p, ProbeStatus s,
                                  const std::string& last_problem) {
    const Position w = p.side == Color::white ? p : flip(v.info().board, p);
    std::string m;
    switch (s) {
        case ProbeStatus::not_in_database:
            if (const int pieces = Material::of(w).pieces(); pieces > tb.largest_class(v))
                return "too many pieces: " + std::to_string(pieces) + " (class " +
                       Material::of(w).name() + "; the " + v.name() + " tables hold up to " +
                       std::to_string(tb.largest_class(v)) + ")";
            m = "class ";
            m += Material::of(w).name();
            m += " (or a class its moves lead to) is not in the ";
            m += v.name();
            m += " database in ";
            m += printable(tb.dir().string());
            return m;
        case ProbeStatus::invalid_position:
            return "the position cannot be probed: a man stands where no man can come, or "
                   "the side not to move has no piece";
        case ProbeStatus::unreachable_counts:
            return "no game reaches these move-limit counts at this position (docs/draw-rules.md, "
                   "\"Which counts a game reaches\")";
        default:
            m = probe_status_name(s);
            if (!last_problem.empty()) {
                m += ": ";
                m += last_problem;
            }
            return m;
    }
}

std::string missing_rule_table_hint(const Tablebase& tb, const DrawRules& rules, const Position& p,
                                    const std::filesystem::path& missing) {
    std::string hint = "no rule table ";
    hint += printable(missing.filename().string());
    hint += " in ";
    hint += printable(missing.parent_path().string());
    hint += ": for the value under the move-limit draw rules run damas gen-rules -v ";
    hint += rules.variant.name();
    hint += " -p ";
    hint += std::to_string(Material::of(p).pieces());
    hint += " -d ";
    hint += printable(tb.dir().string());
    if (rules.edition == Edition::fmjd) hint += " --edition fmjd";
    return hint;
}

FolderAccessError::FolderAccessError(const std::filesystem::path& dir, const std::error_code& ec)
    : Error("cannot look at the folder " + printable(dir.string()) + ": " + ec.message()),
      error(ec.value()) {}

bool is_folder(const std::filesystem::path& dir) {
    std::error_code ec;
    const auto status = std::filesystem::status(dir, ec);
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
        throw FolderAccessError(dir, ec);
    return std::filesystem::is_directory(status);
}

}  // namespace damas

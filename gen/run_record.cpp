#include "gen/run_record.hpp"

#include <nlohmann/json.hpp>

#include "gen/generate.hpp"
#include "gen/progress.hpp"
#include "gen/rule_generate.hpp"

namespace damas {
namespace {

nlohmann::json common(Variant v, int max_pieces, int max_per_side,
                      const std::optional<Material>& only) {
    nlohmann::json j;
    j["variant"] = v.name();
    j["pieces"] = max_pieces;
    j["max_per_side"] = max_per_side;
    j["class"] = only ? only->name() : std::string();
    return j;
}

std::string gen_options(const GenerateOptions& o) {
    nlohmann::json j = common(o.variant, o.max_pieces, o.max_per_side, o.only);
    j["mirror_wdl"] = o.mirror_wdl;
    j["wdl_codec"] = o.wdl_codec ? block_codec(*o.wdl_codec).name() : "auto";
    j["dtw_codec"] = block_codec(o.distance_codec).name();
    return j.dump();
}

std::string rule_options(const RuleGenerateOptions& o) {
    nlohmann::json j = common(o.variant, o.max_pieces, o.max_per_side, o.only);
    j["edition"] = edition_name(o.edition);
    j["rules_version"] = format::rules_version;
    return j.dump();
}

}  // namespace

WriterRun::WriterRun(const std::filesystem::path& dir, Variant v, RunKind kind,
                     const std::vector<Material>& classes, const std::string& options_json,
                     bool durable, Progress& progress)
    : dir_(dir), variant_(v), kind_(kind), classes_(classes), durable_(durable), lock_(dir, v) {
    if (lock_.stale_holder())
        progress.message("took over the writer's lock of " + (dir / v.name()).string() +
                         " left by a run that did not finish (" + *lock_.stale_holder() + ")");
    begin_run(dir, v, kind, classes, options_json, durable);
}

WriterRun::WriterRun(const GenerateOptions& o, const std::vector<Material>& classes,
                     Progress& progress)
    : WriterRun(o.dir, o.variant, RunKind{}, classes, gen_options(o), o.durable, progress) {}

WriterRun::WriterRun(const RuleGenerateOptions& o, const std::vector<Material>& classes,
                     Progress& progress)
    : WriterRun(o.dir, o.variant, RunKind{true, o.edition}, classes, rule_options(o), o.durable,
                progress) {}

void WriterRun::finish() {
    finish_run(dir_, variant_, kind_, classes_, durable_);
}

}  // namespace damas

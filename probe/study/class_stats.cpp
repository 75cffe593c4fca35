// Statistics of a class (see class_stats.hpp).
#include "probe/study/class_stats.hpp"

#include <algorithm>
#include <queue>

#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "table/table_file.hpp"

namespace damas::study {
namespace {

// The class's distance beside its wdl values: its dtw file, else its mtc file.
Metric distance_of(Variant v, const std::filesystem::path& dir, Material m) {
    return !std::filesystem::exists(table_path(dir, v, m.name(), Metric::dtw)) &&
                   std::filesystem::exists(table_path(dir, v, m.name(), Metric::mtc))
               ? Metric::mtc
               : Metric::dtw;
}

// Each position's value and plies as the files store them: of dtw (values from the wdl file,
// its mirror and half layouts resolved by the dtw's parity), or of mtc (whose values give the
// outcome whatever the wdl file's layout). Capture positions hold none. An mtc file in the mirror
// layout holds none at all: every position is probed (one ply into the mirror class).
struct StoredValues {
    std::vector<std::uint8_t> values;
    std::vector<std::uint16_t> plies;
    bool probed = false;
    int mtc_fold = 0;  // the mtc file's (table/mtc_fold.hpp): its folded distances are probed
};

StoredValues stored_values(Variant v, const std::filesystem::path& dir, Material m, Metric distance,
                           std::uint64_t size) {
    const TableFile file(table_path(dir, v, m.name(), distance), {v, m, distance});
    StoredValues out;
    if (!file.holds_values()) {
        out.probed = true;
        return out;
    }
    out.plies.resize(size);
    file.read_all(out.plies);
    if (distance == Metric::dtw) {
        const TableFile wdl(table_path(dir, v, m.name(), Metric::wdl), {v, m, Metric::wdl});
        out.values = read_wdl_values(wdl, file, out.plies);
        return out;
    }
    out.mtc_fold = file.header().mtc_fold;
    out.values.resize(size);
    for (std::uint64_t i = 0; i < size; ++i) {
        out.values[i] = mtc_outcome(out.plies[i]);
        out.plies[i] = static_cast<std::uint16_t>(mtc_distance(out.plies[i]));
    }
    return out;
}

template <class R>
ClassStats walk_class(Variant v, const std::filesystem::path& dir, Material m,
                      const std::function<ProbeResult(const Position&)>& probe, int keep_longest) {
    const ClassIndex index(v.info().board, m);
    ClassStats s;
    s.material = m;
    s.metric = distance_of(v, dir, m);
    const StoredValues stored = stored_values(v, dir, m, s.metric, index.size());
    // The longest wins so far, the shortest of them on top (index breaks ties: the first wins).
    using Kept = std::pair<int, std::uint64_t>;
    std::priority_queue<Kept, std::vector<Kept>, std::greater<>> longest;
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        // Stored positions straight from the arrays; capture and rule-ended ones by a probe.
        Outcome o;
        if (!stored.probed) o = {static_cast<Value>(stored.values[i]), stored.plies[i]};
        const bool folded = stored.mtc_fold != 0 && o.plies == 1 && o.value != Value::draw;
        if (stored.probed || folded || MoveGenerator<R>::has_capture(p) ||
            material_outcome<R>(p, v.giveaway).value != Value::unknown) {
            const ProbeResult r = probe(p);
            o = {r.value, r.plies};
        }
        if (o.value == Value::unknown)
            throw Error(table_path(dir, v, m.name(), s.metric).string() +
                        ": no value for a position the side to move need not capture in (" +
                        m.name() + " index " + std::to_string(i) + "): the file is damaged");
        ++s.positions;
        if (o.value == Value::draw) {
            ++s.draws;
            return;
        }
        auto& bucket = s.histogram[o.plies];
        if (o.value == Value::win) {
            ++s.wins;
            ++bucket.first;
            s.longest_win = std::max<int>(s.longest_win, o.plies);
            if (keep_longest > 0) {
                if (static_cast<int>(longest.size()) < keep_longest) {
                    longest.push({o.plies, i});
                } else if (o.plies > longest.top().first) {
                    longest.pop();
                    longest.push({o.plies, i});
                }
            }
        } else {
            ++s.losses;
            ++bucket.second;
        }
    });
    std::vector<Kept> kept;
    for (; !longest.empty(); longest.pop()) kept.push_back(longest.top());
    std::sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto& [p, i] : kept) s.longest_wins.emplace_back(p, index.unindex(i));
    return s;
}

}  // namespace

void refuse_mtc(const std::filesystem::path& dir, Variant v, Material m, const char* what) {
    if (distance_of(v, dir, m) == Metric::mtc)
        throw Error(std::string(what) + " of class " + m.name() +
                    " need its dtw file; the class has mtc (plies to the next conversion), which "
                    "they do not read yet: generate it with --metric dtw for them");
}

RuleClassStats rule_class_stats(const std::filesystem::path& dir, const DrawRules& rules,
                                Material m) {
    const Variant v = rules.variant;
    refuse_mtc(dir, v, m, "rule statistics");
    const TableFile wdl(table_path(dir, v, m.name(), Metric::wdl), {v, m, Metric::wdl});
    const TableFile dtw(table_path(dir, v, m.name(), Metric::dtw), {v, m, Metric::dtw});
    const std::vector<Regime> regimes = regimes_of(rules, m);
    std::vector<std::vector<std::uint16_t>> dtr;
    for (const Regime r : regimes) {
        const std::filesystem::path path = table_path(dir, v, m.name(), metric_of(rules, r));
        if (!std::filesystem::exists(path)) throw MissingRuleTable(path, m);
        const TableFile f(path, {v, m, metric_of(rules, r)});
        dtr.emplace_back(f.size());
        f.read_all(dtr.back());
    }
    const std::vector<std::uint8_t> pure = read_wdl_values(wdl, dtw);
    const ClassIndex index(v.info().board, m);
    RuleClassStats s;
    // The files hold a filler where the side to move must capture: those are skipped.
    const std::vector<std::uint8_t> capture = dispatch(v.base, [&](auto r) {
        std::vector<std::uint8_t> flags(index.size());
        index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
            flags[i] = MoveGenerator<decltype(r)>::has_capture(p) ? 1 : 0;
        });
        return flags;
    });
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        if (capture[i]) return;
        ++s.quiet_positions;
        const bool decided = decided_by_fresh_count(rules, p, regimes, dtr, i);
        if (pure[i] == wdl_win) {
            ++s.pure_wins;
            if (!decided) ++s.wins_drawn;
        } else if (pure[i] == wdl_loss) {
            ++s.pure_losses;
            if (!decided) ++s.losses_drawn;
        }
    });
    return s;
}

ClassStats class_stats(Variant v, const std::filesystem::path& dir, Material m,
                       const std::function<ProbeResult(const Position&)>& probe, int keep_longest) {
    return dispatch(v.base, [&](auto rules) {
        return walk_class<decltype(rules)>(v, dir, m, probe, keep_longest);
    });
}

std::optional<RuleClassStats> rule_stats(const std::filesystem::path& dir, const DrawRules& rules,
                                         Material m) {
    // An mtc class has no rule tables (gen-rules needs dtw).
    if (!rules.any() || distance_of(rules.variant, dir, m) == Metric::mtc) return std::nullopt;
    try {
        return rule_class_stats(dir, rules, m);
    } catch (const MissingRuleTable&) {
        return std::nullopt;
    }
}

}  // namespace damas::study

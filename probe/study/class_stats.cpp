// Statistics of a class (see class_stats.hpp).
#include "probe/study/class_stats.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <queue>

#include "index/class_index.hpp"
#include "rules/error.hpp"
#include "rules/movegen.hpp"
#include "table/table_file.hpp"

namespace damas::study {
namespace {

template <class R>
ClassStats walk_class(Variant v, const std::filesystem::path& dir, Material m,
                      const std::function<ProbeResult(const Position&)>& probe, int keep_longest) {
    const ClassIndex index(v.info().board, m);
    const TableFile wdl(table_path(dir, v, m.name(), Metric::wdl), {v, m, Metric::wdl});
    const TableFile dtw(table_path(dir, v, m.name(), Metric::dtw), {v, m, Metric::dtw});
    std::vector<std::uint16_t> plies(index.size());
    dtw.read_all(plies);
    const std::vector<std::uint8_t> values = read_wdl_values(wdl, dtw, plies);
    ClassStats s;
    s.material = m;
    // The longest wins so far, the shortest of them on top (index breaks ties: the first wins).
    using Kept = std::pair<int, std::uint64_t>;
    std::priority_queue<Kept, std::vector<Kept>, std::greater<>> longest;
    index.for_each_position(0, index.size(), [&](std::uint64_t i, const Position& p) {
        // Stored positions straight from the arrays; capture and rule-ended ones by a probe.
        Outcome o{static_cast<Value>(values[i]), plies[i]};
        if (MoveGenerator<R>::has_capture(p) ||
            material_outcome<R>(p, v.giveaway).value != Value::unknown) {
            const ProbeResult r = probe(p);
            o = {r.value, r.plies};
        }
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

ClassStats class_stats(Variant v, const std::filesystem::path& dir, Material m,
                       const std::function<ProbeResult(const Position&)>& probe, int keep_longest) {
    return dispatch(v.base, [&](auto rules) {
        return walk_class<decltype(rules)>(v, dir, m, probe, keep_longest);
    });
}

std::optional<RuleClassStats> rule_stats(const std::filesystem::path& dir, const DrawRules& rules,
                                         Material m) {
    if (!rules.any()) return std::nullopt;
    try {
        return rule_class_stats(dir, rules, m);
    } catch (const MissingRuleTable&) {
        return std::nullopt;
    }
}

}  // namespace damas::study

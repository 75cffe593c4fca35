#include "gen/solved_store.hpp"

#include "probe/table_file.hpp"
#include "rules/error.hpp"

namespace damas {

void SolvedStore::add(Material m, std::vector<std::uint16_t> outcomes, bool complete) {
    SolvedClass c{m, std::make_unique<ClassIndex>(variant_.info().board, m), std::move(outcomes),
                  complete};
    by_key_[key(m)] = &classes_.insert_or_assign(m, std::move(c)).first->second;
}

void SolvedStore::load_below(Material m) {
    // Every class one move away, and recursively below it (capture searches go down further).
    std::vector<Material> todo = dependencies(m);
    while (!todo.empty()) {
        const Material c = todo.back();
        todo.pop_back();
        if (has(c)) continue;
        load(c);
        for (const Material d : dependencies(c))
            if (!has(d)) todo.push_back(d);
    }
}

void SolvedStore::evict(int pieces, const std::set<Material>& keep) {
    for (auto it = classes_.begin(); it != classes_.end();) {
        if (it->first.pieces() == pieces && !keep.count(it->first)) {
            by_key_[key(it->first)] = nullptr;
            it = classes_.erase(it);
        } else {
            ++it;
        }
    }
}

std::size_t SolvedStore::bytes() const {
    std::size_t n = 0;
    for (const auto& [m, c] : classes_) n += c.outcomes.size() * sizeof(std::uint16_t);
    return n;
}

void SolvedStore::missing(Material m) {
    throw Error("class " + m.name() + " is needed but not loaded (generate it first)");
}

void SolvedStore::load(Material m) {
    const TableFile wdl(table_path(dir_, variant_, m.name(), Metric::wdl));
    const TableFile dtw(table_path(dir_, variant_, m.name(), Metric::dtw));
    ClassIndex index(variant_.info().board, m);
    if (wdl.size() != index.size() || dtw.size() != index.size())
        throw Error("table files of class " + m.name() + " do not match its index size");
    std::vector<std::uint8_t> values(wdl.size());
    std::vector<std::uint16_t> plies(dtw.size());
    wdl.read_all(values);
    dtw.read_all(plies);
    std::vector<std::uint16_t> outcomes(values.size());
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        // Capture positions hold fill values; lookups never read them (probe/outcome.hpp).
        Outcome o{static_cast<Value>(values[i]), 0};
        if (o.value == Value::win || o.value == Value::loss) o.plies = plies[i];
        outcomes[i] = pack_outcome(o);
    }
    add(m, std::move(outcomes), false);
}

}  // namespace damas

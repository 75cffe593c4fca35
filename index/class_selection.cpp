#include "index/class_selection.hpp"

#include <algorithm>
#include <set>

namespace damas {

std::vector<Material> planned_classes(const ClassSelection& o) {
    const int max_pieces = o.only ? o.only->pieces() : o.max_pieces;
    std::vector<Material> all = classes_up_to(max_pieces);
    if (o.max_per_side > 0)
        std::erase_if(all, [&](Material m) {
            return m.white() > o.max_per_side || m.black() > o.max_per_side;
        });
    if (!o.only) return all;
    std::set<Material> needed{*o.only, o.only->mirrored()};
    std::vector<Material> todo(needed.begin(), needed.end());
    while (!todo.empty()) {
        const Material m = todo.back();
        todo.pop_back();
        // A class is solved with its mirror, so the mirror's dependencies are needed too.
        for (Material d : dependencies(m))
            for (Material e : {d, d.mirrored()})
                if (needed.insert(e).second) todo.push_back(e);
    }
    std::erase_if(all, [&](Material m) { return !needed.count(m); });
    return all;
}

}  // namespace damas

// The lichess-shaped tablebase JSON (see tablebase_json.hpp).
#include "tools/render/tablebase_json.hpp"

namespace damas::cli {
namespace {

Json distance_json(const std::optional<int>& d) {
    return d ? Json(*d) : Json(nullptr);
}

// The keys every position has, the root's and each move's.
void position_keys(Json& out, bool game_over, Value value, const std::optional<int>& dtw,
                   const std::optional<int>& mtc, study::Category category) {
    out["variant_win"] = game_over && value == Value::win;
    out["variant_loss"] = game_over && value == Value::loss;
    out["dtw"] = distance_json(dtw);
    out["mtc"] = distance_json(mtc);
    out["category"] = study::category_name(category);
}

}  // namespace

Json tablebase_json(const study::TablebaseAnswer& a, const std::string& rules_missing) {
    Json out = Json::object();
    // A game over with the root's class missing: the value comes from the category.
    const Value root_value = a.root.ok()                           ? a.root.value
                             : a.category == study::Category::win  ? Value::win
                             : a.category == study::Category::loss ? Value::loss
                                                                   : Value::unknown;
    position_keys(out, a.game_over, root_value, a.dtw, a.mtc, a.category);
    if (!rules_missing.empty()) out["rules_missing"] = rules_missing;
    Json moves = Json::array();
    for (const study::TablebaseMove& m : a.moves) {
        Json row{{"uci", m.uci},
                 {"san", m.notation},
                 {"zeroing", m.zeroing},
                 {"conversion", m.conversion}};
        position_keys(row, m.game_over, m.pure.value, m.dtw, m.mtc, m.category);
        moves.push_back(std::move(row));
    }
    out["moves"] = std::move(moves);
    return out;
}

}  // namespace damas::cli

#include "limits/draw_rules.hpp"

#include <algorithm>

#include "rules/error.hpp"

namespace damas {
namespace {

SideCount side(int men, int kings) {
    return {men, kings, false};
}

// The rows of RULES.md, "Draw rules with move limits". Limits in plies (N moves = 2N plies).
std::vector<EndingRow> rows_for(BaseVariant base, Edition edition) {
    const SideCount lone_king = side(0, 1);
    switch (base) {
        case BaseVariant::international: {
            // S000 6.3 (seed: 10 moves; FMJD's current text: 16) and S000 6.4 (5 moves).
            EndingRow three{
                "3 kings, 2 kings + 1 man or 1 king + 2 men against 1 king",
                edition == Edition::fmjd ? "the 16-move rule" : "the 10-move rule",
                RowKind::ending,
                edition == Edition::fmjd ? 32 : 20,
                {{side(0, 3), lone_king}, {side(1, 2), lone_king}, {side(2, 1), lone_king}}};
            EndingRow two{
                "2 kings, 1 king + 1 man or 1 king against 1 king",
                "the 5-move rule",
                RowKind::ending,
                10,
                {{side(0, 2), lone_king}, {side(1, 1), lone_king}, {lone_king, lone_king}}};
            return {three, two};
        }
        case BaseVariant::brazilian: {
            // S001 lists five endings, one per line ("Finais de: 2 damas contra 2 damas; 2 damas
            // contra uma; ..."): five rows, so that moving from one to another (a capture or a
            // promotion) starts a fresh 5-move count. S004: 3 kings against 1 king, 20 moves.
            const SideCount two_kings = side(0, 2);
            const SideCount king_and_man = side(1, 1);
            const auto five = [](std::string name, SideCount a, SideCount b) {
                return EndingRow{std::move(name), "the 5-move rule", RowKind::ending, 10, {{a, b}}};
            };
            EndingRow three{"3 kings against 1 king",
                            "the 20-move rule (3 kings against 1)",
                            RowKind::ending,
                            40,
                            {{side(0, 3), lone_king}}};
            return {five("2 kings against 2 kings", two_kings, two_kings),
                    five("2 kings against 1 king", two_kings, lone_king),
                    five("2 kings against 1 king + 1 man", two_kings, king_and_man),
                    five("1 king against 1 king", lone_king, lone_king),
                    five("1 king against 1 king + 1 man", lone_king, king_and_man),
                    three};
        }
        case BaseVariant::portuguese:
            // S002 3.2.1b: the game is won within the three-king side's next 12 moves.
            return {EndingRow{"3 kings against 1 king (forcada)",
                              "the forcada (12 moves)",
                              RowKind::forcada,
                              24,
                              {{side(0, 3), lone_king}}}};
        case BaseVariant::russian:
            // Russian federation rules (RULES.md (?)): 15 moves from when the balance arose.
            return {EndingRow{"3 or more kings against 1 king",
                              "the 15-move rule (3+ kings against 1)",
                              RowKind::ending,
                              30,
                              {{SideCount{0, 3, true}, lone_king}}}};
        case BaseVariant::italian:
        case BaseVariant::english:
        case BaseVariant::turkish:
            return {};
    }
    return {};
}

// S000 6.2 (25), S001 (20), S002 3.2.1a (20), russian federation (15), ACF/WCDF (40).
int king_limit_for(BaseVariant base) {
    switch (base) {
        case BaseVariant::international:
            return 50;
        case BaseVariant::brazilian:
            return 40;
        case BaseVariant::portuguese:
            return 40;
        case BaseVariant::russian:
            return 30;
        case BaseVariant::english:
            return 80;
        case BaseVariant::italian:
        case BaseVariant::turkish:
            return 0;  // repetition only (RULES.md (?))
    }
    return 0;
}

int or_unlimited(int limit) {
    return limit > 0 ? limit : unlimited_plies;
}

}  // namespace

std::optional<Edition> parse_edition(std::string_view name) {
    if (name == "seed" || name == "default") return Edition::seed;
    if (name == "fmjd") return Edition::fmjd;
    return std::nullopt;
}

const char* edition_name(Edition e) {
    return e == Edition::fmjd ? "fmjd" : "seed";
}

bool EndingRow::covers(Material m) const {
    for (const auto& [strong, weak] : materials) {
        if (strong.matches(m.white_men, m.white_kings) && weak.matches(m.black_men, m.black_kings))
            return true;
        if (strong.matches(m.black_men, m.black_kings) && weak.matches(m.white_men, m.white_kings))
            return true;
    }
    return false;
}

const EndingRow* DrawRules::row_of(Material m) const {
    for (const EndingRow& row : rows)
        if (row.covers(m)) return &row;
    return nullptr;
}

DrawRules draw_rules(Variant v, Edition e) {
    if (e == Edition::fmjd && v.base != BaseVariant::international)
        throw Error("the fmjd edition exists for international only");
    DrawRules r;
    r.variant = v;
    r.edition = e;
    if (v.giveaway && !uncertain::giveaway_keeps_draw_rules) return r;
    r.king_limit_plies = king_limit_for(v.base);
    r.rows = rows_for(v.base, e);
    return r;
}

Bitboard forcada_diagonal() {
    using B = Portuguese::Board;
    Bitboard d = 0;
    for (int i = 0; i < 8; ++i) d |= bit(B::tables.bit_at(7 - i, i));  // h1 (1) .. a8 (32)
    return d;
}

Color forcada_kings_side(const Position& p) {
    return popcount(p.of(Color::white)) > popcount(p.of(Color::black)) ? Color::white
                                                                       : Color::black;
}

bool forcada_diagonal_occupied(const Position& p) {
    return (p.kings_of(forcada_kings_side(p)) & forcada_diagonal()) != 0;
}

int forcada_limit_from(const Position& p) {
    return p.side == forcada_kings_side(p) ? 23 : 24;
}

bool forcada_start_ambiguous(const Position& p) {
    return popcount(p.of(Color::white)) == popcount(p.of(Color::black));
}

int forcada_limit_from(const Position& p, int plies_since_start, Color kings_side) {
    const Color to_move_at_start = plies_since_start % 2 == 0 ? p.side : ~p.side;
    return to_move_at_start == kings_side ? 23 : 24;
}

int forcada_limit_from(const Position& p, int plies_since_start) {
    if (forcada_start_ambiguous(p)) return 24;
    return forcada_limit_from(p, plies_since_start, forcada_kings_side(p));
}

CountState fresh_count(const DrawRules& rules, const Position& p) {
    const int kings = or_unlimited(rules.king_limit_plies);
    const EndingRow* row = rules.row_of(Material::of(p));
    if (!row) return {Regime::king_moves, kings};
    if (row->kind == RowKind::ending) return {Regime::ending, std::min(row->limit_plies, kings)};
    if (forcada_diagonal_occupied(p))
        return {Regime::forcada_running, std::min(kings, forcada_limit_from(p))};
    return {Regime::forcada_waiting, kings};
}

bool DrawRules::has_forcada() const {
    return std::any_of(rows.begin(), rows.end(),
                       [](const EndingRow& r) { return r.kind == RowKind::forcada; });
}

bool DrawRules::forcada_runs_on(Material m) const {
    if (!has_forcada() || m.white_men != 0 || m.black_men != 0) return false;
    const int strong = std::max(m.white_kings, m.black_kings);
    const int weak = std::min(m.white_kings, m.black_kings);
    return weak == 1 && (strong == 1 || strong == 2);
}

Transition transition(const DrawRules& rules, const Position& before, Regime regime,
                      const Move& move, const Position& after) {
    using Kind = Transition::Kind;
    // S002 3.2.1b: once started, the forcada count runs to the end of the game, through the
    // lone king's captures (the king-move count restarts with them but cannot bind first).
    if (regime == Regime::forcada_running) return {Kind::continue_count, regime, 0};
    if (move.is_capture() || move.promotes) {
        const EndingRow* from_row = rules.row_of(Material::of(before));
        const EndingRow* to_row = rules.row_of(Material::of(after));
        const bool stays_in_row = to_row != nullptr && to_row == from_row &&
                                  (!move.is_capture() || !uncertain::capture_inside_row_restarts);
        if (!stays_in_row) {
            const CountState f = fresh_count(rules, after);
            return {Kind::fresh, f.regime, f.plies_left};
        }
    } else if (regime == Regime::king_moves && (before.kings & bit(move.from)) == 0) {
        return {Kind::fresh, Regime::king_moves, or_unlimited(rules.king_limit_plies)};
    }
    if (regime == Regime::forcada_waiting && forcada_diagonal_occupied(after))
        return {Kind::capped, Regime::forcada_running, forcada_limit_from(after)};
    return {Kind::continue_count, regime, 0};
}

int plies_left_after(const Transition& t, int plies_left_before) {
    switch (t.kind) {
        case Transition::Kind::continue_count:
            return plies_left_before - 1;
        case Transition::Kind::fresh:
            return t.limit;
        case Transition::Kind::capped:
            return std::min(plies_left_before - 1, t.limit);
    }
    return 0;
}

CountState count_after(const Transition& t, const CountState& before, bool capture) {
    if (before.regime == Regime::forcada_running && before.gap > 0) {
        if (capture) return {Regime::forcada_running, before.plies_left - 1 + before.gap, 0};
        return {Regime::forcada_running, before.plies_left - 1, before.gap};
    }
    if (t.kind == Transition::Kind::capped)
        return forcada_running_state(before.plies_left - 1, t.limit);
    return {t.regime, plies_left_after(t, before.plies_left), 0};
}

CountState forcada_running_state(int king_left, int forcada_left) {
    const int gap = forcada_left - king_left;
    if (gap <= 0 || king_left <= 0)
        return {Regime::forcada_running, std::min(king_left, forcada_left), 0};
    return {Regime::forcada_running, king_left, gap};
}

std::vector<Regime> regimes_of(const DrawRules& rules, Material m) {
    const EndingRow* row = rules.row_of(m);
    if (!row && rules.forcada_runs_on(m)) return {Regime::king_moves, Regime::forcada_running};
    if (!row) return {Regime::king_moves};
    if (row->kind == RowKind::ending) return {Regime::ending};
    return {Regime::forcada_waiting, Regime::forcada_running};
}

Metric metric_of(const DrawRules& rules, Regime r, int gap) {
    if (gap > 0) return Metric::dtr_forcada_gaps;
    return r == Regime::forcada_running ? Metric::dtr_forcada : rules.metric();
}

bool has_forcada_gaps(const DrawRules& rules, Material m) {
    const EndingRow* row = rules.row_of(m);
    return row != nullptr && row->kind == RowKind::forcada;
}

std::vector<Metric> rule_metrics(const DrawRules& rules, Material m) {
    std::vector<Metric> out;
    for (const Regime r : regimes_of(rules, m)) out.push_back(metric_of(rules, r));
    if (has_forcada_gaps(rules, m)) out.push_back(Metric::dtr_forcada_gaps);
    return out;
}

std::string count_name(const DrawRules& rules, Material m, Regime r) {
    if (r == Regime::forcada_running) return "the forcada (12 moves)";
    if (r == Regime::king_moves) {
        std::string s = "the ";
        s += std::to_string(rules.king_limit_plies / 2);
        s += "-move king rule";
        return s;
    }
    const EndingRow* row = rules.row_of(m);
    return row ? row->rule : std::string("the move-limit rules");
}

bool decided_by_fresh_count(const DrawRules& rules, const Position& p,
                            const std::vector<Regime>& regimes,
                            const std::vector<std::vector<std::uint16_t>>& dtr,
                            std::uint64_t index) {
    const CountState fresh = fresh_count(rules, p);
    const auto slot = std::find(regimes.begin(), regimes.end(), fresh.regime);
    const std::uint16_t d = dtr[static_cast<std::size_t>(slot - regimes.begin())][index];
    return dtr_outcome(d) != wdl_draw && dtr_distance(d) <= fresh.plies_left;
}

std::string count_name(const DrawRules& rules, Material m, const CountState& s) {
    if (s.gap == 0) return count_name(rules, m, s.regime);
    return count_name(rules, m, Regime::king_moves) + ", the forcada " + std::to_string(s.gap) +
           (s.gap == 1 ? " ply later" : " plies later");
}

}  // namespace damas

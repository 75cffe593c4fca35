// Games annotated with the tablebase (see annotate.hpp).
#include "probe/study/annotate.hpp"

#include <array>
#include <cctype>
#include <cstdlib>

#include "probe/limits_probe.hpp"
#include "probe/messages.hpp"
#include "rules/error.hpp"
#include "rules/game_type.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/printable.hpp"

namespace damas {
namespace {

const char* colour_name(Color c) {
    return c == Color::white ? "White" : "Black";
}

// A PDN comment (appended, not concatenated: GCC 12 warns of a false overlap in "{" + s).
std::string braced(const std::string& text) {
    std::string comment;
    comment.reserve(text.size() + 2);
    comment += '{';
    comment += text;
    comment += '}';
    return comment;
}

// Everything one game's replay needs, and the error messages naming the game.
class GameReplay {
  public:
    GameReplay(const Tablebase& tb, const AnnotateOptions& o, const PdnGame& game, int number)
        : tb_(tb), o_(o), v_(o.variant), rules_(draw_rules(o.variant, o.edition)), game_(game) {
        out_.number = number;
        out_.players = game.players();
    }

    AnnotatedGame run() {
        check_game_type();
        out_.start = start_position();
        Position p = out_.start;
        RuleCounters counts;
        out_.start_value = evaluate(p, counts);
        if (out_.start_value) out_.entered = 0;
        PdnNumber number{game_.first_number, p.side == v_.info().first_to_move};
        std::optional<PositionValue> before = out_.start_value;
        for (const PdnMove& written : game_.moves) {
            AnnotatedMove m = play(p, counts, written, number);
            m.mark = mark_of(before, m.value);
            if (m.value && !out_.entered) out_.entered = static_cast<int>(out_.moves.size()) + 1;
            p = m.after;
            counts = m.counters_after;
            out_.moves.push_back(std::move(m));
            before = out_.moves.back().value;
            number.next();
        }
        out_.summary = summary();
        out_.pdn = write_pdn(annotated_pdn(), out_.start.side == v_.info().first_to_move);
        return std::move(out_);
    }

  private:
    std::string game_name() const {
        std::string name = "game " + std::to_string(out_.number);
        if (!out_.players.empty()) name += " (" + out_.players + ")";
        return name;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(game_name() + ": " + what);
    }

    void check_game_type() const {
        const auto type = game_.tag("GameType");
        if (!type || type->empty() || !std::isdigit(static_cast<unsigned char>(type->front())))
            return;
        const Variant base{v_.base, false};
        if (variant_of_game_type(*type) != base)
            fail("[GameType \"" + printable(*type, 40) + "\"] is not " +
                 std::string(v_.info().name) + " (GameType " +
                 std::to_string(*game_type_number(base)) + ")");
    }

    Position start_position() const {
        const auto fen = game_.tag("FEN");
        if (!fen) return initial_position(v_);
        try {
            return parse_fen(v_, *fen);
        } catch (const Error& e) {
            fail("[FEN \"" + printable(*fen, 80) + "\"]: " + e.what());
        }
    }

    std::string describe(const Position& p, ProbeStatus s) const {
        return o_.describe_failure ? o_.describe_failure(p, s)
                                   : probe_failure_message(tb_, v_, p, s);
    }

    // The position's value, or nullopt outside the tablebase.
    std::optional<PositionValue> evaluate(const Position& p, const RuleCounters& counts) {
        PositionValue value{tb_.probe_dtw(v_, p), std::nullopt};
        if (value.pure.status == ProbeStatus::not_in_database) return std::nullopt;
        if (!value.pure.ok()) fail(describe(p, value.pure.status));
        if (!rules_.any()) return value;
        const RulesResult r = tb_.probe_rules(rules_, p, counts);
        if (r.ok())
            value.rules = r.answer;
        else if (r.status == ProbeStatus::no_rule_table && out_.rules_missing.empty())
            out_.rules_missing = missing_rule_table_hint(tb_, rules_, p, r.missing_table);
        else if (r.status != ProbeStatus::no_rule_table && r.status != ProbeStatus::not_in_database)
            fail(describe(p, r.status));
        return value;
    }

    AnnotatedMove play(const Position& p, const RuleCounters& counts, const PdnMove& written,
                       const PdnNumber& number) {
        Move move{};
        const MoveMatch match = match_pdn_move(v_, p, written.text, move);
        if (match != MoveMatch::found)
            throw Error(game_name() + ", move " + std::to_string(number.number) + " (" +
                        colour_name(p.side) + ", line " + std::to_string(written.line) +
                        "): " + move_match_problem(match, written.text, to_fen(v_, p)));
        AnnotatedMove m{number.label(),     p.side, written.text, notation(p, move), move,
                        make_move(p, move), {},     std::nullopt, MoveMark::none};
        m.counters_after = counters_after(rules_, p, move, m.after, counts);
        m.value = evaluate(m.after, m.counters_after);
        return m;
    }

    std::string notation(const Position& p, const Move& m) const {
        const std::string plain = move_text(v_.info(), m);
        Move same{};
        return match_pdn_move(v_, p, plain, same) == MoveMatch::ambiguous
                   ? move_text_with_captures(v_.info(), m)
                   : plain;
    }

    // The value for the side to move, under the rules when asked and known.
    static Value value_of(const PositionValue& v, bool by_rules) {
        return by_rules ? v.rules->rule.value : v.pure.value;
    }

    MoveMark mark_of(const std::optional<PositionValue>& before,
                     const std::optional<PositionValue>& after) {
        if (!before || !after) return MoveMark::none;
        const bool by_rules = before->rules && after->rules;
        const Value was = value_of(*before, by_rules);
        const Value now = value_of(*after, by_rules);  // the opponent's
        const MoveMark mark = now == Value::win && was != Value::loss   ? MoveMark::blunder
                              : now == Value::draw && was == Value::win ? MoveMark::mistake
                                                                        : MoveMark::none;
        if (mark != MoveMark::none && by_rules) out_.marks_by_rules = true;
        return mark;
    }

    // "45. 23-18? throws the win away".
    std::string mark_summary(const AnnotatedMove& m) const {
        std::string s = m.label + " " + m.written + mark_text(m.mark) + " ";
        if (m.mark == MoveMark::mistake) return s + "throws the win away";
        const AnnotatedMove* previous = &m == &out_.moves.front() ? nullptr : &m - 1;
        const std::optional<PositionValue>& before = previous ? previous->value : out_.start_value;
        const bool by_rules = before->rules && m.value->rules;
        return s + (value_of(*before, by_rules) == Value::win ? "throws the win away and loses"
                                                              : "loses the draw");
    }

    // The summary without the game's name (it is also the last comment of the PDN).
    std::string summary_body() const {
        if (!out_.entered) return "never inside the tablebase";
        const int entered = *out_.entered;
        std::string s;
        if (entered == 0) {
            s = "inside the tablebase from the start (" +
                value_comment(*out_.start_value, out_.start.side) + ")";
        } else {
            const AnnotatedMove& m = out_.moves[static_cast<std::size_t>(entered - 1)];
            s = "entered the tablebase after " + m.label + " " + m.written + " (" +
                value_comment(*m.value, m.after.side) + ")";
        }
        bool marked = false;
        for (const AnnotatedMove& m : out_.moves)
            if (m.mark != MoveMark::none) {
                s += "; " + mark_summary(m);
                marked = true;
            }
        if (!marked) s += "; no move changed the value";
        if (out_.marks_by_rules) s += " (values under the move-limit rules)";
        if (!out_.moves.empty() && out_.moves.back().value)
            s += "; at the end: " +
                 value_comment(*out_.moves.back().value, out_.moves.back().after.side);
        if (!out_.rules_missing.empty()) s += "; pure values only (a rule table is missing)";
        return s;
    }

    std::string summary() const { return game_name() + ": " + summary_body(); }

    PdnGame annotated_pdn() const {
        PdnGame g = game_;
        if (!g.tag("Annotator")) g.tags.push_back({"Annotator", "damas annotate"});
        if (const auto type = game_type_number(v_); type && !g.tag("GameType"))
            g.tags.push_back({"GameType", std::to_string(*type)});
        if (out_.start_value)
            g.before.push_back(braced(value_comment(*out_.start_value, out_.start.side)));
        for (std::size_t i = 0; i < g.moves.size(); ++i) {
            const AnnotatedMove& m = out_.moves[i];
            PdnMove& w = g.moves[i];
            if (m.mark != MoveMark::none) w.mark = mark_text(m.mark);
            if (m.value)
                w.after.insert(w.after.begin(), braced(value_comment(*m.value, m.after.side)));
        }
        auto& last = g.moves.empty() ? g.before : g.moves.back().after;
        last.push_back(braced("damas: " + summary_body()));
        return g;
    }

    const Tablebase& tb_;
    const AnnotateOptions& o_;
    Variant v_;
    DrawRules rules_;
    const PdnGame& game_;
    AnnotatedGame out_;
};

}  // namespace

const char* mark_text(MoveMark m) {
    return m == MoveMark::mistake ? "?" : m == MoveMark::blunder ? "??" : "";
}

std::string value_comment(const PositionValue& v, Color side_to_move) {
    const ProbeResult& r = v.pure;
    if (r.value == Value::draw) return "draw";
    const Color winner = r.value == Value::win ? side_to_move : ~side_to_move;
    std::string s = std::string(colour_name(winner)) + " wins";
    if (r.plies == 0) return s + ", game over";
    s += ", dtw " + std::to_string(r.plies);
    if (!v.rules) return s;
    const Outcome& rule = v.rules->rule;
    if (rule.value == r.value)
        s += ", dtr " + std::to_string(rule.plies);
    else if (rule.value == Value::draw)
        s += "; drawn by " + v.rules->count;
    else
        s += "; under the rules " + std::string(value_name(rule.value));
    if (!v.rules->exact) s += " (not exact)";
    return s;
}

AnnotatedGame annotate_game(const Tablebase& tb, const AnnotateOptions& o, const PdnGame& game,
                            int number) {
    return GameReplay(tb, o, game, number).run();
}

std::vector<AnnotatedGame> annotate_games(const Tablebase& tb, const AnnotateOptions& o,
                                          const std::vector<PdnGame>& games) {
    std::vector<AnnotatedGame> out;
    out.reserve(games.size());
    for (std::size_t i = 0; i < games.size(); ++i)
        out.push_back(annotate_game(tb, o, games[i], static_cast<int>(i) + 1));
    return out;
}

}  // namespace damas

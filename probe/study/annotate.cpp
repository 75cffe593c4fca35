// Games annotated with the tablebase (see annotate.hpp).
#include "probe/study/annotate.hpp"

#include <array>
#include <cctype>
#include <cstdlib>

#include "index/flip.hpp"
#include "index/material.hpp"
#include "probe/limits_probe.hpp"
#include "probe/messages.hpp"
#include "rules/error.hpp"
#include "rules/game_type.hpp"
#include "rules/legal_moves.hpp"
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

}  // namespace

// Everything one game's replay needs, what it says of the game so far, and the error messages
// naming the game.
class GameAnnotator::Replay {
  public:
    Replay(const Tablebase* tb, const AnnotateOptions& o, const PdnGame& header, int number)
        : tb_(tb), o_(o), v_(o.variant), rules_(draw_rules(o.variant, o.edition)) {
        out_.number = number;
        out_.players = header.players();
        check_game_type(header);
        out_.start = start_position(header);
        p_ = out_.start;
        out_.start_value = evaluate(p_, counts_);
        if (out_.start_value) out_.entered = 0;
        before_ = out_.start_value;
        number_ = {header.first_number, p_.side == v_.info().first_to_move};
        if (tb_) writer_.emplace(annotated_header(header), number_.first_player);
    }

    const AnnotatedMove& play(const PdnMove& written) {
        move_ = annotated_move(written);
        move_.mark = mark_of(before_, move_.value);
        ++plies_;
        if (move_.value && !out_.entered) {
            out_.entered = plies_;
            entered_ = move_.label + " " + move_.written + " (" +
                       value_comment(*move_.value, move_.after.side) + ")";
        }
        if (move_.mark != MoveMark::none) note_mark();
        p_ = move_.after;
        counts_ = move_.counters_after;
        before_ = move_.value;
        number_.next();
        if (writer_) {
            PdnMove w = written;
            if (move_.mark != MoveMark::none) w.mark = mark_text(move_.mark);
            if (move_.value)
                w.after.insert(w.after.begin(),
                               braced(value_comment(*move_.value, move_.after.side)));
            writer_->move(w);
        }
        return move_;
    }

    void finish(const std::string& result) {
        out_.summary = game_name() + ": " + summary_body();
        if (!writer_) return;
        writer_->item(braced("damas: " + summary_body()));
        writer_->finish(result);
    }

    const AnnotatedGame& game() const { return out_; }
    std::string take_pdn() { return writer_ ? writer_->take() : std::string(); }

  private:
    std::string game_name() const {
        std::string name = "game " + std::to_string(out_.number);
        if (!out_.players.empty()) name += " (" + out_.players + ")";
        return name;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(game_name() + ": " + what);
    }

    // A [GameType] must name this variant's game: another game's moves would be read and
    // valued by the wrong rules.
    void check_game_type(const PdnGame& header) const {
        const auto type = header.tag("GameType");
        if (!type || type->empty()) return;
        const Variant base{v_.base, false};
        const int ours = *game_type_number(base);
        const std::string said = "[GameType \"" + printable(*type, 40) + "\"]";
        const auto named = variant_of_game_type(*type);
        if (!named)
            fail(said + " is not a game type damas plays (" + std::string(v_.info().name) +
                 " is GameType " + std::to_string(ours) + ")");
        if (*named != base)
            fail(said + " is not " + std::string(v_.info().name) + " (GameType " +
                 std::to_string(ours) + ")");
    }

    Position start_position(const PdnGame& header) const {
        const auto fen = header.tag("FEN");
        if (!fen) return initial_position(v_);
        try {
            return parse_fen(v_, *fen);
        } catch (const Error& e) {
            fail("[FEN \"" + printable(*fen, 80) + "\"]: " + e.what());
        }
    }

    std::string describe(const Position& p, ProbeStatus s) const {
        return o_.describe_failure ? o_.describe_failure(p, s)
                                   : probe_failure_message(*tb_, v_, p, s);
    }

    // The position's value, or nullopt outside the tablebase (or when only checking).
    std::optional<PositionValue> evaluate(const Position& p, const RuleCounters& counts) {
        if (!tb_) return std::nullopt;
        // The class's own distance: DTW, or MTC where it was generated with --metric mtc.
        PositionValue value{tb_->probe_distance(v_, p), std::nullopt};
        if (value.pure.status == ProbeStatus::not_in_database) return std::nullopt;
        if (!value.pure.ok()) fail(describe(p, value.pure.status));
        if (!rules_.any()) return value;
        if (value.pure.metric == Metric::mtc) {  // no rule tables: its rule value stays unknown
            if (out_.rules_missing.empty()) out_.rules_missing = mtc_rules_missing;
            return value;
        }
        const RulesResult r = tb_->probe_rules(rules_, p, counts);
        if (r.ok())
            value.rules = r.answer;
        else if (r.status == ProbeStatus::no_rule_table && out_.rules_missing.empty())
            out_.rules_missing = missing_rule_table_hint(*tb_, rules_, p, r.missing_table);
        else if (r.status != ProbeStatus::no_rule_table && r.status != ProbeStatus::not_in_database)
            fail(describe(p, r.status));
        return value;
    }

    AnnotatedMove annotated_move(const PdnMove& written) {
        Move move{};
        const MoveMatch match = match_pdn_move(v_, p_, written.text, move);
        if (match != MoveMatch::found)
            throw Error(game_name() + ", move " + std::to_string(number_.number) + " (" +
                        colour_name(p_.side) + ", line " + std::to_string(written.line) +
                        "): " + move_match_problem(match, written.text, to_fen(v_, p_)));
        AnnotatedMove m{number_.label(),     p_.side, written.text, notation(move), move,
                        make_move(p_, move), {},      std::nullopt, MoveMark::none};
        m.counters_after = counters_after(rules_, p_, move, m.after, counts_);
        m.value = evaluate(m.after, m.counters_after);
        return m;
    }

    std::string notation(const Move& m) const {
        if (!tb_) return "";
        MoveList legal;
        generate_legal_moves(v_, p_, legal);
        return move_notation(v_.info(), m, legal);
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

    // The marked move in the summary: "45. 23-18? throws the win away" (before_: the value
    // before it).
    void note_mark() {
        if (marks_.size() >= static_cast<std::size_t>(annotate_max_marks_listed)) {
            ++more_marks_;
            return;
        }
        std::string s = move_.label + " " + move_.written + mark_text(move_.mark) + " ";
        const bool by_rules = before_->rules && move_.value->rules;
        if (move_.mark == MoveMark::mistake)
            s += "throws the win away";
        else
            s += value_of(*before_, by_rules) == Value::win ? "throws the win away and loses"
                                                            : "loses the draw";
        marks_.push_back(std::move(s));
    }

    // The summary without the game's name (it is also the last comment of the PDN).
    std::string summary_body() const {
        if (!out_.entered) return "never inside the tablebase";
        std::string s = *out_.entered == 0
                            ? "inside the tablebase from the start (" +
                                  value_comment(*out_.start_value, out_.start.side) + ")"
                            : "entered the tablebase after " + entered_;
        for (const std::string& m : marks_) s += "; " + m;
        if (more_marks_ > 0) s += "; and " + std::to_string(more_marks_) + " more marked moves";
        if (marks_.empty()) s += "; no move changed the value";
        if (out_.marks_by_rules) s += " (values under the move-limit rules)";
        if (plies_ > 0 && before_) s += "; at the end: " + value_comment(*before_, p_.side);
        if (!out_.rules_missing.empty()) s += "; pure values only (a rule table is missing)";
        return s;
    }

    // The header as written back: an [Annotator] tag when it has none, and the start's value.
    PdnGame annotated_header(const PdnGame& header) const {
        PdnGame g;
        g.tags = header.tags;
        g.before = header.before;
        g.first_number = header.first_number;
        if (!g.tag("Annotator")) g.tags.push_back({"Annotator", "damas annotate"});
        if (const auto type = game_type_number(v_); type && !g.tag("GameType"))
            g.tags.push_back({"GameType", std::to_string(*type)});
        if (out_.start_value)
            g.before.push_back(braced(value_comment(*out_.start_value, out_.start.side)));
        return g;
    }

    const Tablebase* tb_;
    const AnnotateOptions& o_;
    Variant v_;
    DrawRules rules_;
    AnnotatedGame out_;
    std::optional<PdnWriter> writer_;
    Position p_;  // the position now, its counts, and its value
    RuleCounters counts_;
    std::optional<PositionValue> before_;
    PdnNumber number_;
    int plies_ = 0;
    AnnotatedMove move_{};
    std::string entered_;             // the move that entered the tablebase, for the summary
    std::vector<std::string> marks_;  // the marked moves the summary names
    int more_marks_ = 0;
};

GameAnnotator::GameAnnotator(const Tablebase* tb, const AnnotateOptions& o, const PdnGame& header,
                             int number)
    : replay_(std::make_unique<Replay>(tb, o, header, number)) {}
GameAnnotator::~GameAnnotator() = default;

const AnnotatedMove& GameAnnotator::play(const PdnMove& written) {
    return replay_->play(written);
}

void GameAnnotator::finish(const std::string& result) {
    replay_->finish(result);
}

const AnnotatedGame& GameAnnotator::game() const {
    return replay_->game();
}

std::string GameAnnotator::take_pdn() {
    return replay_->take_pdn();
}

const char* mark_text(MoveMark m) {
    return m == MoveMark::mistake ? "?" : m == MoveMark::blunder ? "??" : "";
}

std::string value_comment(const PositionValue& v, Color side_to_move) {
    const ProbeResult& r = v.pure;
    if (r.value == Value::draw) return "draw";
    const Color winner = r.value == Value::win ? side_to_move : ~side_to_move;
    std::string s = std::string(colour_name(winner)) + " wins";
    if (r.plies == 0) return s + ", game over";
    s += (r.metric == Metric::mtc ? ", mtc " : ", dtw ") + std::to_string(r.plies);
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
    GameAnnotator annotator(&tb, o, game, number);
    std::vector<AnnotatedMove> moves;
    moves.reserve(game.moves.size());
    for (const PdnMove& m : game.moves) moves.push_back(annotator.play(m));
    annotator.finish(game.result);
    AnnotatedGame out = annotator.game();
    out.moves = std::move(moves);
    out.pdn = annotator.take_pdn();
    return out;
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

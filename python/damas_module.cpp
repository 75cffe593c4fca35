// The Python package `damas` (its compiled part, damas._damas): a Tablebase over a database
// folder, probed from FENs.
//
// Owns: only the glue between Python and the engine API (probe/): a PyTablebase holds one
// damas::Tablebase and its variant; probe and best parse the FEN and call the engine first
// under the GIL reading only loaded blocks and tables (CachedReadsOnly, probe/probe.hpp), and
// only when that needs the disk again with the GIL released; line, annotate and probe_many (long
// calls) release the GIL for the whole call; all return plain value objects (Probe, Rules, Move,
// Game) converted once the GIL is held. Why not always release it: a cached probe is about a
// microsecond of C++, and with two or more Python threads each release and retake of the GIL
// hands it to another thread (a futex wake and a context switch, several microseconds): threads
// probing cached positions ran 3 to 5 times slower than one. The engine is thread-safe, so
// reads from the disk (tens of microseconds) and the long calls run in parallel. Messages are
// the command line's (probe/messages.hpp, rules/notation.hpp): bad input raises ValueError, a
// class or rule table not in the folder NotInDatabase / MissingRuleTable (LookupError), a
// damaged or unreadable table TableError (OSError), a missing folder FileNotFoundError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "index/material.hpp"
#include "probe/limits_probe.hpp"
#include "probe/messages.hpp"
#include "probe/probe.hpp"
#include "probe/study/annotate.hpp"
#include "probe/study/game_counts.hpp"
#include "probe/study/line.hpp"
#include "probe/study/root_analysis.hpp"
#include "rules/error.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"
#include "rules/printable.hpp"

namespace py = pybind11;

namespace damas::python {
namespace {

// The C++ side of each Python exception (translated in PYBIND11_MODULE below).
struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct NotInDatabase : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct MissingRuleTable : NotInDatabase {
    using NotInDatabase::NotInDatabase;
};
struct TableError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct FolderNotFound : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// A probe under CachedReadsOnly needs the disk (fail() on ProbeStatus::not_in_cache): the call
// is made again with the GIL released (cached_first). Never reaches Python.
struct NeedsDisk {};

// A value under the move-limit rules.
struct Rules {
    std::string value;                 // "win", "draw", "loss"
    std::optional<int> dtr;            // plies to the rule's goal; None for a draw
    std::optional<std::string> count;  // the count in force ("the 5-move rule")
    std::optional<int> plies_left;     // the plies that count has left
    bool exact = true;
};

struct Probe {
    std::string fen;
    std::string value;
    std::optional<int> dtw;  // None for a draw; 0: the game is over
    std::optional<Rules> rules;
    std::optional<std::string> rules_missing;  // why rules is None, when the variant has rules
    // Plies to the next conversion, where the class holds MTC instead of DTW (dtw is then None
    // for every value): None for a draw or a DTW class.
    std::optional<int> mtc;
};

struct MoveValue {
    std::string move;
    std::string fen_after;
    std::string value;  // for the side that plays the move, counting it
    std::optional<int> dtw;
    std::optional<Rules> rules;
    std::optional<int> mtc;  // as Probe::mtc
};

// A game's move as annotate gives it (probe/study/annotate.hpp).
struct GameMove {
    std::string number;  // "12." or "12..."
    std::string side;    // "white" or "black": who played it
    std::string move;    // as the PDN has it
    std::string notation;
    std::string fen_after;
    std::optional<Probe> after;  // None outside the tablebase
    std::string mark;            // "", "?" or "??"
};

struct Game {
    int number = 0;
    std::string players;
    std::vector<std::pair<std::string, std::string>> tags;
    std::string start_fen;
    std::optional<Probe> start;
    std::vector<GameMove> moves;
    std::optional<int> entered;  // plies played when it entered the tablebase
    std::string summary;
    std::optional<std::string> rules_missing;
    std::string pdn;
};

struct Annotation {
    std::vector<Game> games;
    std::string pdn;
};

std::optional<int> distance(Value v, int plies) {
    if (v == Value::draw) return std::nullopt;
    return plies;
}

Rules rules_of(const RulesAnswer& a) {
    return Rules{value_name(a.rule.value), distance(a.rule.value, a.rule.plies), a.count,
                 a.plies_left, a.exact};
}

std::string quoted(const std::string& s) {
    return py::repr(py::str(s)).cast<std::string>();
}

template <class T>
std::string optional_repr(const std::optional<T>& x) {
    if (!x) return "None";
    if constexpr (std::is_same_v<T, std::string>)
        return quoted(*x);
    else
        return std::to_string(*x);
}

std::string rules_repr(const Rules& r) {
    return "Rules(value=" + quoted(r.value) + ", dtr=" + optional_repr(r.dtr) +
           ", count=" + optional_repr(r.count) + ", plies_left=" + optional_repr(r.plies_left) +
           (r.exact ? "" : ", exact=False") + ")";
}

std::string optional_rules_repr(const std::optional<Rules>& r) {
    return r ? rules_repr(*r) : "None";
}

// pydraughts' names of the variants damas has (draughts/core/variant.py: "standard", with
// "from position" and "american" read as pydraughts reads them).
std::optional<Variant> variant_of_pydraughts_name(const std::string& name) {
    if (name == "standard" || name == "from position")
        return Variant{BaseVariant::international, false};
    if (name == "antidraughts") return Variant{BaseVariant::international, true};
    if (name == "american") return Variant{BaseVariant::english, false};
    for (const char* same : {"english", "italian", "russian", "brazilian", "turkish"})
        if (name == same) return parse_variant(name);
    return std::nullopt;
}

// A Python attribute as a string, or BadInput naming what the board lacks.
std::string board_text(const py::object& board, const char* name) {
    if (!py::hasattr(board, name))
        throw BadInput(std::string("a position is a FEN or a pydraughts Board (with variant, "
                                   "initial_fen, move_stack and fen); this one has no ") +
                       name);
    return py::str(board.attr(name)).cast<std::string>();
}

// The counts and edition of a query, checked as `damas probe` checks its options.
struct Query {
    DrawRules rules;
    RuleCounters counters;
    bool required = false;  // a count or the edition given: a missing rule table is an error
};

Query make_query(Variant v, int plies_since_capture, int plies_in_ending,
                 std::optional<int> forcada_plies, const std::string& edition,
                 const std::optional<std::string>& forcada_side) {
    const auto e = parse_edition(edition);
    if (!e) throw BadInput("unknown edition '" + printable(edition) + "' (known: seed, fmjd)");
    Query q{draw_rules(v, *e), {}, false};
    q.required = plies_since_capture != 0 || plies_in_ending != 0 || forcada_plies ||
                 forcada_side || *e != Edition::seed;
    try {
        q.counters =
            counters_stated(v, {plies_since_capture, plies_in_ending, forcada_plies, forcada_side});
    } catch (const Error& error) {
        throw BadInput(error.what());
    }
    return q;
}

class PyTablebase {
  public:
    PyTablebase(const std::filesystem::path& folder, const std::string& variant, long cache_mib)
        : variant_(parse_variant_or_throw(variant)) {
        if (cache_mib < 0) throw BadInput("cache_mib must not be negative");
        if (!is_folder(folder))
            throw FolderNotFound("no database folder " + printable(folder.string()) +
                                 " (generate one with damas gen)");
        if (!is_folder(folder / variant_.name()))
            throw FolderNotFound("no " + variant_.name() + " tables in " +
                                 printable(folder.string()) +
                                 " (generate them with damas gen "
                                 "--variant " +
                                 variant_.name() + ")");
        try {
            tb_ = Tablebase::open(folder, static_cast<std::size_t>(cache_mib), 0,
                                  [this](const std::string& s) {
                                      const std::lock_guard lock(problem_mutex_);
                                      last_problem_ = s;
                                  });
        } catch (const Error& e) {
            throw BadInput(e.what());  // too large a cache
        }
        cache_mib_ = cache_mib;
    }

    std::string variant() const { return variant_.name(); }
    std::filesystem::path folder() const { return tb_->dir(); }
    long cache_mib() const { return cache_mib_; }
    int largest_pieces() const { return tb_->largest_class(variant_); }

    // The folder as Python names it (os.fsdecode: bytes that are not UTF-8 as surrogates), so
    // that the repr reads back to the same folder.
    std::string repr() const {
        const std::string dir = tb_->dir().string();
        const py::str folder = py::reinterpret_steal<py::str>(
            PyUnicode_DecodeFSDefaultAndSize(dir.data(), static_cast<Py_ssize_t>(dir.size())));
        if (!folder) throw py::error_already_set();
        return "Tablebase(" + py::repr(folder).cast<std::string>() +
               ", variant=" + quoted(variant()) + ", cache_mib=" + std::to_string(cache_mib_) + ")";
    }

    // Called with the GIL held.
    Probe probe(const py::object& position, int plies_since_capture, int plies_in_ending,
                std::optional<int> forcada_plies, const std::string& edition,
                const std::optional<std::string>& forcada_side) const {
        Position p;
        const Query q = query_of(position, p, plies_since_capture, plies_in_ending, forcada_plies,
                                 edition, forcada_side);
        return cached_first([&] { return probe_position(p, q); });
    }

    // The position and query of a FEN with the counts given, or of a pydraughts Board with the
    // counts its moves have used (given no count: they come from the board).
    Query query_of(const py::object& position, Position& p, int plies_since_capture,
                   int plies_in_ending, std::optional<int> forcada_plies,
                   const std::string& edition,
                   const std::optional<std::string>& forcada_side) const {
        if (py::isinstance<py::str>(position)) {
            p = parse(position.cast<std::string>());
            return make_query(variant_, plies_since_capture, plies_in_ending, forcada_plies,
                              edition, forcada_side);
        }
        if (plies_since_capture != 0 || plies_in_ending != 0 || forcada_plies || forcada_side)
            throw BadInput("a board's counts come from its moves: give no count with a board");
        Query q = make_query(variant_, 0, 0, std::nullopt, edition, std::nullopt);
        const study::GameCounts game = replay_board(position, q.rules);
        p = game.position;
        q.counters = game.counters;
        return q;
    }

    // A pydraughts Board (draughts/core/variant.py), duck-typed: its variant (pydraughts'
    // name), initial_fen, move_stack (each move's pdn_move, in the variant's notation) and fen
    // (the position now, which the moves must reach). The moves are replayed from initial_fen
    // with every count starting there.
    study::GameCounts replay_board(const py::object& board, const DrawRules& rules) const {
        const std::string variant_name = board_text(board, "variant");
        const auto v = variant_of_pydraughts_name(variant_name);
        if (!v || *v != variant_)
            throw BadInput("a pydraughts board of variant '" + printable(variant_name) +
                           "' and a Tablebase of " + variant_.name());
        study::GameCounts game{parse(board_text(board, "initial_fen")), {}, 0};
        if (!py::hasattr(board, "move_stack")) board_text(board, "move_stack");  // raises
        for (const py::handle move : board.attr("move_stack")) {
            const std::string text =
                board_text(py::reinterpret_borrow<py::object>(move), "pdn_move");
            Move m{};
            const MoveMatch match = match_pdn_move(variant_, game.position, text, m);
            if (match != MoveMatch::found)
                throw BadInput("the board's move " + std::to_string(game.plies + 1) + ": " +
                               move_match_problem(match, text, to_fen(variant_, game.position)));
            game.play(rules, m);
        }
        if (py::hasattr(board, "fen") && parse(board_text(board, "fen")) != game.position)
            throw BadInput("the board's moves from its initial_fen reach " +
                           to_fen(variant_, game.position) + ", not its fen " +
                           printable(board_text(board, "fen")));
        return game;
    }

    // The probe of each FEN with the same counts, as [probe(fen, ...) for fen in fens] gives
    // (raising the first failure), with the GIL released once for the whole list.
    std::vector<Probe> probe_many(const std::vector<std::string>& fens, int plies_since_capture,
                                  int plies_in_ending, std::optional<int> forcada_plies,
                                  const std::string& edition,
                                  const std::optional<std::string>& forcada_side) const {
        const Query q = make_query(variant_, plies_since_capture, plies_in_ending, forcada_plies,
                                   edition, forcada_side);
        std::vector<Probe> out;
        out.reserve(fens.size());
        for (const std::string& fen : fens) out.push_back(probe_position(parse(fen), q));
        return out;
    }

    // Called with the GIL held.
    std::vector<MoveValue> best(const py::object& position, int plies_since_capture,
                                int plies_in_ending, std::optional<int> forcada_plies,
                                const std::string& edition,
                                const std::optional<std::string>& forcada_side) const {
        Position p;
        const Query q = query_of(position, p, plies_since_capture, plies_in_ending, forcada_plies,
                                 edition, forcada_side);
        return cached_first([&] { return best_moves(p, q); });
    }

    // probe_root answers the root's failure first, as pure(p) would.
    std::vector<MoveValue> best_moves(const Position& p, const Query& q) const {
        const bool with_rules = q.rules.any();
        std::vector<RootMove> moves;
        ProbeStatus s =
            tb_->probe_root(variant_, p, moves, with_rules ? &q.rules : nullptr, q.counters);
        if (s == ProbeStatus::no_rule_table) {
            if (q.required) throw MissingRuleTable(rule_table_hint(q, p));
            s = tb_->probe_root(variant_, p, moves);  // the pure values only
        }
        if (s != ProbeStatus::ok) fail(p, s);
        std::vector<MoveValue> out;
        out.reserve(moves.size());
        for (const RootMove& m : moves) {
            const bool mtc = m.result.metric == Metric::mtc;
            const std::optional<int> d = distance(m.result.value, m.result.plies);
            MoveValue mv{m.notation,
                         to_fen(variant_, m.after),
                         value_name(m.result.value),
                         mtc ? std::nullopt : d,
                         {},
                         mtc ? d : std::nullopt};
            if (m.rule) {
                Rules r{value_name(m.rule->value),
                        distance(m.rule->value, m.rule->plies),
                        {},
                        {},
                        true};
                if (!m.rule_count.empty()) {
                    r.count = m.rule_count;
                    r.plies_left = m.rule_plies_left;
                }
                mv.rules = r;
            }
            out.push_back(std::move(mv));
        }
        return out;
    }

    // An optimal line: from a won or lost position, the best move at each ply until the game
    // ends (empty for a draw or a game already over).
    // (probe/study/line.hpp, with the pure values alone).
    std::vector<MoveValue> line(const std::string& fen) const {
        const Position p = parse(fen);
        const auto analyse = [this](const Position& q, const RuleCounters& counters) {
            study::RootAnalysis a = study::analyse_root(*tb_, variant_, q, {{}, counters});
            if (!a.root.ok()) fail(q, a.root.status);
            return a;
        };
        study::OptimalLine line;
        try {
            line = study::optimal_line(variant_, p, analyse(p, {}), analyse);
        } catch (const study::InconsistentTables& e) {
            throw TableError(e.what());
        }
        std::vector<MoveValue> out;
        for (const study::LineMove& l : line.moves) {
            const study::RootMove& m = l.move;
            const bool mtc = m.pure.metric == Metric::mtc;
            const std::optional<int> d = distance(m.pure.value, m.pure.plies);
            out.push_back({m.text,
                           to_fen(variant_, m.after),
                           value_name(m.pure.value),
                           mtc ? std::nullopt : d,
                           {},
                           mtc ? d : std::nullopt});
        }
        return out;
    }

    // The games of a PDN text annotated as `damas annotate` does (probe/study/annotate.hpp).
    Annotation annotate(const std::string& pdn, const std::string& edition) const {
        const auto e = parse_edition(edition);
        if (!e) throw BadInput("unknown edition '" + printable(edition) + "' (known: seed, fmjd)");
        std::vector<PdnGame> games;
        try {
            games = read_pdn(pdn);
        } catch (const Error& x) {
            throw BadInput(x.what());
        }
        // A damaged table raises TableError (a class missing is no failure: no comment).
        const AnnotateOptions options{
            variant_, *e, [this](const Position& p, ProbeStatus s) -> std::string { fail(p, s); }};
        Annotation out;
        for (std::size_t i = 0; i < games.size(); ++i) {
            out.games.push_back(
                game_of(games[i], annotate_game(*tb_, options, games[i], static_cast<int>(i) + 1)));
            out.pdn += out.games.back().pdn;
        }
        return out;
    }

    // For the benchmark (bench/python_probe.py): the mean nanoseconds of what probe() does in
    // C++ for a variant with rules (parse the FEN, probe under the rules, which gives the value
    // and DTW too, print the FEN), over n calls without Python in between. Releases the GIL.
    double time_cpp_probe(const std::string& fen, int n) const {
        const auto start = std::chrono::steady_clock::now();
        std::size_t sink = 0;
        for (int i = 0; i < n; ++i) {
            const Position p = parse_fen(variant_, fen);
            const RulesResult rr = tb_->probe_rules(draw_rules(variant_), p, {});
            sink += rr.answer.pure.plies + rr.answer.count.size() + to_fen(variant_, p).size();
        }
        const std::chrono::duration<double, std::nano> t = std::chrono::steady_clock::now() - start;
        if (sink == 0) std::fputs("", stderr);  // keeps the loop
        return t.count() / n;
    }

  private:
    Probe probe_of(const PositionValue& v, const Position& p, const std::string& missing) const {
        const bool mtc = v.pure.metric == Metric::mtc;
        const std::optional<int> plies = distance(v.pure.value, v.pure.plies);
        Probe out{
            to_fen(variant_, p),       value_name(v.pure.value), mtc ? std::nullopt : plies, {}, {},
            mtc ? plies : std::nullopt};
        if (v.rules)
            out.rules = rules_of(*v.rules);
        else if (!missing.empty())
            out.rules_missing = missing;
        return out;
    }

    Game game_of(const PdnGame& source, const AnnotatedGame& g) const {
        Game out{g.number,  g.players, {},   to_fen(variant_, g.start), {}, {}, g.entered,
                 g.summary, {},        g.pdn};
        for (const PdnTag& t : source.tags) out.tags.emplace_back(t.name, t.value);
        if (g.start_value) out.start = probe_of(*g.start_value, g.start, g.rules_missing);
        if (!g.rules_missing.empty()) out.rules_missing = g.rules_missing;
        for (const AnnotatedMove& m : g.moves) {
            GameMove gm{m.label,          color_name(m.side),        m.written,
                        m.notation,       to_fen(variant_, m.after), {},
                        mark_text(m.mark)};
            if (m.value) gm.after = probe_of(*m.value, m.after, g.rules_missing);
            out.moves.push_back(std::move(gm));
        }
        return out;
    }

    // f() under the GIL reading only what is loaded; if it needs the disk, f() again with the
    // GIL released (f must not touch Python objects). See the top of this file.
    template <class F>
    auto cached_first(const F& f) const -> decltype(f()) {
        {
            const CachedReadsOnly cached;
            try {
                return f();
            } catch (const NeedsDisk&) {
            }
        }
        const py::gil_scoped_release unlocked;
        return f();
    }

    // The value and DTW of p, and its value under the rules. When the variant has rules, the
    // rule probe gives the pure value too (probe_rules reads it first).
    Probe probe_position(const Position& p, const Query& q) const {
        const auto pure_probe = [&](Value v, int plies, Metric metric = Metric::dtw) {
            const std::optional<int> d = distance(v, plies);
            const bool mtc = metric == Metric::mtc;
            return Probe{to_fen(variant_, p),   value_name(v), mtc ? std::nullopt : d, {}, {},
                         mtc ? d : std::nullopt};
        };
        const ProbeResult distance_probe = pure(p);
        if (!q.rules.any() || distance_probe.metric == Metric::mtc) {
            Probe out =
                pure_probe(distance_probe.value, distance_probe.plies, distance_probe.metric);
            // The rule tables are made from dtw files, which an mtc class has not.
            if (q.rules.any()) {
                if (q.required) throw MissingRuleTable(mtc_rules_missing);
                out.rules_missing = mtc_rules_missing;
            }
            return out;
        }
        const RulesResult rr = tb_->probe_rules(q.rules, p, q.counters);
        if (rr.ok()) {
            Probe out = pure_probe(rr.answer.pure.value, rr.answer.pure.plies);
            out.rules = rules_of(rr.answer);
            return out;
        }
        if (rr.status == ProbeStatus::unreachable_counts)
            throw BadInput("no game reaches these counts at this position: " + rr.unreachable);
        if (rr.status != ProbeStatus::no_rule_table) fail(p, rr.status);
        const std::string hint = missing_rule_table_hint(*tb_, q.rules, p, rr.missing_table);
        if (q.required) throw MissingRuleTable(hint);
        const ProbeResult r = pure(p);
        Probe out = pure_probe(r.value, r.plies);
        out.rules_missing = hint;
        return out;
    }

    static Variant parse_variant_or_throw(const std::string& name) {
        const auto v = parse_variant(name);
        if (!v)
            throw BadInput("unknown variant '" + printable(name) + "' (known: " + variant_names() +
                           ")");
        return *v;
    }

    Position parse(const std::string& fen) const {
        try {
            return parse_fen(variant_, fen);
        } catch (const Error& e) {
            throw BadInput(printable(e.what(), 1000));
        }
    }

    ProbeResult pure(const Position& p) const {
        const ProbeResult r = tb_->probe_distance(variant_, p);
        if (!r.ok()) fail(p, r.status);
        return r;
    }

    [[noreturn]] void fail(const Position& p, ProbeStatus s) const {
        if (s == ProbeStatus::not_in_cache) throw NeedsDisk{};
        std::string problem;
        {
            const std::lock_guard lock(problem_mutex_);
            problem = last_problem_;
        }
        const std::string m = probe_failure_message(*tb_, variant_, p, s, problem);
        switch (s) {
            case ProbeStatus::not_in_database:
                throw NotInDatabase(m);
            case ProbeStatus::invalid_position:
            case ProbeStatus::invalid_argument:
            case ProbeStatus::unreachable_counts:
                throw BadInput(m);
            default:
                throw TableError(m);
        }
    }

    // The hint for a rule table a root probe missed: the root's own, else one a move leads to.
    std::string rule_table_hint(const Query& q, const Position& p) const {
        const RulesResult rr = tb_->probe_rules(q.rules, p, q.counters);
        if (rr.status == ProbeStatus::not_in_cache) throw NeedsDisk{};
        if (rr.status == ProbeStatus::no_rule_table)
            return missing_rule_table_hint(*tb_, q.rules, p, rr.missing_table);
        return "a class a move leads to has no rule table: run damas gen-rules -v " +
               variant_.name() + " -p " + std::to_string(Material::of(p).pieces()) + " -d " +
               printable(tb_->dir().string());
    }

    Variant variant_;
    long cache_mib_ = 0;
    mutable std::mutex problem_mutex_;
    std::string last_problem_;
    std::unique_ptr<Tablebase> tb_;
};

PyObject* new_exception(py::module_& m, const char* name, PyObject* base, const char* doc) {
    const std::string full = std::string("damas.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(full.c_str(), doc, base, nullptr);
    if (!type) throw py::error_already_set();
    m.add_object(name, py::handle(type));  // the module holds the reference
    return type;
}

}  // namespace
}  // namespace damas::python

PYBIND11_MODULE(_damas, m) {
    using namespace damas::python;
    m.doc() = "damas: endgame tablebases for the draughts family (the compiled part)";

    static PyObject* not_in_database =
        new_exception(m, "NotInDatabase", PyExc_LookupError,
                      "A class the position needs (or one its moves lead to) is not in the "
                      "database folder.");
    static PyObject* missing_rule_table =
        new_exception(m, "MissingRuleTable", not_in_database,
                      "A move-limit rule table is not in the folder (run damas gen-rules).");
    static PyObject* table_error = new_exception(m, "TableError", PyExc_OSError,
                                                 "A table file is damaged or could not be read.");
    // Every message as valid UTF-8 (a path's bytes that are not escaped as \xff, as the command
    // line prints them), so that raising it cannot fail with UnicodeDecodeError.
    py::register_exception_translator([](std::exception_ptr e) {
        const auto raise = [](PyObject* type, const char* what) {
            PyErr_SetString(type, damas::printable(what, std::string::npos).c_str());
        };
        try {
            if (e) std::rethrow_exception(e);
        } catch (const BadInput& x) {
            raise(PyExc_ValueError, x.what());
        } catch (const MissingRuleTable& x) {
            raise(missing_rule_table, x.what());
        } catch (const NotInDatabase& x) {
            raise(not_in_database, x.what());
        } catch (const TableError& x) {
            raise(table_error, x.what());
        } catch (const FolderNotFound& x) {
            raise(PyExc_FileNotFoundError, x.what());
        } catch (const damas::FolderAccessError& x) {
            raise(PyExc_OSError, x.what());
        } catch (const damas::Error& x) {
            raise(PyExc_ValueError, x.what());
        }
    });

    py::class_<Rules>(m, "Rules", "A value under the move-limit draw rules.")
        .def_readonly("value", &Rules::value, "'win', 'draw' or 'loss' under the rules")
        .def_readonly("dtr", &Rules::dtr,
                      "Plies to the rule's goal (the end of the game, or the capture or man move "
                      "that restarts the count in a position still won); None for a draw. Not "
                      "the DTW.")
        .def_readonly("count", &Rules::count, "The count in force, e.g. 'the 5-move rule'")
        .def_readonly("plies_left", &Rules::plies_left, "The plies that count has left")
        .def_readonly("exact", &Rules::exact,
                      "False when a king-move count given runs out before the ending's count")
        .def("__repr__", &rules_repr);

    py::class_<Probe>(m, "Probe", "The value of a position for the side to move.")
        .def_readonly("fen", &Probe::fen, "The position, as damas prints it")
        .def_readonly("value", &Probe::value, "'win', 'draw' or 'loss' for the side to move")
        .def_readonly("dtw", &Probe::dtw,
                      "Plies to the end of the game with best play; None for a draw, 0 when the "
                      "game is over; None too where the class holds MTC (see mtc)")
        .def_readonly("mtc", &Probe::mtc,
                      "Where the class was generated with --metric mtc: plies to the next capture "
                      "or man move (or the end of the game), the winner converting as soon as it "
                      "can; None for a draw or a class that holds DTW")
        .def_readonly("rules", &Probe::rules,
                      "The value under the move-limit rules (Rules), or None when the variant "
                      "has none or the rule tables are not there (see rules_missing)")
        .def_readonly("rules_missing", &Probe::rules_missing,
                      "Why rules is None when the variant has rules: the damas gen-rules hint")
        .def("__repr__", [](const Probe& p) {
            return "Probe(fen=" + quoted(p.fen) + ", value=" + quoted(p.value) +
                   ", dtw=" + optional_repr(p.dtw) +
                   (p.mtc ? ", mtc=" + optional_repr(p.mtc) : "") +
                   ", rules=" + optional_rules_repr(p.rules) + ")";
        });

    py::class_<MoveValue>(m, "Move", "A legal move and its value for the side that plays it.")
        .def_readonly("move", &MoveValue::move, "PDN notation, e.g. '9-14' or '18x11'")
        .def_readonly("fen_after", &MoveValue::fen_after, "The position after the move")
        .def_readonly("value", &MoveValue::value,
                      "'win', 'draw' or 'loss' for the side that plays the move")
        .def_readonly("dtw", &MoveValue::dtw,
                      "Plies to the end of the game counting this move; None for a draw or where "
                      "the class holds MTC (see mtc)")
        .def_readonly("mtc", &MoveValue::mtc,
                      "Plies to the next conversion counting this move (1 for a capture or a "
                      "man move), where the class holds MTC; else None")
        .def_readonly("rules", &MoveValue::rules,
                      "The move's value under the move-limit rules, with the count in force "
                      "after it (None when not available)")
        .def("__repr__", [](const MoveValue& v) {
            return "Move(move=" + quoted(v.move) + ", value=" + quoted(v.value) +
                   ", dtw=" + optional_repr(v.dtw) +
                   (v.mtc ? ", mtc=" + optional_repr(v.mtc) : "") +
                   ", rules=" + optional_rules_repr(v.rules) +
                   ", fen_after=" + quoted(v.fen_after) + ")";
        });

    py::class_<GameMove>(m, "GameMove", "A move of an annotated game.")
        .def_readonly("number", &GameMove::number, "'12.' or '12...' as PDN numbers it")
        .def_readonly("side", &GameMove::side, "'white' or 'black': who played it")
        .def_readonly("move", &GameMove::move, "The move as the PDN has it")
        .def_readonly("notation", &GameMove::notation, "The move as damas writes it")
        .def_readonly("fen_after", &GameMove::fen_after, "The position after the move")
        .def_readonly("after", &GameMove::after,
                      "The position after the move probed with the game's move-limit counts "
                      "(Probe, for the side to move then), or None outside the tablebase")
        .def_readonly("mark", &GameMove::mark,
                      "'?' (a win to a draw), '?\?' (a win or a draw to a loss) for the side that "
                      "played it, or ''")
        .def("__repr__", [](const GameMove& g) {
            return "GameMove(number=" + quoted(g.number) + ", move=" + quoted(g.move) +
                   ", mark=" + quoted(g.mark) + ", fen_after=" + quoted(g.fen_after) + ")";
        });

    py::class_<Game>(m, "Game", "A game of a PDN text, annotated with the tablebase.")
        .def_readonly("number", &Game::number, "Its place in the text, from 1")
        .def_readonly("players", &Game::players, "'White vs Black' from its tags, or ''")
        .def_readonly("tags", &Game::tags, "Its tag pairs, (name, value), in order")
        .def_readonly("start_fen", &Game::start_fen,
                      "Where it starts: its [FEN] tag or the "
                      "initial position")
        .def_readonly("start", &Game::start,
                      "The start position probed (Probe), or None outside the tablebase")
        .def_readonly("moves", &Game::moves, "Its moves (GameMove), in order")
        .def_readonly("entered", &Game::entered,
                      "Plies played when the game first stood inside the tablebase (0: at the "
                      "start), or None")
        .def_readonly("summary", &Game::summary, "One line, as damas annotate prints it")
        .def_readonly("rules_missing", &Game::rules_missing,
                      "The damas gen-rules hint when a rule table was missing (pure values "
                      "only), or None")
        .def_readonly("pdn", &Game::pdn, "The annotated game as PDN")
        .def("__repr__", [](const Game& g) { return "Game(summary=" + quoted(g.summary) + ")"; });

    py::class_<Annotation>(m, "Annotation", "The games of a PDN text, annotated.")
        .def_readonly("games", &Annotation::games, "Each game (Game), in order")
        .def_readonly("pdn", &Annotation::pdn, "The annotated PDN text, every game")
        .def("__repr__", [](const Annotation& a) {
            return "Annotation(games=" + std::to_string(a.games.size()) + ")";
        });

    using release = py::call_guard<py::gil_scoped_release>;
    py::class_<PyTablebase>(m, "Tablebase",
                            "A database folder of one variant (holding <variant>/ with the "
                            "table files). Thread-safe: Python threads may probe one Tablebase at "
                            "once; reads from the disk and long calls release the GIL.")
        .def(py::init<const std::filesystem::path&, const std::string&, long>(), py::arg("folder"),
             py::arg("variant") = "english", py::arg("cache_mib") = 64,
             "Opens the folder; tables are opened on first use. cache_mib: the budget of the "
             "block cache in MiB.")
        .def_property_readonly("variant", &PyTablebase::variant)
        .def_property_readonly("folder", &PyTablebase::folder)
        .def_property_readonly("cache_mib", &PyTablebase::cache_mib)
        .def_property_readonly("largest_pieces", &PyTablebase::largest_pieces,
                               "The most pieces of a complete class in the folder")
        .def("probe", &PyTablebase::probe, py::arg("position"), py::arg("plies_since_capture") = 0,
             py::arg("plies_in_ending") = 0, py::arg("forcada_plies") = py::none(),
             py::arg("edition") = "seed", py::arg("forcada_side") = py::none(),
             "The value and DTW of the position for the side to move, and its value under the "
             "move-limit rules given the counts already used (plies since the last capture or "
             "man move, plies in the current limited ending, portuguese forcada plies; "
             "edition: international's 'seed' or 'fmjd'; forcada_side: 'white' or 'black', the "
             "side whose three kings started a forcada run on into 1 king against 1). position: "
             "a FEN, or a pydraughts Board, whose counts then come from its moves.")
        .def("probe_many", &PyTablebase::probe_many, release(), py::arg("fens"),
             py::arg("plies_since_capture") = 0, py::arg("plies_in_ending") = 0,
             py::arg("forcada_plies") = py::none(), py::arg("edition") = "seed",
             py::arg("forcada_side") = py::none(),
             "probe() of every FEN of a list with the same counts, as a list (the first failure "
             "raises, as probe() would). The GIL is released once for the whole list: the way "
             "to scan many positions, from one thread or several.")
        .def("best", &PyTablebase::best, py::arg("position"), py::arg("plies_since_capture") = 0,
             py::arg("plies_in_ending") = 0, py::arg("forcada_plies") = py::none(),
             py::arg("edition") = "seed", py::arg("forcada_side") = py::none(),
             "Every legal move with its value and DTW for the side that plays it, counting the "
             "move, best first (wins by shortest distance, draws, losses by longest); empty "
             "when the game is over. position: a FEN, or a pydraughts Board, whose counts then "
             "come from its moves.")
        .def("line", &PyTablebase::line, release(), py::arg("fen"),
             "An optimal line to the end of the game: the best move at each ply (empty for a "
             "draw or a game over).")
        .def("annotate", &PyTablebase::annotate, release(), py::arg("pdn"),
             py::arg("edition") = "seed",
             "The games of a PDN text (tags, comments, variations; the [FEN] tag as the start) "
             "replayed with the move-limit counts kept: every position inside the tablebase "
             "probed, the moves that throw a win or a draw away marked, a summary per game, "
             "and the annotated PDN, as damas annotate writes it. A move that is not legal "
             "raises ValueError naming the game and the move.")
        .def("_time_cpp_probe", &PyTablebase::time_cpp_probe, release(), py::arg("fen"),
             py::arg("n"))
        .def("__repr__", &PyTablebase::repr);
}

// annotate: PDN games with the tablebase's verdict on every position inside it
// (probe/study/annotate.hpp says what is written). The annotated PDN goes to -o FILE or standard
// output, a summary line per game to standard output (standard error when the PDN goes there),
// --json everything as one object.
//
// Streams: the file is read twice, game by game and move by move, never whole. First every game
// is checked (moves matched and played, nothing probed), so that bad input prints its error and
// nothing else; then each game is annotated and written as it is read, the --json object too
// (its "pdn", which comes last, is kept in a temporary file until then). Memory does not grow
// with the games' length (docs/performance.md, "annotate").
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "probe/study/annotate.hpp"
#include "rules/error.hpp"
#include "rules/game_type.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"
#include "rules/printable.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/database.hpp"
#include "tools/cli/limits_options.hpp"

namespace damas::cli {
namespace {

struct AnnotateCommandOptions {
    std::string variant;
    std::string dir;
    std::string input;
    std::string output;
    std::string edition = "seed";
    bool json = false;
};

// The PDN file, opened once for each pass: a regular file is opened again, anything else (a pipe)
// is read into memory the first time.
class PdnInput {
  public:
    explicit PdnInput(std::string path) : path_(std::move(path)) {
        std::error_code ec;
        if (std::filesystem::is_directory(path_, ec))
            throw Error("cannot read " + printable(path_) + ": a folder");
        if (!std::filesystem::is_regular_file(path_, ec)) held_ = read_all();
    }

    std::unique_ptr<std::istream> open() const {
        if (held_) return std::make_unique<std::istringstream>(*held_);
        auto in = std::make_unique<std::ifstream>(path_, std::ios::binary);
        if (!*in) throw Error("cannot read " + printable(path_) + ": " + std::strerror(errno));
        return in;
    }
    const std::string& path() const { return path_; }

  private:
    std::string read_all() const {
        std::ifstream in(path_, std::ios::binary);
        if (!in) throw Error("cannot read " + printable(path_) + ": " + std::strerror(errno));
        std::ostringstream s;
        s << in.rdbuf();
        if (in.bad()) throw Error("cannot read " + printable(path_));
        return s.str();
    }

    std::string path_;
    std::optional<std::string> held_;
};

// Runs f over every game of the file: f(reader, header, number). A PDN error names the file.
template <class F>
void for_each_game(const PdnInput& input, const F& f) {
    const auto in = input.open();
    try {
        PdnReader reader(*in);
        PdnGame header;
        for (int number = 1; reader.next_game(header); ++number) f(reader, header, number);
    } catch (const PdnError& e) {
        throw Error(printable(input.path()) + ": " + e.what());
    }
    if (in->bad()) throw Error("cannot read " + printable(input.path()));
}

// Every game checked before anything is written.
void check_games(const PdnInput& input, const AnnotateOptions& options) {
    for_each_game(input, [&](PdnReader& reader, const PdnGame& header, int number) {
        GameAnnotator game(nullptr, options, header, number);
        PdnMove move;
        while (reader.next_move(move)) game.play(move);
        game.finish(reader.result());
    });
}

// Where the annotated PDN goes: -o FILE or standard output, and with --json a temporary file
// read back into the object's "pdn" at its end.
class PdnOutput {
  public:
    PdnOutput(const std::string& path, bool json) {
        if (!path.empty()) {
            file_ = std::fopen(path.c_str(), "wb");
            if (!file_)
                throw Error("cannot write " + printable(path) + ": " + std::strerror(errno));
            path_ = path;
        } else if (!json) {
            out_ = stdout;
        }
        if (json) spool_ = temporary_file();
    }
    ~PdnOutput() {
        if (file_) std::fclose(file_);
        if (spool_) std::fclose(spool_);
    }
    PdnOutput(const PdnOutput&) = delete;
    PdnOutput& operator=(const PdnOutput&) = delete;

    void write(const std::string& text) {
        if (text.empty()) return;
        for (FILE* f : {file_, out_, spool_})
            if (f && std::fwrite(text.data(), 1, text.size(), f) != text.size())
                throw Error("cannot write the annotated PDN: " + std::string(std::strerror(errno)));
    }
    void close() {
        if (file_ && std::fclose(std::exchange(file_, nullptr)) != 0)
            throw Error("cannot write " + printable(path_) + ": " + std::strerror(errno));
        if (out_) std::fflush(out_);
    }
    // The PDN written, as a JSON string's inside, line by line to standard output.
    void print_json_string() {
        std::fflush(spool_);
        std::rewind(spool_);
        char* line = nullptr;
        std::size_t capacity = 0;
        ssize_t n = 0;
        while ((n = getline(&line, &capacity, spool_)) > 0) {
            std::string quoted = Json(std::string(line, static_cast<std::size_t>(n)))
                                     .dump(-1, ' ', false, Json::error_handler_t::replace);
            std::fwrite(quoted.data() + 1, 1, quoted.size() - 2, stdout);
        }
        std::free(line);
        if (std::ferror(spool_)) throw Error("cannot read back the annotated PDN");
    }

  private:
    // An unnamed file in $TMPDIR (else /tmp), gone when closed.
    static FILE* temporary_file() {
        std::error_code ec;
        std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
        if (ec) dir = "/tmp";
        std::string name = (dir / "damas-annotate-XXXXXX").string();
        const int fd = ::mkstemp(name.data());
        FILE* f = fd < 0 ? nullptr : ::fdopen(fd, "w+b");
        if (fd >= 0) ::unlink(name.c_str());
        if (!f) {
            const int error = errno;
            if (fd >= 0) ::close(fd);
            throw Error("cannot make a temporary file in " + printable(dir.string()) + ": " +
                        std::strerror(error));
        }
        return f;
    }

    FILE* file_ = nullptr;   // -o
    FILE* out_ = nullptr;    // standard output
    FILE* spool_ = nullptr;  // for --json
    std::string path_;
};

std::string dumped(const Json& j) {
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json position_json(const DrawRules& rules, const std::optional<PositionValue>& v, Color side) {
    if (!v) return nullptr;
    Json j{{"value", value_name(v->pure.value)},
           {distance_key(v->pure.metric), distance_json(v->pure.value, v->pure.plies)}};
    if (v->rules) j["rules"] = rules_json(rules, *v->rules);
    j["comment"] = value_comment(*v, side);
    return j;
}

Json annotated_move_json(Variant variant, const DrawRules& rules, const AnnotatedMove& m) {
    const MoveMark mark = m.mark;
    return Json{{"number", m.label},
                {"side", color_name(m.side)},
                {"move", m.written},
                {"notation", m.notation},
                {"fen_after", to_fen(variant, m.after)},
                {"counts_after", counts_json(m.counters_after)},
                {"after", position_json(rules, m.value, m.after.side)},
                {"mark", mark == MoveMark::none ? Json(nullptr) : Json(mark_text(mark))}};
}

// A game's object, written around its moves: the fields known at its start, then "moves", then
// those known at its end.
std::string game_json_head(Variant variant, const DrawRules& rules, const PdnGame& header,
                           const AnnotatedGame& g) {
    Json tags = Json::object();
    for (const PdnTag& t : header.tags) tags[t.name] = t.value;
    std::string s = dumped(Json{{"game", g.number},
                                {"players", g.players},
                                {"tags", std::move(tags)},
                                {"start_fen", to_fen(variant, g.start)},
                                {"start", position_json(rules, g.start_value, g.start.side)}});
    s.pop_back();  // '}'
    return s + ",\"moves\":[";
}

std::string game_json_tail(const AnnotatedGame& g) {
    Json j{{"entered_after_plies", g.entered ? Json(*g.entered) : Json(nullptr)},
           {"summary", g.summary}};
    if (!g.rules_missing.empty()) j["rules_missing"] = g.rules_missing;
    std::string s = dumped(j);
    s.front() = ',';
    return "]" + s;
}

void print(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
}

// Every game annotated and written as it is read (the file checked already).
void annotate_games(const Database& db, const AnnotateOptions& options, const DrawRules& rules,
                    const PdnInput& input, const AnnotateCommandOptions& o) {
    PdnOutput pdn(o.output, o.json);
    FILE* summaries = o.output.empty() ? stderr : stdout;
    std::string note;
    if (o.json) print("{\"variant\":" + dumped(db.variant.name()) + ",\"games\":[");
    for_each_game(input, [&](PdnReader& reader, const PdnGame& header, int number) {
        GameAnnotator game(db.tb.get(), options, header, number);
        if (o.json)
            print((number > 1 ? "," : "") + game_json_head(db.variant, rules, header, game.game()));
        PdnMove written;
        for (bool first = true; reader.next_move(written); first = false) {
            const AnnotatedMove& m = game.play(written);
            if (o.json)
                print((first ? "" : ",") + dumped(annotated_move_json(db.variant, rules, m)));
            pdn.write(game.take_pdn());
        }
        game.finish(reader.result());
        pdn.write(game.take_pdn());
        const AnnotatedGame& g = game.game();
        if (o.json) {
            print(game_json_tail(g));
        } else {
            std::fflush(stdout);
            std::fprintf(summaries, "%s\n", g.summary.c_str());
        }
        if (note.empty()) note = g.rules_missing;
    });
    pdn.close();
    if (o.json) {
        print("],\"pdn\":\"");
        pdn.print_json_string();
        print("\"}\n");
        return;
    }
    if (!note.empty()) std::fprintf(stderr, "damas: note: %s\n", note.c_str());
}

// The variant -v names, else the one the first [GameType] tag of the games names (the file's
// headers read up to that tag).
std::string variant_name(const AnnotateCommandOptions& o, const PdnInput& input) {
    if (!o.variant.empty()) return o.variant;
    const auto in = input.open();
    try {
        PdnReader reader(*in);
        PdnGame header;
        while (reader.next_game(header)) {
            const auto type = header.tag("GameType");
            if (!type) continue;
            const auto v = variant_of_game_type(*type);
            if (!v)
                throw Error("[GameType \"" + printable(*type, 40) +
                            "\"] names no variant damas has: give --variant");
            return v->name();
        }
    } catch (const PdnError& e) {
        throw Error(printable(input.path()) + ": " + e.what());
    }
    throw Error("no --variant and no [GameType] tag in " + printable(o.input) + ": give --variant");
}

void run_annotate(const AnnotateCommandOptions& o) {
    const PdnInput input(o.input);
    const Database db(variant_name(o, input), o.dir);
    const AnnotateOptions options{
        db.variant, edition_or_throw(o.edition),
        [&db](const Position& p, ProbeStatus s) { return db.describe_failure(p, s); }};
    const DrawRules rules = draw_rules(options.variant, options.edition);
    check_games(input, options);
    // Past the check only a table that fails to read stops the output: the JSON written so far
    // ends its line, and the error follows.
    try {
        annotate_games(db, options, rules, input, o);
    } catch (...) {
        if (o.json) print("\n");
        throw;
    }
}

}  // namespace

void add_annotate_commands(CLI::App& app) {
    static AnnotateCommandOptions o;
    auto* cmd = app.add_subcommand(
        "annotate",
        "PDN games with the value, DTW and rule value of every position inside the tablebase "
        "(the move-limit counts kept from the start, its [FEN] tag or the initial position), "
        "? and ?? on the moves that throw a win or a draw away, and a summary line per game");
    add_variant_option(*cmd, o.variant, false)
        ->description("Variant (" + variant_names() +
                      "); without it, the one the first [GameType] tag names");
    add_dir_option(*cmd, o.dir);
    cmd->add_option("pdn", o.input, "The PDN file (one or more games)")->required();
    cmd->add_option("--output,-o", o.output,
                    "Write the annotated PDN there (default: standard output; the summaries "
                    "then go to standard error)");
    cmd->add_option("--edition", o.edition,
                    "international move-limit rules: seed (10 moves, default) or fmjd (16)");
    cmd->add_flag("--json", o.json,
                  "Machine-readable output: every game's positions, values, marks and summary, "
                  "and the annotated PDN");
    cmd->callback([] { run_annotate(o); });
}

}  // namespace damas::cli

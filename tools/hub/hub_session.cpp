// `damas hub`'s answers (see hub_session.hpp).
#include "tools/hub/hub_session.hpp"

#include <cstdio>

#include "probe/study/annotate.hpp"
#include "probe/study/play.hpp"
#include "rules/error.hpp"
#include "rules/legal_moves.hpp"
#include "rules/notation.hpp"
#include "rules/printable.hpp"

namespace damas::hub {
namespace {

// The longest pv printed: a line to the end of the game is rarely longer.
constexpr int max_pv_plies = 400;

// Scan's score in men, with wins and losses as pydraughts reads a "mate": 100 - d/100.
std::string score_text(Value value, int plies) {
    if (value == Value::draw || value == Value::unknown) return "0.00";
    const int n = 10000 - std::min(plies, 999);
    char text[16];
    std::snprintf(text, sizeof text, "%s%d.%02d", value == Value::loss ? "-" : "", n / 100,
                  n % 100);
    return text;
}

std::string seconds_text(std::chrono::steady_clock::duration d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", std::chrono::duration<double>(d).count());
    return text;
}

// The value of the root as the game is played: under the rules when they answer.
Outcome played_value(const study::RootAnalysis& a) {
    const Outcome pure{a.root.value, a.root.plies};
    if (!a.rules || a.rules->rule.value == pure.value) return pure;
    return a.rules->rule;
}

}  // namespace

HubSession::HubSession(const Tablebase& tb, HubOptions o)
    : tb_(tb), o_(std::move(o)), variant_(o_.variant) {}

HubReply HubSession::on_gui_line(std::string_view text) {
    const HubLine l = parse_hub_line(text);
    const std::string& c = l.command;
    if (c.empty()) return {};
    if (c == "pos") return on_pos(l);
    if (c == "go") return on_go();
    if (c == "stop" || c == "ponder-hit") return on_stop_or_ponder_hit();
    if (c == "set-param") return on_set_param(l);
    if (o_.proxy) return {{}, true, c == "quit"};
    if (c == "hub") return on_hub();
    if (c == "init") return {{"ready"}, false, false};
    if (c == "ping") return {{"pong"}, false, false};
    if (c == "quit") return {{}, false, true};
    return {};  // level, new-game and what the protocol may add: nothing to do
}

void HubSession::on_engine_line(std::string_view text) {
    if (parse_hub_line(text).command == "done") engine_searching_ = false;
}

HubReply HubSession::on_hub() const {
    HubReply r;
    r.to_gui.push_back(HubLineWriter("id")
                           .arg("name", "damas")
                           .arg("version", o_.version)
                           .arg("author", "the damas authors")
                           .text());
    r.to_gui.push_back(HubLineWriter("param")
                           .arg("name", "variant")
                           .arg("value", hub_name(o_.variant))
                           .arg("type", "enum")
                           .arg("values", hub_variant_names())
                           .text());
    r.to_gui.push_back(HubLineWriter("param")
                           .arg("name", "edition")
                           .arg("value", edition_name(o_.edition))
                           .arg("type", "enum")
                           .arg("values", "seed fmjd")
                           .text());
    r.to_gui.push_back("wait");
    return r;
}

HubReply HubSession::on_set_param(const HubLine& l) {
    HubReply r;
    r.forward = o_.proxy;
    const auto name = l.get("name");
    const auto value = l.get("value");
    if (!name || !value) return r;
    if (*name == "variant") {
        variant_ = variant_of_hub_name(*value);
        game_.reset();
        if (!variant_ && !o_.proxy)
            return error("variant " + printable(*value, 40) + " is not one damas has (" +
                         hub_variant_names() + ")");
    } else if (*name == "edition" && !o_.proxy) {
        const auto e = parse_edition(*value);
        if (!e) return error("edition " + printable(*value, 40) + " is neither seed nor fmjd");
        o_.edition = *e;
    }
    return r;
}

HubReply HubSession::on_pos(const HubLine& l) {
    HubReply r;
    r.forward = o_.proxy;
    game_.reset();
    pos_problem_.clear();
    const auto position = l.get("pos");
    try {
        if (!variant_) throw Error("no variant damas has is set");
        if (!position) throw Error("pos without pos=<position>");
        game_ = replay_hub_game(*variant_, draw_rules(*variant_, o_.edition), *position,
                                l.get("moves").value_or(""));
    } catch (const std::exception& e) {
        pos_problem_ = e.what();
        if (!o_.proxy) r.to_gui.push_back(error(pos_problem_).to_gui.front());
    }
    return r;
}

HubReply HubSession::on_go() {
    const auto start = std::chrono::steady_clock::now();
    if (auto answer = tablebase_answer()) {
        for (std::string& line : *answer)
            if (line.starts_with("info "))
                line += " time=" + seconds_text(std::chrono::steady_clock::now() - start);
        return {std::move(*answer), false, false};
    }
    if (o_.proxy) {
        engine_searching_ = true;
        return {{}, true, false};
    }
    return {outside_answer(), false, false};
}

HubReply HubSession::on_stop_or_ponder_hit() {
    // Nothing runs here: damas answered at once. The engine's search is the engine's.
    return {{}, o_.proxy && engine_searching_, false};
}

std::optional<std::vector<std::string>> HubSession::tablebase_answer() const {
    if (!game_ || !variant_) return std::nullopt;
    const Variant v = *variant_;
    study::RootQuery q{draw_rules(v, o_.edition), game_->counters};
    study::RootAnalysis a = study::analyse_root(tb_, v, game_->position, q);
    if (a.root.status == ProbeStatus::unreachable_counts) {
        q.rules = {};  // counts no game reaches: the pure values still hold
        a = study::analyse_root(tb_, v, game_->position, q);
    }
    if (!a.root.ok() || a.moves.empty()) return std::nullopt;
    const study::PlayedLine line = study::played_line(tb_, v, q, a, max_pv_plies);
    std::string pv;
    for (const study::RootMove& m : line.moves) {
        if (!pv.empty()) pv += ' ';
        pv += hub_move(v, m.move);
    }
    const Outcome value = played_value(a);
    const PositionValue words{a.root, a.rules};
    std::vector<std::string> out;
    out.push_back(HubLineWriter("info")
                      .arg("depth", std::to_string(line.moves.size()))
                      .arg("score", score_text(value.value, value.plies))
                      .arg("nodes", "0")
                      .arg("pv", pv)
                      .arg("tablebase", value_comment(words, game_->position.side))
                      .text());
    HubLineWriter done("done");
    done.arg("move", hub_move(v, line.moves.front().move));
    if (line.moves.size() > 1) done.arg("ponder", hub_move(v, line.moves[1].move));
    out.push_back(done.text());
    return out;
}

std::vector<std::string> HubSession::outside_answer() const {
    if (!game_ || !variant_) {
        std::vector<std::string> out =
            error(pos_problem_.empty() ? "go without a position"
                                       : "go without a position: " + pos_problem_)
                .to_gui;
        out.push_back("done");
        return out;
    }
    MoveList moves;
    generate_legal_moves(*variant_, game_->position, moves);
    sort_by_square(variant_->info(), moves);
    std::vector<std::string> out{
        HubLineWriter("info").arg("tablebase", "outside the tablebase").text()};
    out.push_back(moves.empty()
                      ? "done"
                      : HubLineWriter("done").arg("move", hub_move(*variant_, moves[0])).text());
    return out;
}

HubReply HubSession::error(const std::string& message) const {
    return {{HubLineWriter("error").arg("message", message).text()}, false, false};
}

}  // namespace damas::hub

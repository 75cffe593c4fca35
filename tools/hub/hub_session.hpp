// `damas hub`: the engine side of the Hub protocol (Scan 3.1's protocol.txt) for one GUI, alone
// or as a proxy in front of another Hub engine.
//
// Owns: what each GUI command does. Alone it answers everything itself: hub (id, the params
// variant and edition, wait), set-param, init (ready), pos, level (noted, unused: the tablebase
// answers at once), go think|ponder|analyze (info then done), stop and ponder-hit (nothing to
// stop: the answer came at once), ping (pong), new-game, quit; other commands are ignored, as
// the protocol asks. As a proxy every command goes on to the wrapped engine, and the engine's
// lines come back unchanged, except `go` in a position inside the tablebase: damas answers it
// and the engine never sees it (nor the stop or ponder-hit that may follow).
//
// Inside the tablebase the move played is the best under the move-limit rules with the counts
// of the game's moves (probe/study/play.hpp), and the info line gives
//   depth   the length of the line given as pv
//   score   in men, as Scan writes it; a win in d plies (the DTW, or under the rules the dtr when
//           the rules change the value) is 100 - d/100, a loss -(100 - d/100), so that a reader
//           such as pydraughts sees a "mate" in d plies; a draw (also one the rules make) 0
//   time    seconds, nodes 0
//   pv      the line both sides play from here, the winner's win shortest
//   tablebase  the value in words ("White wins, dtw 21, dtr 9; ...")
// Outside the tablebase (alone) it plays the first legal move and says so:
// `info tablebase="outside the tablebase"`.
// Bad input never stops it: a `pos` it cannot read is answered `error message="..."` (alone),
// and a `go` with no position it can play from with `error message=...` then `done`.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "limits/draw_rules.hpp"
#include "probe/probe.hpp"
#include "tools/hub/hub_game.hpp"
#include "tools/hub/hub_protocol.hpp"

namespace damas::hub {

struct HubOptions {
    Variant variant{BaseVariant::international, false};  // until set-param name=variant
    Edition edition = Edition::seed;
    std::string version;  // for `id`
    bool proxy = false;
};

// What one line from the GUI asks for.
struct HubReply {
    std::vector<std::string> to_gui;  // lines to print, in order
    bool forward = false;             // proxy: send the GUI's line on to the engine
    bool quit = false;                // end after printing
};

class HubSession {
  public:
    HubSession(const Tablebase& tb, HubOptions o);

    HubReply on_gui_line(std::string_view line);
    // Proxy: a line the engine printed (it is printed unchanged); notes the end of its search.
    void on_engine_line(std::string_view line);

  private:
    HubReply on_hub() const;
    HubReply on_set_param(const HubLine& l);
    HubReply on_pos(const HubLine& l);
    HubReply on_go();
    HubReply on_stop_or_ponder_hit();
    // The answer inside the tablebase (info and done), or nullopt outside.
    std::optional<std::vector<std::string>> tablebase_answer() const;
    std::vector<std::string> outside_answer() const;
    HubReply error(const std::string& message) const;

    const Tablebase& tb_;
    HubOptions o_;
    std::optional<Variant> variant_;  // nullopt: a variant damas does not have
    std::optional<HubGame> game_;     // the last `pos` read, if it could be
    std::string pos_problem_;         // why it could not
    bool engine_searching_ = false;   // proxy: a go was forwarded and its done not seen yet
};

}  // namespace damas::hub

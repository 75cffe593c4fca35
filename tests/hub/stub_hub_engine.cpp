// A stub Hub engine for the proxy's tests: it answers the handshake, ping and go (its move is
// always "stub", so a test tells its answers from damas's), says `seen command=X` for every
// other line it reads (so a test knows what the proxy passed on), and ends on quit, on the end
// of its input, or at once with code 3 on `die` (an engine that crashes).
#include <cstdio>
#include <iostream>
#include <string>

namespace {

void say(const std::string& line) {
    std::cout << line << '\n' << std::flush;
}

}  // namespace

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        const std::string command = line.substr(0, line.find(' '));
        if (command == "hub") {
            say("id name=stub version=1");
            say("param name=variant value=normal type=enum values=\"normal killer\"");
            say("wait");
        } else if (command == "init") {
            say("ready");
        } else if (command == "ping") {
            say("pong");
        } else if (command == "go") {
            say("info depth=1 score=0.12 pv=stub");
            say("done move=stub");
        } else if (command == "die") {
            std::_Exit(3);
        } else if (command == "quit") {
            return 0;
        } else {
            say("seen command=" + command);
        }
    }
    return 0;
}

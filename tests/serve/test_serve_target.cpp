// Reading request targets (tools/serve/target.hpp): the UTF-8 check against nlohmann::json's
// own (which refuses to write text that is not UTF-8) on every byte, every pair that starts with
// a lead byte, and random sequences of 3 to 5 bytes; the decoding of paths and queries; the
// escaping of log lines.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "tools/serve/target.hpp"

namespace damas::cli {
namespace {

bool json_accepts(const std::string& s) {
    try {
        (void)nlohmann::json(s).dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

TEST(ServeTarget, Utf8CheckAgreesWithTheJsonLibrary) {
    for (int a = 0; a < 256; ++a) {
        const std::string one(1, static_cast<char>(a));
        ASSERT_EQ(is_utf8(one), json_accepts(one)) << a;
        for (int b = 0; b < 256 && a >= 0xc0; ++b) {
            const std::string two{static_cast<char>(a), static_cast<char>(b)};
            ASSERT_EQ(is_utf8(two), json_accepts(two)) << a << " " << b;
        }
    }
    std::mt19937 rng(44);
    int valid = 0;
    for (int i = 0; i < 30000; ++i) {
        std::string s(3 + rng() % 3, '\0');
        // Lead bytes from 0xc0 up, continuation bytes near 0x80-0xbf, so that both answers occur.
        s[0] = static_cast<char>(0xc0 + rng() % 64);
        for (std::size_t k = 1; k < s.size(); ++k)
            s[k] = static_cast<char>(rng() % 8 ? 0x80 + rng() % 64 : rng() % 256);
        ASSERT_EQ(is_utf8(s), json_accepts(s)) << i;
        valid += is_utf8(s);
    }
    EXPECT_GT(valid, 1500);
}

TEST(ServeTarget, DecodesPathAndQuery) {
    std::string problem;
    const auto t =
        decode_target("/api/v1/%c3%a9?fen=W%3AW21%3AB9&move=a+b&flag&&x=%2B#frag", problem);
    ASSERT_TRUE(t) << problem;
    EXPECT_EQ(t->path, "/api/v1/\xc3\xa9");
    const QueryParams expected{{"fen", "W:W21:B9"}, {"move", "a b"}, {"flag", ""}, {"x", "+"}};
    EXPECT_EQ(t->query, expected);
    for (const char* bad : {"", "api", "/%", "/%4", "/%zz", "/?a=%ff", "/%ff", "/?%c0%af=1",
                            "/%ed%a0%80", "/%f4%90%80%80"}) {
        problem.clear();
        EXPECT_FALSE(decode_target(bad, problem)) << bad;
        EXPECT_FALSE(problem.empty()) << bad;
    }
}

TEST(ServeTarget, LogTextIsPrintableAscii) {
    EXPECT_EQ(escape_for_log("/a b?c=%1b"), "/a b?c=%1b");
    EXPECT_EQ(escape_for_log("/\x1b[2J\r\nforged\\\xff"), "/\\x1b[2J\\x0d\\x0aforged\\x5c\\xff");
    // Appended, not concatenated: GCC 12 warns of a false overflow in std::string(n, c) + "...".
    std::string cut(300, 'a');
    cut += "...";
    EXPECT_EQ(escape_for_log(std::string(400, 'a'), 300), cut);
}

}  // namespace
}  // namespace damas::cli

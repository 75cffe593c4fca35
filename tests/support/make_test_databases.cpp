// The ctest fixture test_databases: the databases several tests read (test::shared_database),
// made once before them.
#include <cstdio>
#include <exception>

#include "tests/support/generate.hpp"

int main() {
    try {
        damas::test::make_shared_databases();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_test_databases: %s\n", e.what());
        return 1;
    }
    return 0;
}

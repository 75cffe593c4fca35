// The one exception type of the library: a message meant for the user, naming the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace damas {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace damas

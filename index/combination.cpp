#include "index/combination.hpp"

namespace damas::colex_detail {

constexpr StartTable start_table{};

}  // namespace damas::colex_detail

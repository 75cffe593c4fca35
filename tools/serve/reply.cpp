// The explorer's error answers (see reply.hpp).
#include "tools/serve/reply.hpp"

#include <nlohmann/json.hpp>

namespace damas::cli {

ApiReply error_reply(int status, std::string_view message) {
    const nlohmann::json body{{"error", message}};
    return {status,
            body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
            "application/json",
            {},
            {}};
}

}  // namespace damas::cli

// The version the command line gives. DAMAS_VERSION_TEXT is defined for this source alone
// (tools/CMakeLists.txt, read at configure time), so that the other sources of damas are compiled
// as one (a source with definitions of its own is left out of a unity build).
#include "tools/cli/commands.hpp"

namespace damas::cli {

const char* version_text() {
    return DAMAS_VERSION_TEXT;
}

}  // namespace damas::cli

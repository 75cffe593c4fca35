#include "gen/solve/slice_output.hpp"

#include <utility>

#include "gen/process/huge_pages.hpp"

namespace damas::solving {

void SliceOutput::hold(int slice, std::uint64_t positions) {
    values_.slice = slice;
    values_.outcomes = huge_vector<std::uint16_t>(positions);
    values_.capture.assign(positions, 0);
}

void SliceOutput::put_configuration(std::uint64_t local, std::span<const State> states,
                                    ConfigurationValues& buffer) {
    const std::size_t k = states.size();
    if (!stream_) {
        for (std::size_t i = 0; i < k; ++i) put(local + i, states[i]);
        return;
    }
    buffer.outcomes.resize(k);
    buffer.capture.resize(k);
    for (std::size_t i = 0; i < k; ++i) result_of(states[i], buffer.outcomes[i], buffer.capture[i]);
    stream_->put(local, buffer.outcomes, buffer.capture);
}

void SliceOutput::close_stream() {
    stream_->close();
    stream_.reset();
}

SliceValues SliceOutput::take_values() {
    SliceValues out = std::move(values_);
    values_ = {};
    return out;
}

}  // namespace damas::solving

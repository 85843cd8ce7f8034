#pragma once
// What a task of the execution graph does and on which of its device's streams it runs: the compiler makes tasks,
// the engine runs them, the analysis and the views read them (colours, lanes, names), so the words live below all.

#include "common/enum_names.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace parasight {

// Proteus' executor queues: compute, feature communication, gradient communication.
enum class Stream : std::uint8_t { compute, feature_comm, gradient_comm };
inline constexpr std::size_t stream_count = 3;
extern const std::array<EnumName<Stream>, 3> stream_names;

enum class TaskKind : std::uint8_t {
    forward,
    backward,
    // A weight-gradient pass deferred from its backward to fill the pipeline's idle slots (ZB-H1's W; Qi et al. 2024):
    // computation, drawn and named apart from the backward's input gradients (B).
    weight_gradient,
    recompute,
    optimizer,
    tp_comm,
    cp_comm,
    ep_comm,
    pp_comm,
    dp_comm,
    // What-if (scenario/what_if.h): time added on a communication's stream just before it, which its members meet as
    // they meet the communication, so that it takes that much longer once all have reached it (NeuronaBox's delay).
    // It holds the stream, neither compute units nor links.
    injected_delay,
};
inline constexpr std::size_t task_kind_count = 11;
extern const std::array<EnumName<TaskKind>, task_kind_count> task_kind_names;

[[nodiscard]] constexpr bool is_communication(TaskKind kind) noexcept {
    return kind == TaskKind::tp_comm || kind == TaskKind::cp_comm || kind == TaskKind::ep_comm ||
           kind == TaskKind::pp_comm || kind == TaskKind::dp_comm;
}

}  // namespace parasight

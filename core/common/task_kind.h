#pragma once
// What a task of the execution graph does and on which of its device's streams it runs: the compiler makes tasks,
// the engine runs them, the analysis and the views read them (colours, lanes, names), so the words live below all.

#include "common/enum_names.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace parasight {

// Proteus' executor queues: compute, feature communication, gradient communication; and two memory streams, which
// move tensors between the device and memory beyond it (ASTRA-sim 2.0's memory nodes), one a direction: loads in,
// stores out. The links they cross carry both directions at once (PCIe to host memory, the pool's links), so a
// store does not hold up the next load.
enum class Stream : std::uint8_t { compute, feature_comm, gradient_comm, memory_in, memory_out };
inline constexpr std::size_t stream_count = 5;
extern const std::array<EnumName<Stream>, stream_count> stream_names;

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
    // Tensors brought into the device's memory from memory beyond it (host memory, NVMe, a memory pool) before they
    // are used, and written back after they are updated (ZeRO-Offload, ZeRO-Infinity, ASTRA-sim 2.0's remote memory).
    memory_load,
    memory_store,
    // The optimizer step run by the host's CPUs over states kept in host memory (ZeRO-Offload's CPU-Adam, Ren et al.
    // 2021 §4.2): it holds neither the device's compute units nor its links, and the device waits on it as it waits
    // on a load from beyond it.
    host_optimizer,
};
inline constexpr std::size_t task_kind_count = 14;
extern const std::array<EnumName<TaskKind>, task_kind_count> task_kind_names;

[[nodiscard]] constexpr bool is_communication(TaskKind kind) noexcept {
    return kind == TaskKind::tp_comm || kind == TaskKind::cp_comm || kind == TaskKind::ep_comm ||
           kind == TaskKind::pp_comm || kind == TaskKind::dp_comm;
}

// Work on memory beyond the device — loads and stores of offloaded states, the host's optimizer step over them — which
// the device waits on (exposed remote memory) when nothing it runs hides it.
[[nodiscard]] constexpr bool is_remote_memory_work(TaskKind kind) noexcept {
    return kind == TaskKind::memory_load || kind == TaskKind::memory_store || kind == TaskKind::host_optimizer;
}

}  // namespace parasight

#pragma once
// A thing in a scenario or its run that the window can bring into view: what the Problems panel, the links between
// views and the lessons point at — a tab, a scenario field, a strategy-tree node, an NPU or one of its groups on the
// topology, a device's row in a result view, the timeline's events matching a search or a stretch of time, a memory
// category, a strategy of the ParaDL oracle at a PE count. A value, written as text where files name one (docs/gui.md, "Targets"):
//
//   tab:timeline              field:training.global_batch      node:stage[2]          npu:5
//   group:tp@5                device:5@breakdown                events:layer 3 backward
//   time:1 ms..2.5 ms         memory:activations               oracle:data+filter@64
//
// Each view reveals the targets it shows (`reveal`); the window sends each target to its view.

#include "common/enum_names.h"
#include "common/expected.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace parasight {

enum class TargetKind : std::uint8_t {
    tab,              // name: a tab of the window (target_tab_names)
    field,            // name: a scenario path, "training.global_batch", "cluster.topology[1].bandwidth"
    strategy_node,    // name: a strategy-tree node, "stage[2]", "layer[5].mlp" (strategy/node_path.h)
    npu,              // npu: an NPU of the topology
    group,            // name: a parallel group (tp, cp, ep, pp, dp); npu: an NPU in it
    device,           // npu: a device's row; name: the view it is in (timeline, breakdown or memory)
    events,           // name: a timeline search ("layer 3 backward", "all-reduce")
    time_range,       // from_s, to_s: a stretch of the iteration
    memory_category,  // name: weights, gradients, optimizer, activations or buffers
    oracle_strategy,  // name: a ParaDL strategy (oracle/paradl_oracle.h); pes: at that many PEs
};
inline constexpr std::array<EnumName<TargetKind>, 10> target_kind_names{{{TargetKind::tab, "tab"},
                                                                        {TargetKind::field, "field"},
                                                                        {TargetKind::strategy_node, "node"},
                                                                        {TargetKind::npu, "npu"},
                                                                        {TargetKind::group, "group"},
                                                                        {TargetKind::device, "device"},
                                                                        {TargetKind::events, "events"},
                                                                        {TargetKind::time_range, "time"},
                                                                        {TargetKind::memory_category, "memory"},
                                                                        {TargetKind::oracle_strategy, "oracle"}}};

// The window's tabs, as targets and `parasight --tab` name them.
[[nodiscard]] std::span<const std::string_view> target_tab_names() noexcept;
// The views that show a row per device.
[[nodiscard]] std::span<const std::string_view> device_row_views() noexcept;

struct Target {
    TargetKind kind = TargetKind::tab;
    std::string name;
    std::int64_t npu = -1;
    double from_s = 0.0;
    double to_s = 0.0;
    std::int64_t pes = -1;  // oracle_strategy: the PE count

    friend bool operator==(const Target&, const Target&) = default;
};

// The target `text` names, or what is wrong with it (an unknown kind or name with a did-you-mean, a missing part).
[[nodiscard]] Expected<Target> parse_target(std::string_view text);
// The text parse_target reads back as the same target.
[[nodiscard]] std::string target_text(const Target& target);

}  // namespace parasight

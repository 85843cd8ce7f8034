#pragma once
// One dimension of a multi-dimensional network (ASTRA-sim 2.0 §III-A): k NPUs joined as a ring, fully connected, or
// through a switch. Topologies stack dimensions, innermost first.

#include "common/enum_names.h"

#include <optional>
#include <string_view>

namespace parasight {

enum class DimensionKind { ring, fully_connected, switch_fabric };

// The per-dimension collective algorithm (ASTRA-sim 2.0 Table "topology-aware collectives", NCCL's tree). `nccl` is not
// an algorithm of its own: it picks among the ring, the tree and in-switch reduction per operation, size and member
// count as NCCL's tuning model does (collective/nccl_choice.cpp); a phase reports the algorithm it picked.
enum class CollectiveAlgorithm { ring, direct, halving_doubling, double_binary_tree, in_switch, nccl };

// NCCL's protocols (src/graph/tuning.cc): Simple for large buffers; LL128 and LL trade bandwidth for latency.
enum class CollectiveProtocol { simple, ll128, ll };

// How a collective on a group spanning several dimensions is built (docs/collectives.md): `hierarchical` runs one
// phase per dimension with the data shrinking on the way (ASTRA-sim 2.0 §II-C); `flat_ring` is one ring through every
// member, its channels spread over every NPU's links, as NCCL runs a ring across nodes.
enum class MultiDimensionCollectives { hierarchical, flat_ring };

struct Dimension {
    DimensionKind kind = DimensionKind::switch_fabric;
    int size = 1;
    double bandwidth_Bps = 0.0;  // what one NPU injects into this dimension, per direction (the line rate)
    double latency_s = 0.0;      // per hop
    std::optional<CollectiveAlgorithm> algorithm;  // unset: the kind's natural algorithm
    // The fraction of bandwidth_Bps a collective's or a send's data reaches (protocol headers, flow control, the
    // library's copies): nccl-tests' bus bandwidth over the line rate.
    double efficiency = 1.0;
    // The fraction an in-switch reduction reaches (NVLink SHARP runs below the ring's efficiency); unset: efficiency.
    std::optional<double> in_switch_efficiency;
    double step_latency_s = 0.0;  // software latency every algorithm step adds (NCCL's per-step cost), besides hops
    // Whether the switch can reduce (NVLink SHARP on an NVSwitch of the third generation, SHARP on InfiniBand): the
    // `nccl` choice then considers in-switch reduction too.
    bool in_switch_reduction = false;

    friend bool operator==(const Dimension&, const Dimension&) = default;
};

// bandwidth_Bps × efficiency: what a collective's data moves at.
[[nodiscard]] double achievable_bandwidth_Bps(const Dimension& dimension) noexcept;
// One algorithm step `hops` links long: hops × latency + step_latency.
[[nodiscard]] double step_latency_s(const Dimension& dimension, int hops) noexcept;

// ring -> ring, fully_connected -> direct, switch -> nccl.
[[nodiscard]] CollectiveAlgorithm default_algorithm(DimensionKind kind) noexcept;
[[nodiscard]] CollectiveAlgorithm effective_algorithm(const Dimension& dimension) noexcept;
// Whether `algorithm` can run on a dimension of `kind` without relaying through other NPUs: a ring only runs the ring
// algorithm (and so has no choice for `nccl` to make); in-switch reduction needs a switch.
[[nodiscard]] bool algorithm_fits(CollectiveAlgorithm algorithm, DimensionKind kind) noexcept;

// Scenario spellings.
extern const std::array<EnumName<DimensionKind>, 3> dimension_kind_names;
extern const std::array<EnumName<CollectiveAlgorithm>, 6> collective_algorithm_names;
extern const std::array<EnumName<CollectiveProtocol>, 3> collective_protocol_names;
extern const std::array<EnumName<MultiDimensionCollectives>, 2> multi_dimension_collectives_names;
[[nodiscard]] std::string_view to_string(DimensionKind kind) noexcept;
[[nodiscard]] std::string_view to_string(CollectiveAlgorithm algorithm) noexcept;
[[nodiscard]] std::string_view to_string(CollectiveProtocol protocol) noexcept;
[[nodiscard]] std::string_view to_string(MultiDimensionCollectives collectives) noexcept;

}  // namespace parasight

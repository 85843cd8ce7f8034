#pragma once
// One dimension of a multi-dimensional network (ASTRA-sim 2.0 §III-A): k NPUs joined as a ring, fully connected, or
// through a switch. Topologies stack dimensions, innermost first.

#include "common/enum_names.h"

#include <optional>
#include <string_view>

namespace parasight {

enum class DimensionKind { ring, fully_connected, switch_fabric };

// The per-dimension collective algorithm (ASTRA-sim 2.0 Table "topology-aware collectives", NCCL's tree).
enum class CollectiveAlgorithm { ring, direct, halving_doubling, double_binary_tree, in_switch };

struct Dimension {
    DimensionKind kind = DimensionKind::switch_fabric;
    int size = 1;
    double bandwidth_Bps = 0.0;  // what one NPU injects into this dimension, per direction
    double latency_s = 0.0;      // per hop
    std::optional<CollectiveAlgorithm> algorithm;  // unset: the kind's natural algorithm

    friend bool operator==(const Dimension&, const Dimension&) = default;
};

// ring -> ring, fully_connected -> direct, switch -> halving_doubling.
[[nodiscard]] CollectiveAlgorithm default_algorithm(DimensionKind kind) noexcept;
[[nodiscard]] CollectiveAlgorithm effective_algorithm(const Dimension& dimension) noexcept;
// Whether `algorithm` can run on a dimension of `kind` without relaying through other NPUs: a ring only runs the ring
// algorithm; in-switch reduction needs a switch.
[[nodiscard]] bool algorithm_fits(CollectiveAlgorithm algorithm, DimensionKind kind) noexcept;

// Scenario spellings.
extern const std::array<EnumName<DimensionKind>, 3> dimension_kind_names;
extern const std::array<EnumName<CollectiveAlgorithm>, 5> collective_algorithm_names;
[[nodiscard]] std::string_view to_string(DimensionKind kind) noexcept;
[[nodiscard]] std::string_view to_string(CollectiveAlgorithm algorithm) noexcept;

}  // namespace parasight

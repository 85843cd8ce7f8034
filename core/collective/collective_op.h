#pragma once
// The collective operations and how NCCL tests turn a time into bandwidths.

#include "common/enum_names.h"

namespace parasight {

enum class CollectiveOp { all_reduce, reduce_scatter, all_gather, all_to_all, broadcast };
extern const std::array<EnumName<CollectiveOp>, 5> collective_op_names;  // "all-reduce", "all-gather", …
[[nodiscard]] std::string_view to_string(CollectiveOp op) noexcept;

// busbw / algbw, as NCCL tests define it (nccl-tests doc/PERFORMANCE.md): all-reduce 2(n−1)/n; reduce-scatter,
// all-gather and all-to-all (n−1)/n; broadcast 1. It makes busbw comparable with the link bandwidth whatever n is.
[[nodiscard]] double bus_bandwidth_factor(CollectiveOp op, long long ranks) noexcept;

}  // namespace parasight

#pragma once
// One axis of a design-space sweep as a user writes it (`--axis PATH=VALUES`, or an entry of a scenario's `sweep:`
// section): the scenario path it varies and the values it takes, each as a scenario file would write it, so that
// every point is read and checked by the same loader as a file (units, limits, did-you-mean). VALUES is
// - a list: `1,2,4,8`, `1f1b,gpipe`, `100 GB/s, 200 GB/s`;
// - a geometric range: `1..64 x2` (1, 2, 4, …, 64: each value the one before times the factor, up to the end);
// - an arithmetic range: `100..400 GB/s +50 GB/s` (100, 150, …, 400 GB/s), the unit written after the end standing
//   for both ends, the step with its own unit of the same kind (`+500 MB/s` is fine); the step may follow the end
//   without a space (`0..10ms+0.5ms`).
// A range's values stop at the last one not past its end and are written in the range's unit.

#include "common/expected.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct SweepAxis {
    std::string path;                 // "parallelism.tp", "cluster.topology[1].bandwidth"
    std::vector<std::string> values;  // as a scenario file writes them: "4", "150 GB/s"
    // Zipped: this axis takes its k-th value together with the axis before it instead of multiplying the points
    // (`full,selective` for recompute with `false,true` for sequence parallelism: two points, not four).
    bool zipped_with_previous = false;

    friend bool operator==(const SweepAxis&, const SweepAxis&) = default;
};

// The most values one axis may take.
inline constexpr std::size_t max_axis_values = 100'000;

// `spec` is PATH=VALUES; the error says what is wrong with it in words a user acts on.
[[nodiscard]] Expected<SweepAxis> parse_sweep_axis(std::string_view spec);

// One axis, or axes zipped together: PATH=VALUES & PATH=VALUES & … (each with as many values).
[[nodiscard]] Expected<std::vector<SweepAxis>> parse_sweep_axes(std::string_view spec);

// The values VALUES stands for (the part after '=').
[[nodiscard]] Expected<std::vector<std::string>> parse_axis_values(std::string_view text);

}  // namespace parasight

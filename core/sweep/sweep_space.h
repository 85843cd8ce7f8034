#pragma once
// The points of a sweep: every combination of its axes' values, numbered in a fixed order — the last axis varies
// fastest, like nested loops written in the axes' order — so that point k is the same point however many threads
// or shards run the sweep, and a point is decoded from its number without listing the others.

#include "common/expected.h"
#include "sweep/sweep_axis.h"
#include "sweep/sweep_point.h"

#include <cstddef>
#include <vector>

namespace parasight {

// The most points one sweep may have.
inline constexpr std::size_t max_sweep_points = 10'000'000;

class SweepSpace {
public:
    // Refused: no axis, an axis with no value, two axes on one path, a zipped axis with another number of values
    // than the one it is zipped with (or with none before it), more than max_sweep_points points.
    [[nodiscard]] static Expected<SweepSpace> of(std::vector<SweepAxis> axes);

    [[nodiscard]] const std::vector<SweepAxis>& axes() const noexcept { return axes_; }
    [[nodiscard]] std::size_t point_count() const noexcept { return point_count_; }
    // Point `index` (below point_count()): a value of each axis, in the axes' order.
    [[nodiscard]] std::vector<AxisValue> point(std::size_t index) const;

private:
    explicit SweepSpace(std::vector<SweepAxis> axes, std::size_t point_count)
        : axes_(std::move(axes)), point_count_(point_count) {}

    std::vector<SweepAxis> axes_;
    std::size_t point_count_ = 0;
};

}  // namespace parasight

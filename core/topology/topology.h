#pragma once
// A multi-dimensional network: dimensions innermost first (ASTRA-sim 2.0 §III-A). NPU ids enumerate coordinates
// with dimension 0 varying fastest, so id = Σ coordinate[d] · place_value(d).

#include "topology/dimension.h"

#include <cstdint>
#include <span>
#include <vector>

namespace parasight {

class Topology {
public:
    Topology() = default;
    // Every size must be at least 1 (the scenario loader says so with a location before it gets here).
    explicit Topology(std::vector<Dimension> dimensions);

    [[nodiscard]] const std::vector<Dimension>& dimensions() const noexcept { return dimensions_; }
    [[nodiscard]] std::size_t dimension_count() const noexcept { return dimensions_.size(); }
    [[nodiscard]] std::int64_t device_count() const noexcept { return device_count_; }
    // Product of the sizes of the dimensions inside `dimension`: the id distance between neighbours along it.
    [[nodiscard]] std::int64_t place_value(std::size_t dimension) const { return place_values_.at(dimension); }

    [[nodiscard]] std::vector<int> coordinates(std::int64_t npu) const;
    [[nodiscard]] int coordinate(std::int64_t npu, std::size_t dimension) const;
    [[nodiscard]] std::int64_t npu_id(std::span<const int> coordinates) const;

    friend bool operator==(const Topology& a, const Topology& b) { return a.dimensions_ == b.dimensions_; }

private:
    std::vector<Dimension> dimensions_;
    std::vector<std::int64_t> place_values_;
    std::int64_t device_count_ = 1;
};

}  // namespace parasight

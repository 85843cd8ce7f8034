#pragma once
// Parallel axes (tp, cp, ep, dp, pp) laid onto NPU ids in `mapping` order, innermost first. An axis laid after axes of
// total degree S with degree D puts consecutive members of a group S ids apart, so each group covers whole topology
// dimensions or an evenly strided part of one.

#include "common/enum_names.h"
#include "common/expected.h"
#include "topology/topology.h"

#include <cstdint>
#include <span>
#include <vector>

namespace parasight {

enum class ParallelAxis { tp, cp, ep, dp, pp };
extern const std::array<EnumName<ParallelAxis>, 5> parallel_axis_names;
[[nodiscard]] std::string_view to_string(ParallelAxis axis) noexcept;

struct AxisDegree {
    ParallelAxis axis = ParallelAxis::tp;
    int degree = 1;

    friend bool operator==(const AxisDegree&, const AxisDegree&) = default;
};

// The part of one topology dimension that a group spans: its members differ along `dimension` at coordinates
// c, c + stride, …, c + (members - 1) · stride.
struct DimensionSpan {
    std::size_t dimension = 0;
    int stride = 1;
    int members = 1;

    friend bool operator==(const DimensionSpan&, const DimensionSpan&) = default;
};

class ParallelLayout {
public:
    // `mapping` lists every axis in layout order, innermost first. The degrees must multiply to the device count and
    // cut no dimension unevenly; otherwise the error says which axis and dimension disagree.
    [[nodiscard]] static Expected<ParallelLayout> make(const Topology& topology, std::vector<AxisDegree> mapping);

    [[nodiscard]] int degree(ParallelAxis axis) const noexcept;
    // Id distance between consecutive members of a group on `axis`.
    [[nodiscard]] std::int64_t id_stride(ParallelAxis axis) const noexcept;
    [[nodiscard]] int rank_in_group(ParallelAxis axis, std::int64_t npu) const;
    // Members of `npu`'s group on `axis`, by rank.
    [[nodiscard]] std::vector<std::int64_t> group_members(ParallelAxis axis, std::int64_t npu) const;
    // The topology dimensions every group on `axis` spans, innermost first (empty for a degree-1 axis).
    [[nodiscard]] std::vector<DimensionSpan> spans(ParallelAxis axis) const;
    // The same for the group that varies along several axes at once (e.g. dp × ep): per dimension the members
    // multiply and the smaller stride is kept.
    [[nodiscard]] std::vector<DimensionSpan> spans(std::span<const ParallelAxis> axes) const;
    // The first member (lowest id) of `npu`'s group along `axes`.
    [[nodiscard]] std::int64_t group_first_member(std::span<const ParallelAxis> axes, std::int64_t npu) const;

    [[nodiscard]] const std::vector<AxisDegree>& mapping() const noexcept { return mapping_; }
    [[nodiscard]] const Topology& topology() const noexcept { return topology_; }

private:
    ParallelLayout(Topology topology, std::vector<AxisDegree> mapping);
    [[nodiscard]] const AxisDegree* find(ParallelAxis axis) const noexcept;

    Topology topology_;
    std::vector<AxisDegree> mapping_;
};

}  // namespace parasight

#include "topology/parallel_layout.h"

#include "common/message_text.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace parasight {

const std::array<EnumName<ParallelAxis>, 5> parallel_axis_names{{
    {ParallelAxis::tp, "tp"},
    {ParallelAxis::cp, "cp"},
    {ParallelAxis::ep, "ep"},
    {ParallelAxis::dp, "dp"},
    {ParallelAxis::pp, "pp"},
}};

std::string_view to_string(ParallelAxis axis) noexcept { return name_of(axis, parallel_axis_names); }

ParallelLayout::ParallelLayout(Topology topology, std::vector<AxisDegree> mapping)
    : topology_(std::move(topology)), mapping_(std::move(mapping)) {}

Expected<ParallelLayout> ParallelLayout::make(const Topology& topology, std::vector<AxisDegree> mapping) {
    std::int64_t product = 1;
    for (const AxisDegree& entry : mapping) {
        if (entry.degree < 1) {
            return Error{std::string(to_string(entry.axis)) + " must be at least 1, not " + std::to_string(entry.degree)};
        }
        product *= entry.degree;
    }
    if (product != topology.device_count()) {
        return Error{"the parallel degrees multiply to " + std::to_string(product) + " but the topology has " +
                     count_phrase(topology.device_count(), "device")};
    }
    // Both the axes and the dimensions split the id space in mixed radix. Groups are regular exactly when the two
    // sets of place values form one chain under divisibility: every boundary divides the next one up.
    std::int64_t axis_place = 1;
    for (const AxisDegree& entry : mapping) {
        const std::int64_t axis_end = axis_place * entry.degree;
        for (std::size_t d = 0; d < topology.dimension_count(); ++d) {
            const std::int64_t dim_place = topology.place_value(d);
            const std::int64_t dim_end = dim_place * topology.dimensions()[d].size;
            const std::int64_t low = std::max(axis_place, dim_place);
            const std::int64_t high = std::min(axis_end, dim_end);
            if (low >= high || entry.degree == 1) continue;
            if (low % std::min(axis_place, dim_place) != 0 || high % low != 0 ||
                std::max(axis_end, dim_end) % high != 0) {
                return Error{std::string(to_string(entry.axis)) + "=" + std::to_string(entry.degree) +
                             " cuts topology dimension " + std::to_string(d) + " (size " +
                             std::to_string(topology.dimensions()[d].size) +
                             ") unevenly: laid out in mapping order, a group must cover whole dimensions or an "
                             "evenly strided part of one"};
            }
        }
        axis_place = axis_end;
    }
    return ParallelLayout(topology, std::move(mapping));
}

const AxisDegree* ParallelLayout::find(ParallelAxis axis) const noexcept {
    const auto it = std::find_if(mapping_.begin(), mapping_.end(), [axis](const AxisDegree& e) { return e.axis == axis; });
    return it == mapping_.end() ? nullptr : &*it;
}

int ParallelLayout::degree(ParallelAxis axis) const noexcept {
    const AxisDegree* entry = find(axis);
    return entry == nullptr ? 1 : entry->degree;
}

std::int64_t ParallelLayout::id_stride(ParallelAxis axis) const noexcept {
    std::int64_t stride = 1;
    for (const AxisDegree& entry : mapping_) {
        if (entry.axis == axis) return stride;
        stride *= entry.degree;
    }
    return stride;
}

int ParallelLayout::rank_in_group(ParallelAxis axis, std::int64_t npu) const {
    if (npu < 0 || npu >= topology_.device_count()) throw std::out_of_range("NPU id outside the topology");
    return static_cast<int>((npu / id_stride(axis)) % degree(axis));
}

std::vector<std::int64_t> ParallelLayout::group_members(ParallelAxis axis, std::int64_t npu) const {
    const std::int64_t stride = id_stride(axis);
    const std::int64_t first = npu - rank_in_group(axis, npu) * stride;
    std::vector<std::int64_t> members(static_cast<std::size_t>(degree(axis)));
    for (std::size_t k = 0; k < members.size(); ++k) members[k] = first + static_cast<std::int64_t>(k) * stride;
    return members;
}

std::vector<DimensionSpan> ParallelLayout::spans(ParallelAxis axis) const {
    std::vector<DimensionSpan> result;
    if (degree(axis) == 1) return result;
    const std::int64_t axis_place = id_stride(axis);
    const std::int64_t axis_end = axis_place * degree(axis);
    for (std::size_t d = 0; d < topology_.dimension_count(); ++d) {
        const std::int64_t dim_place = topology_.place_value(d);
        const std::int64_t dim_end = dim_place * topology_.dimensions()[d].size;
        const std::int64_t low = std::max(axis_place, dim_place);
        const std::int64_t high = std::min(axis_end, dim_end);
        if (low >= high) continue;
        result.push_back(DimensionSpan{d, static_cast<int>(low / dim_place), static_cast<int>(high / low)});
    }
    return result;
}

std::vector<DimensionSpan> ParallelLayout::spans(std::span<const ParallelAxis> axes) const {
    std::vector<DimensionSpan> merged;
    for (const ParallelAxis axis : axes) {
        for (const DimensionSpan& span : spans(axis)) {
            const auto same = std::find_if(merged.begin(), merged.end(),
                                           [&](const DimensionSpan& m) { return m.dimension == span.dimension; });
            if (same == merged.end()) {
                merged.push_back(span);
            } else {
                same->members *= span.members;
                same->stride = std::min(same->stride, span.stride);
            }
        }
    }
    std::sort(merged.begin(), merged.end(),
              [](const DimensionSpan& a, const DimensionSpan& b) { return a.dimension < b.dimension; });
    return merged;
}

std::int64_t ParallelLayout::group_first_member(std::span<const ParallelAxis> axes, std::int64_t npu) const {
    std::int64_t first = npu;
    for (const ParallelAxis axis : axes) first -= rank_in_group(axis, npu) * id_stride(axis);
    return first;
}

}  // namespace parasight

#include "sweep/sweep_space.h"

#include "common/message_text.h"

#include <set>
#include <stdexcept>

namespace parasight {

Expected<SweepSpace> SweepSpace::of(std::vector<SweepAxis> axes) {
    if (axes.empty()) return Error{"a sweep needs at least one axis (PATH=VALUES)"};
    std::set<std::string> paths;
    std::size_t count = 1;
    for (std::size_t a = 0; a < axes.size(); ++a) {
        const SweepAxis& axis = axes[a];
        if (axis.values.empty()) return Error{axis.path + ": an axis needs at least one value"};
        if (!paths.insert(axis.path).second) {
            return Error{"two axes vary " + in_quotes(axis.path) + "; give its values once"};
        }
        if (axis.zipped_with_previous) {
            if (a == 0) return Error{axis.path + ": a zipped axis needs an axis before it"};
            if (axis.values.size() != axes[a - 1].values.size()) {
                return Error{"zipped axes take their values together, so each needs as many: " + axes[a - 1].path +
                             " has " + std::to_string(axes[a - 1].values.size()) + ", " + axis.path + " has " +
                             std::to_string(axis.values.size())};
            }
            continue;  // no new points
        }
        // count · values ≤ max, checked without overflowing.
        if (axis.values.size() > max_sweep_points / count) {
            return Error{"the axes make more than " + std::to_string(max_sweep_points) + " points; sweep fewer values"};
        }
        count *= axis.values.size();
    }
    return SweepSpace(std::move(axes), count);
}

std::vector<AxisValue> SweepSpace::point(std::size_t index) const {
    if (index >= point_count_) throw std::out_of_range("no such sweep point");
    std::vector<AxisValue> values(axes_.size());
    // Mixed radix, the last axis the least significant digit; zipped axes share their first axis's digit.
    std::size_t a = axes_.size();
    while (a > 0) {
        std::size_t first = a - 1;
        while (axes_[first].zipped_with_previous) --first;
        const std::size_t size = axes_[first].values.size();
        for (std::size_t z = first; z < a; ++z) values[z] = AxisValue{axes_[z].path, axes_[z].values[index % size]};
        index /= size;
        a = first;
    }
    return values;
}

}  // namespace parasight

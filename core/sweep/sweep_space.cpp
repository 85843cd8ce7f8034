#include "sweep/sweep_space.h"

#include "common/message_text.h"

#include <set>
#include <stdexcept>

namespace parasight {

Expected<SweepSpace> SweepSpace::of(std::vector<SweepAxis> axes) {
    if (axes.empty()) return Error{"a sweep needs at least one axis (PATH=VALUES)"};
    std::set<std::string> paths;
    std::size_t count = 1;
    for (const SweepAxis& axis : axes) {
        if (axis.values.empty()) return Error{axis.path + ": an axis needs at least one value"};
        if (!paths.insert(axis.path).second) return Error{"two axes vary " + in_quotes(axis.path) + "; give its values once"};
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
    // Mixed radix, the last axis the least significant digit.
    for (std::size_t a = axes_.size(); a-- > 0;) {
        const std::size_t size = axes_[a].values.size();
        values[a] = AxisValue{axes_[a].path, axes_[a].values[index % size]};
        index /= size;
    }
    return values;
}

}  // namespace parasight

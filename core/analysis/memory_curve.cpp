#include "analysis/memory_curve.h"

#include <algorithm>

namespace parasight {

std::vector<CurvePoint> memory_curve(std::span<const MemorySample> samples, double end_s, int max_points) {
    std::vector<CurvePoint> points;
    if (samples.empty()) return points;
    const double start_s = samples.front().time_s;
    end_s = std::max(end_s, samples.back().time_s);
    // Exactly: each sample starts a level held until the next; two points per level.
    if (samples.size() * 2 <= static_cast<std::size_t>(std::max(max_points, 0)) || end_s <= start_s) {
        points.reserve(samples.size() * 2);
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const double until_s = i + 1 < samples.size() ? samples[i + 1].time_s : end_s;
            points.push_back({samples[i].time_s, samples[i].bytes});
            points.push_back({until_s, samples[i].bytes});
        }
        return points;
    }
    // Intervals: each at the highest level held in it (the level it starts with, or any reached inside).
    const int intervals = std::max(1, max_points / 2);
    const double width_s = (end_s - start_s) / intervals;
    points.reserve(static_cast<std::size_t>(intervals) * 2);
    std::size_t next = 0;
    double level = samples.front().bytes;
    for (int k = 0; k < intervals; ++k) {
        const double from_s = start_s + k * width_s;
        const double to_s = k + 1 == intervals ? end_s : from_s + width_s;
        double highest = level;
        while (next < samples.size() && (samples[next].time_s < to_s || k + 1 == intervals)) {
            level = samples[next].bytes;
            highest = std::max(highest, level);
            ++next;
        }
        points.push_back({from_s, highest});
        points.push_back({to_s, highest});
    }
    return points;
}

std::vector<double> memory_levels(std::span<const MemorySample> samples, double from_s, double to_s, int columns) {
    std::vector<double> levels(static_cast<std::size_t>(std::max(columns, 0)), 0.0);
    if (levels.empty() || samples.empty() || !(to_s > from_s)) return levels;
    // The level held at from_s: the last sample at or before it.
    auto next = std::upper_bound(samples.begin(), samples.end(), from_s,
                                 [](double t, const MemorySample& sample) { return t < sample.time_s; });
    double level = next == samples.begin() ? 0.0 : (next - 1)->bytes;
    const double width_s = (to_s - from_s) / columns;
    for (std::size_t k = 0; k < levels.size(); ++k) {
        const double column_start_s = from_s + static_cast<double>(k) * width_s;
        const double column_end_s = k + 1 == levels.size() ? to_s : from_s + static_cast<double>(k + 1) * width_s;
        // A sample exactly at the column's start sets the level it starts with.
        while (next != samples.end() && next->time_s <= column_start_s) level = (next++)->bytes;
        double highest = level;
        while (next != samples.end() && next->time_s < column_end_s) {
            level = next->bytes;
            highest = std::max(highest, level);
            ++next;
        }
        levels[k] = highest;
    }
    return levels;
}

}  // namespace parasight

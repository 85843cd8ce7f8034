#include "memory/memory_curve.h"

#include <algorithm>

namespace parasight::gui {

QList<QPointF> memory_curve(std::span<const MemorySample> samples, double end_s, int max_points) {
    QList<QPointF> points;
    if (samples.empty()) return points;
    const double start_s = samples.front().time_s;
    end_s = std::max(end_s, samples.back().time_s);
    // Exactly: each sample starts a level held until the next; two points per level.
    if (static_cast<qsizetype>(samples.size()) * 2 <= max_points || end_s <= start_s) {
        points.reserve(static_cast<qsizetype>(samples.size()) * 2);
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const double until_s = i + 1 < samples.size() ? samples[i + 1].time_s : end_s;
            points.append(QPointF(samples[i].time_s, samples[i].bytes));
            points.append(QPointF(until_s, samples[i].bytes));
        }
        return points;
    }
    // Intervals: each at the highest level held in it (the level it starts with, or any reached inside).
    const int intervals = std::max(1, max_points / 2);
    const double width_s = (end_s - start_s) / intervals;
    points.reserve(static_cast<qsizetype>(intervals) * 2);
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
        points.append(QPointF(from_s, highest));
        points.append(QPointF(to_s, highest));
    }
    return points;
}

}  // namespace parasight::gui

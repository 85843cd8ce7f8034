#pragma once
// The median of a benchmark's timed runs: the figure docs/performance.md records, steadier than the mean on a noisy
// machine.

#include <algorithm>
#include <vector>

namespace parasight::bench {

inline double median_ms(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

}  // namespace parasight::bench

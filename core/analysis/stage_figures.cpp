#include "analysis/stage_figures.h"

#include "analysis/stage_sum.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace parasight {
namespace {

// The devices' breakdowns, each part averaged as StageSum averages.
TimeBreakdown mean_breakdown(const Report& report, const std::vector<std::size_t>& devices) {
    StageSum compute;
    StageSum exposed_local_memory;
    std::array<StageSum, comm_group_count> exposed_comm;
    StageSum exposed_remote_memory;
    StageSum bubble;
    StageSum idle;
    for (const std::size_t d : devices) {
        const DeviceReport& device = report.per_device[d];
        compute.add(device.breakdown.compute_s, device.weight);
        exposed_local_memory.add(device.breakdown.exposed_local_memory_s, device.weight);
        for (std::size_t g = 0; g < comm_group_count; ++g) exposed_comm[g].add(device.breakdown.exposed_comm_s[g], device.weight);
        exposed_remote_memory.add(device.breakdown.exposed_remote_memory_s, device.weight);
        bubble.add(device.breakdown.bubble_s, device.weight);
        idle.add(device.breakdown.idle_s, device.weight);
    }
    TimeBreakdown mean;
    mean.compute_s = compute.mean();
    mean.exposed_local_memory_s = exposed_local_memory.mean();
    for (std::size_t g = 0; g < comm_group_count; ++g) mean.exposed_comm_s[g] = exposed_comm[g].mean();
    mean.exposed_remote_memory_s = exposed_remote_memory.mean();
    mean.bubble_s = bubble.mean();
    mean.idle_s = idle.mean();
    return mean;
}

}  // namespace

std::size_t fullest_device(const Report& report, const std::vector<std::size_t>& devices) {
    std::size_t fullest = devices.front();
    for (const std::size_t d : devices) {
        if (report.per_device[d].peak_memory_bytes > report.per_device[fullest].peak_memory_bytes) fullest = d;
    }
    return fullest;
}

std::size_t fullest_device(const Report& report) {
    std::vector<std::size_t> all(report.per_device.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all.empty() ? 0 : fullest_device(report, all);
}

std::vector<StageFigures> stage_figures(const Report& report) {
    std::map<int, std::vector<std::size_t>> by_stage;
    for (std::size_t d = 0; d < report.per_device.size(); ++d) by_stage[report.per_device[d].stage].push_back(d);
    std::vector<StageFigures> figures;
    figures.reserve(by_stage.size());
    for (auto& [stage, devices] : by_stage) {
        StageFigures figure;
        figure.stage = stage;
        figure.mean_breakdown = mean_breakdown(report, devices);
        for (const std::size_t d : devices) {
            const TimeBreakdown& breakdown = report.per_device[d].breakdown;
            figure.busiest_compute_s =
                std::max(figure.busiest_compute_s, breakdown.compute_s + breakdown.exposed_local_memory_s);
        }
        figure.fullest_device = fullest_device(report, devices);
        figure.devices = std::move(devices);
        figures.push_back(std::move(figure));
    }
    return figures;
}

}  // namespace parasight

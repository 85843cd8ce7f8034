#include "export/report_metrics.h"

#include "common/memory_category.h"

#include <algorithm>

namespace parasight {

std::vector<ReportMetric> report_metrics(const Report& report) {
    std::vector<ReportMetric> metrics{
        {"iteration_time_s", report.iteration_time_s},
        {"samples_per_s", report.samples_per_s},
        {"tokens_per_s", report.tokens_per_s},
        {"devices", static_cast<double>(report.devices)},
        {"model_flops_per_iteration", report.model_flops_per_iteration},
        {"hardware_flops_per_iteration", report.hardware_flops_per_iteration},
        {"model_tflops_per_device", report.model_tflops_per_device},
        {"mfu", report.mfu},
        {"hfu", report.hfu},
        {"compute_s", report.breakdown.compute_s},
        {"exposed_local_memory_s", report.breakdown.exposed_local_memory_s},
    };
    for (std::size_t g = 0; g < comm_group_count; ++g) {
        metrics.push_back({"exposed_" + std::string(comm_group_names[g].name) + "_s", report.breakdown.exposed_comm_s[g]});
    }
    metrics.push_back({"exposed_remote_memory_s", report.breakdown.exposed_remote_memory_s});
    metrics.push_back({"bubble_s", report.breakdown.bubble_s});
    metrics.push_back({"idle_s", report.breakdown.idle_s});
    metrics.push_back({"peak_memory_bytes", report.peak_memory_bytes});
    metrics.push_back({"memory_capacity_bytes", report.memory_capacity_bytes});
    for (std::size_t c = 0; c < memory_category_count; ++c) {
        metrics.push_back({std::string(memory_category_names[c].name) + "_bytes", report.memory_by_category_bytes[c]});
    }
    return metrics;
}

const std::vector<std::string>& report_metric_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> listed;
        for (const ReportMetric& metric : report_metrics(Report{})) listed.push_back(metric.name);
        return listed;
    }();
    return names;
}

std::optional<double> report_metric(const Report& report, std::string_view name) {
    for (const ReportMetric& metric : report_metrics(report)) {
        if (metric.name == name) return metric.value;
    }
    return std::nullopt;
}

}  // namespace parasight

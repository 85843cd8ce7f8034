#pragma once
// A Report's numbers by name, the names of the results database's run columns (store/store_schema.h):
// iteration_time_s, samples_per_s, tokens_per_s, devices, model_flops_per_iteration, hardware_flops_per_iteration,
// model_tflops_per_device, mfu, hfu, compute_s, exposed_local_memory_s, exposed_{tp,cp,ep,pp,dp}_s,
// exposed_remote_memory_s, bubble_s, idle_s,
// peak_memory_bytes, memory_capacity_bytes, {weights,gradients,optimizer,activations,buffers}_bytes — what the store
// writes for a run and what a lesson's expressions name (lesson/report_expression.h).

#include "analysis/report.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parasight {

struct ReportMetric {
    std::string name;
    double value = 0.0;
};

// Every number above, in that order.
[[nodiscard]] std::vector<ReportMetric> report_metrics(const Report& report);
// The names alone, in the same order.
[[nodiscard]] const std::vector<std::string>& report_metric_names();
// The value named `name`, or nothing when no metric has that name.
[[nodiscard]] std::optional<double> report_metric(const Report& report, std::string_view name);

}  // namespace parasight

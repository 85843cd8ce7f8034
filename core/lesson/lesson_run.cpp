#include "lesson/lesson_run.h"

#include "export/report_metrics.h"

#include <algorithm>

namespace parasight {

namespace {

struct OracleName {
    std::string_view name;
    double (*of)(const OracleComparison&);
};

constexpr OracleName oracle_names[] = {
    {"oracle_iteration_s", [](const OracleComparison& oracle) { return oracle.oracle_iteration_s(); }},
    {"oracle_compute_s", [](const OracleComparison& oracle) { return oracle.oracle_compute_s; }},
    {"oracle_communication_s", [](const OracleComparison& oracle) { return oracle.oracle_communication_s; }},
};

}  // namespace

const std::vector<std::string_view>& lesson_run_names() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> all(report_metric_names().begin(), report_metric_names().end());
        for (const OracleName& oracle : oracle_names) all.push_back(oracle.name);
        return all;
    }();
    return names;
}

std::optional<double> lesson_run_value(const LessonRun& run, std::string_view name) {
    for (const OracleName& oracle : oracle_names) {
        if (oracle.name == name) return run.oracle ? std::optional<double>(oracle.of(*run.oracle)) : std::nullopt;
    }
    return report_metric(run.report, name);
}

}  // namespace parasight

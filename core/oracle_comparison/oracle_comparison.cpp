#include "oracle_comparison/oracle_comparison.h"

#include "analysis/range_summary.h"
#include "units/quantity.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace parasight {
namespace {

std::string time(double seconds) { return units::format_readable(seconds, units::Dimension::time); }

double mean_s(const RangeSummary& summary, TaskKind kind) {
    return summary.mean_s_by_kind[static_cast<std::size_t>(kind)];
}

}  // namespace

Expected<OracleComparison> compare_oracle_with_simulation(const ValidatedScenario& validated,
                                                          const Simulation& simulation) {
    const auto read = oracle_problem(validated);
    if (!read) return Error{read.error()};
    OracleProblem problem = *read;
    if (!simulation.timeline) return Error{"the simulation kept no timeline to measure busy times from"};
    const Scenario& scenario = validated.value();
    const std::int64_t dp = scenario.parallelism.dp;
    const std::int64_t pp = scenario.parallelism.pp;
    const std::int64_t p = dp * pp;
    const OracleNetwork network = oracle_network(scenario.cluster.topology, p);
    problem.alpha_s = network.alpha_s;
    problem.beta_s_per_byte = network.beta_s_per_byte;

    OracleComparison comparison;
    OracleChoice& oracle = comparison.oracle;
    oracle.strategy = p == 1     ? OracleStrategy::serial
                      : pp == 1  ? OracleStrategy::data
                      : dp == 1  ? OracleStrategy::layer
                                 : OracleStrategy::data_layer;
    oracle.pes = OraclePes{p, oracle.strategy == OracleStrategy::data_layer ? dp : 1,
                           oracle.strategy == OracleStrategy::data_layer ? pp : 1, 1, 1};
    oracle.estimate = oracle_estimate(problem, oracle.strategy, oracle.pes);
    const double iterations = problem.iterations();
    comparison.iterations = iterations;
    comparison.oracle_compute_s = oracle.estimate.compute_s / iterations;
    comparison.oracle_communication_s = oracle.estimate.communication_s / iterations;

    const Report& report = simulation.report;
    const RangeSummary busy = summarize_range(*simulation.timeline, 0.0, report.iteration_time_s);
    comparison.simulated_iteration_s = report.iteration_time_s;
    comparison.simulated_compute_s = mean_s(busy, TaskKind::forward) + mean_s(busy, TaskKind::backward) +
                                     mean_s(busy, TaskKind::weight_gradient) + mean_s(busy, TaskKind::recompute) +
                                     mean_s(busy, TaskKind::optimizer);
    for (std::size_t kind = 0; kind < task_kind_count; ++kind) {
        if (is_communication(static_cast<TaskKind>(kind))) {
            comparison.simulated_communication_s += busy.mean_s_by_kind[kind];
        }
    }
    comparison.simulated_exposed_communication_s = report.breakdown.exposed_comm_total_s();
    comparison.simulated_bubble_s = report.breakdown.bubble_s;
    comparison.simulated_idle_s = report.breakdown.idle_s;

    // Each difference with the time it accounts for, largest first.
    std::vector<std::pair<double, std::string>> reasons;
    const double oracle_bubble_s = oracle.estimate.bubble_s / iterations;
    if (pp > 1) {
        reasons.emplace_back(
            std::fabs(oracle_bubble_s - comparison.simulated_bubble_s),
            "the pipeline's fill and drain: the oracle counts (p − 1)/S of its forward and backward passes as "
            "computation, " + time(oracle_bubble_s) + "; in the simulation the stages wait " +
                time(comparison.simulated_bubble_s) + " (the schedule's bubble, and sends between stages)");
    }
    const double hidden_s = comparison.simulated_communication_s - comparison.simulated_exposed_communication_s;
    if (hidden_s > 0.0) {
        reasons.emplace_back(hidden_s, "overlap: the simulation runs " + time(hidden_s) + " of its " +
                                           time(comparison.simulated_communication_s) +
                                           " of communication beside computation (gradients reduced in buckets while "
                                           "backward runs, sends beside the next micro-batch); the oracle adds every "
                                           "transfer after the computation");
    }
    if (p > 1) {
        reasons.emplace_back(
            std::fabs(comparison.oracle_communication_s - comparison.simulated_communication_s),
            "the collectives' cost: the oracle's ring pays 2(p − 1) latencies of " + time(network.alpha_s) +
                " and every byte at the slowest link the PEs span (" +
                units::format_readable(1.0 / network.beta_s_per_byte, units::Dimension::bandwidth) + "): " +
                time(comparison.oracle_communication_s) + "; the simulated collectives — an algorithm per "
                "dimension, links shared — are busy " + time(comparison.simulated_communication_s));
    }
    const double oracle_passes_s = comparison.oracle_compute_s - oracle_bubble_s;
    reasons.emplace_back(std::fabs(oracle_passes_s - comparison.simulated_compute_s),
                         "computation: the same roofline times each layer, " + time(oracle_passes_s) +
                             " in the oracle and " + time(comparison.simulated_compute_s) +
                             " busy in the simulation, where computation beside communication runs " +
                             units::format_number(scenario.simulation.overlap_slowdown * 100.0) +
                             "% slower (simulation.overlap_slowdown)" +
                             (pp > 1 ? "; the oracle runs every stage at the slowest one's pace (Table 1 takes the "
                                       "largest stage's passes), the simulation's mean device is an average stage"
                                     : ""));
    std::stable_sort(reasons.begin(), reasons.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& reason : reasons) comparison.reasons.push_back(std::move(reason.second));
    return comparison;
}

}  // namespace parasight

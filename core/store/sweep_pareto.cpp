// ResultStore::sweep_pareto: a sweep's cost against its result, and the front.
#include "store/sweep_pareto.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace parasight {

using store::Statement;

namespace {

constexpr std::array<GridMetric, 2> costs{{
    {"peak_memory_bytes", "peak_memory_bytes", false},
    {"devices", "devices", false},
}};

}  // namespace

std::span<const GridMetric> pareto_costs() noexcept { return costs; }

std::vector<std::size_t> pareto_front(const std::vector<ParetoPoint>& points, bool higher_is_better) {
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto better = [higher_is_better](double a, double b) { return higher_is_better ? a > b : a < b; };
    // By cost, then best result first, then point order: the first of each cost is that cost's best.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (points[a].cost != points[b].cost) return points[a].cost < points[b].cost;
        return better(points[a].result, points[b].result);
    });
    std::vector<std::size_t> front;
    for (const std::size_t index : order) {
        if (front.empty() || better(points[index].result, points[front.back()].result)) {
            // A point of the same cost as the last on the front cannot be better than it (sorted best first).
            front.push_back(index);
        }
    }
    return front;
}

Expected<SweepPareto> ResultStore::sweep_pareto(std::int64_t sweep_id, const GridMetric& cost, const GridMetric& result,
                                                const std::string& where) {
    if (Expected<SweepSummary> exists = sweep(sweep_id); !exists) return Error{exists.error()};
    const std::string x = "(" + std::string(cost.sql) + ")";
    const std::string y = "(" + std::string(result.sql) + ")";
    Expected<Statement> select = database_.prepare(
        "SELECT point, " + x + ", " + y + " FROM sweep_" + std::to_string(sweep_id) + " WHERE status = 'ok' AND " + x +
        " IS NOT NULL AND " + y + " IS NOT NULL" + (where.empty() ? std::string() : " AND (" + where + ")") +
        " ORDER BY point");
    if (!select) return Error{select.error()};
    SweepPareto pareto;
    const auto problem = select.value().each_row([&](const Statement& row) {
        pareto.points.push_back(ParetoPoint{row.integer(0), row.real(1), row.real(2)});
    });
    if (problem) return Error{*problem};
    pareto.front = pareto_front(pareto.points, result.higher_is_better);
    return pareto;
}

}  // namespace parasight

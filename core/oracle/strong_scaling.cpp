#include "oracle/strong_scaling.h"

#include <algorithm>
#include <cmath>

namespace parasight {
namespace {

// Every grid pw × ph = n, the squarest first (wider before taller).
std::vector<std::pair<std::int64_t, std::int64_t>> grids(std::int64_t n) {
    std::vector<std::pair<std::int64_t, std::int64_t>> result;
    for (std::int64_t ph = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n))) + 1; ph >= 1; --ph) {
        if (ph * ph > n || n % ph != 0) continue;
        result.emplace_back(n / ph, ph);
        if (n / ph != ph) result.emplace_back(ph, n / ph);
    }
    return result;
}

// Every arrangement of p PEs for `strategy`, in the order oracle_choice falls back on: for the hybrids the largest
// data-parallel part first, for the grids the squarest first.
std::vector<OraclePes> arrangements(OracleStrategy strategy, std::int64_t p) {
    std::vector<OraclePes> result;
    const bool hybrid = is_hybrid(strategy);
    const bool gridded = strategy == OracleStrategy::spatial || strategy == OracleStrategy::data_spatial;
    for (std::int64_t p1 = hybrid ? p : 1; p1 >= 1; --p1) {
        if (p % p1 != 0) continue;
        const std::int64_t p2 = p / p1;
        if (!gridded) {
            result.push_back(OraclePes{p, hybrid ? p1 : 1, hybrid ? p2 : 1, 1, 1});
            continue;
        }
        for (const auto& [pw, ph] : grids(p2)) result.push_back(OraclePes{p, hybrid ? p1 : 1, hybrid ? p2 : 1, pw, ph});
    }
    return result;
}

}  // namespace

OracleChoice oracle_choice(const OracleProblem& problem, OracleStrategy strategy, std::int64_t p) {
    std::optional<OracleChoice> fastest;
    std::optional<OracleChoice> fallback;
    const auto better = [&problem](const OracleChoice& a, const OracleChoice& b) {
        const bool a_fits = problem.fits(a.estimate.memory_bytes);
        if (a_fits != problem.fits(b.estimate.memory_bytes)) return a_fits;
        return a.estimate.epoch_s() < b.estimate.epoch_s();
    };
    for (const OraclePes& pes : arrangements(strategy, p)) {
        OracleChoice choice{strategy, pes, oracle_estimate(problem, strategy, pes)};
        if (choice.estimate.ruled_out) {
            // The first arrangement whose data-parallel part B allows, else the very first.
            if (!fallback || (static_cast<double>(fallback->pes.p1) > problem.batch &&
                              static_cast<double>(pes.p1) <= problem.batch)) {
                fallback = std::move(choice);
            }
            continue;
        }
        if (!fastest || better(choice, *fastest)) fastest = std::move(choice);
    }
    return fastest ? *fastest : *fallback;
}

std::string oracle_arrangement_text(const OracleChoice& choice) {
    const auto n = [](std::int64_t value) { return std::to_string(value); };
    if (choice.strategy == OracleStrategy::spatial) return n(choice.pes.pw) + " × " + n(choice.pes.ph);
    if (choice.strategy == OracleStrategy::data_spatial) {
        return n(choice.pes.p1) + " × " + n(choice.pes.pw) + " × " + n(choice.pes.ph);
    }
    if (is_hybrid(choice.strategy)) return n(choice.pes.p1) + " × " + n(choice.pes.p2);
    return n(choice.pes.p);
}

std::vector<std::int64_t> oracle_default_pes(std::int64_t cluster_npus) {
    std::vector<std::int64_t> pes;
    for (std::int64_t p = 1; p <= std::max<std::int64_t>(1024, cluster_npus); p *= 2) pes.push_back(p);
    return pes;
}

std::vector<OracleScalingPoint> oracle_strong_scaling(OracleProblem problem, const std::vector<Dimension>& topology,
                                                      std::span<const std::int64_t> pes,
                                                      std::span<const OracleStrategy> strategies) {
    std::vector<OracleScalingPoint> points;
    points.reserve(pes.size());
    for (const std::int64_t p : pes) {
        OracleScalingPoint point;
        point.p = p;
        point.network = oracle_network(topology, p);
        problem.alpha_s = point.network.alpha_s;
        problem.beta_s_per_byte = point.network.beta_s_per_byte;
        for (const OracleStrategy strategy : strategies) {
            point.choices.push_back(oracle_choice(problem, strategy, p));
            const OracleChoice& choice = point.choices.back();
            if (choice.estimate.ruled_out || !problem.fits(choice.estimate.memory_bytes)) continue;
            // Strictly faster, beyond rounding: a hybrid that reduces to an earlier strategy (data + layer with one
            // stage is data) does not take its place by a last bit.
            if (!point.best ||
                choice.estimate.epoch_s() < point.choices[*point.best].estimate.epoch_s() * (1.0 - 1e-12)) {
                point.best = point.choices.size() - 1;
            }
        }
        points.push_back(std::move(point));
    }
    return points;
}

}  // namespace parasight

// ASTRA-sim 2.0's memory-disaggregation case study (Won et al. 2023, §IV-B, Table IV, Fig. 4) from the bundled
// scenarios presets/scenarios/moe-1t-hiermem.yaml (HierMem, with the paper's search as its sweep) and
// moe-1t-zero-infinity.yaml: a trillion-parameter mixture of experts on 256 NPUs, its optimizer states and gradient
// shards offloaded. The paper's relations: ZeRO-Infinity performs 0.1% better than the HierMem baseline; the search
// over the in-node pooled fabric (256–2048 GB/s) and the remote groups (100–500 GB/s) finds HierMem (opt) at 512 and
// 500 GB/s, 4.6 times faster than the baseline.
//
// Why, worked from the pool model (docs/model.md §7; G = 256 NPUs in N = 16 nodes, S = 16 out-node switches, R = 256
// remote groups, chunks of c = 1 MiB = 1 048 576 B), each chunk step:
//   remote group → switch   c / (B_group / S) = 16c / B_group: 100 GB/s → 167.77216 µs, 500 GB/s → 33.554432 µs
//   switch → node           R·c / (N·B_node) = 16c / 512 GB/s = 32.768 µs
//   in-node switch → NPU    R·S·c / (G·B_in) = 16c / B_in: 256 GB/s → 65.536 µs, 512 GB/s → 32.768 µs
// The baseline is bound by its groups: an NPU moves its states at 16c per 167.77216 µs = 100 GB/s, what ZeRO-Infinity's
// own 100 GB/s host link gives it, less the pool's two extra pipeline stages — so ZeRO-Infinity is a little faster.
// With groups of 500 GB/s the in-node fabric bounds the pool below 500 GB/s (16c / B_in > 16c / 500 GB/s), and from
// 512 GB/s on it no longer does: 512 and 500 GB/s is the least provision at which the pool runs at its best.

#include "memory_system/pool_transfer.h"
#include "scenario_file/scenario_loader.h"
#include "simulation/simulate.h"
#include "sweep/sweep_setup.h"
#include "validation/validate.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace parasight;

namespace {

constexpr double us = 1e-6;

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

std::string bundled(const char* name) { return std::string(PARASIGHT_SOURCE_DIR "/presets/scenarios/") + name; }

Scenario load(const char* name) {
    const LoadResult loaded = load_scenario_file(bundled(name));
    if (!loaded.ok()) qFatal("%s does not load: %s", name, loaded.diagnostics.front().to_string().c_str());
    return loaded.scenario->value();
}

Report run(const Scenario& scenario) {
    const Validation valid = validate(scenario);
    if (!valid.ok()) qFatal("invalid: %s", valid.diagnostics.front().to_string().c_str());
    const auto simulated = simulate(*valid.scenario, SimulateOptions{});
    if (!simulated) qFatal("the simulation failed: %s", simulated.error().message.c_str());
    return simulated->report;
}

class Collector final : public SweepObserver {
public:
    std::optional<std::string> points_done(std::span<const PointResult> points) override {
        results.insert(results.end(), points.begin(), points.end());
        return std::nullopt;
    }
    bool cancelled() const override { return false; }
    std::vector<PointResult> results;
};

// "512 GB/s" → 512e9.
double gigabytes_per_s(const std::string& value) { return std::stod(value) * 1e9; }

}  // namespace

class TestMemoryCaseStudy : public QObject {
    Q_OBJECT

private slots:
    void chunkStepsAsTableIvGivesThem() {
        const Scenario scenario = load("moe-1t-hiermem.yaml");
        QCOMPARE(scenario.device_count(), std::int64_t{256});
        QCOMPARE(scenario.cluster.gpus_per_node(), 16);
        MemoryPool pool = *scenario.cluster.memory_system.pool;
        const double W = 64.0 * 1024 * 1024;  // any transfer: the chunk steps do not depend on its size
        const PoolTransfer baseline = pool_transfer(pool, 256, 16, W);
        QVERIFY(near(baseline.links[0].chunk_time_s, 167.77216 * us));
        QVERIFY(near(baseline.links[1].chunk_time_s, 32.768 * us));
        QVERIFY(near(baseline.links[2].chunk_time_s, 65.536 * us));
        pool.in_node_bandwidth_Bps = 512e9;
        pool.remote_group_bandwidth_Bps = 500e9;
        const PoolTransfer optimized = pool_transfer(pool, 256, 16, W);
        QVERIFY(near(optimized.links[0].chunk_time_s, 33.554432 * us));
        QVERIFY(near(optimized.links[1].chunk_time_s, 32.768 * us));
        QVERIFY(near(optimized.links[2].chunk_time_s, 32.768 * us));
    }

    void zeroInfinityIsALittleFasterThanTheHierMemBaseline() {
        const Report pool = run(load("moe-1t-hiermem.yaml"));
        const Report host = run(load("moe-1t-zero-infinity.yaml"));
        // The same states on both: 52.6 GiB an NPU, 16 a node in host memory, all 256 in the pool.
        QCOMPARE(pool.offloads.size(), std::size_t{1});
        QCOMPARE(host.offloads.size(), std::size_t{1});
        QVERIFY(near(pool.offloads.front().bytes, 16.0 * host.offloads.front().bytes));
        // The paper: ZeRO-Infinity 0.1% better. ParaSight: by the pool's two extra pipeline stages a chunk.
        const double better = pool.iteration_time_s / host.iteration_time_s - 1.0;
        QVERIFY2(better > 0.0 && better < 0.01, qPrintable(QString::number(100 * better, 'f', 3)));
        // Both spend most of the iteration moving states: the memory systems decide it.
        QVERIFY(pool.breakdown.exposed_remote_memory_s > 0.5 * pool.iteration_time_s);
        QVERIFY(host.breakdown.exposed_remote_memory_s > 0.5 * host.iteration_time_s);
    }

    void theSearchFindsHierMemOpt() {
        auto base = read_sweep_base(bundled("moe-1t-hiermem.yaml"));
        QVERIFY(base.has_value());
        auto plan = plan_sweep(*base, {}, std::nullopt);
        QVERIFY(plan.has_value());
        QCOMPARE(plan->space.point_count(), std::size_t{40});  // 8 in-node fabrics × 5 group bandwidths
        Collector collector;
        SweepOptions options;
        options.jobs = 2;
        (void)run_sweep(*plan, options, collector);
        QCOMPARE(collector.results.size(), std::size_t{40});
        struct Point {
            double in_node_Bps;
            double group_Bps;
            double time_s;
        };
        std::vector<Point> points;
        double baseline_s = 0.0;
        for (const PointResult& result : collector.results) {
            QCOMPARE(result.status, PointStatus::ok);
            QCOMPARE(result.values.size(), std::size_t{2});
            const Point point{gigabytes_per_s(result.values[0].value), gigabytes_per_s(result.values[1].value),
                              result.report->iteration_time_s};
            if (point.in_node_Bps == 256e9 && point.group_Bps == 100e9) baseline_s = point.time_s;
            points.push_back(point);
        }
        QVERIFY(baseline_s > 0.0);
        const double best_s = std::min_element(points.begin(), points.end(), [](const Point& a, const Point& b) {
                                  return a.time_s < b.time_s;
                              })->time_s;
        // The least provision within 0.1% of the best: the slowest in-node fabric, then the slowest groups.
        std::vector<Point> best;
        for (const Point& point : points) {
            if (point.time_s <= 1.001 * best_s) best.push_back(point);
        }
        const Point least = *std::min_element(best.begin(), best.end(), [](const Point& a, const Point& b) {
            return a.in_node_Bps != b.in_node_Bps ? a.in_node_Bps < b.in_node_Bps : a.group_Bps < b.group_Bps;
        });
        QCOMPARE(least.in_node_Bps, 512e9);
        QCOMPARE(least.group_Bps, 500e9);
        // Several times faster than the baseline; the paper's 4.6 needs less computation and all-to-all beside the
        // memory time than our shape and batch have (docs/validation.md, the case study).
        const double speedup = baseline_s / least.time_s;
        QVERIFY2(speedup > 2.0 && speedup < 5.0, qPrintable(QString::number(speedup, 'f', 3)));
        // Where the groups stay at 100 GB/s, a faster in-node fabric buys next to nothing: they bound the pool, and
        // only the pipeline's last stages shorten (0.12% at 2048 GB/s).
        for (const Point& point : points) {
            if (point.group_Bps == 100e9) QVERIFY(point.time_s >= 0.998 * baseline_s);
        }
    }
};

QTEST_APPLESS_MAIN(TestMemoryCaseStudy)
#include "test_memory_case_study.moc"

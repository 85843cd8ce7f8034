// The built-in strategy space (sweep/strategy_space.h), counted by hand.

#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"
#include "sweep/strategy_space.h"
#include "sweep/sweep_runner.h"

#include <QtTest>

#include <set>

using namespace parasight;

namespace {

Scenario scenario_of(const char* file) {
    const ReadResult read = read_scenario_file(std::string(PARASIGHT_SOURCE_DIR) + "/tests/data/" + file);
    if (!read.scenario) qFatal("cannot read %s", file);
    return *read.scenario;
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

}  // namespace

class TestStrategySpace : public QObject {
    Q_OBJECT
private slots:
    void distSimsSixteenGpusHaveFifteenStrategies();
    void everyStrategyOfTheSmallPipelineCountedByHand();
    void spacesAreNamedAllOrDegrees();
};

void TestStrategySpace::distSimsSixteenGpusHaveFifteenStrategies() {
    // DistSim §6: 16 GPUs, each degree 1, 2, 4, 8 or 16 — the ordered triples tp · pp · dp = 16 = 2^4 are the ways
    // to share four factors of two among three degrees, C(4 + 2, 2) = 15; all fit BERT-exLarge (16 heads, 48 layers,
    // global batch 16 at micro-batch 1).
    const Scenario base = scenario_of("bench/bert-exlarge-16xa10.yaml");
    const std::vector<SweepAxis> axes = strategy_axes(base, StrategySpace::degrees);
    QCOMPARE(axes.size(), std::size_t{3});
    QCOMPARE(axes[0].path, std::string("parallelism.tp"));
    QCOMPARE(axes[1].path, std::string("parallelism.pp"));
    QCOMPARE(axes[2].path, std::string("parallelism.dp"));
    QVERIFY(!axes[0].zipped_with_previous && axes[1].zipped_with_previous && axes[2].zipped_with_previous);
    QCOMPARE(axes[0].values.size(), std::size_t{15});
    std::set<std::string> distinct;
    for (std::size_t k = 0; k < 15; ++k) {
        const int tp = std::stoi(axes[0].values[k]);
        const int pp = std::stoi(axes[1].values[k]);
        const int dp = std::stoi(axes[2].values[k]);
        QCOMPARE(tp * pp * dp, 16);
        distinct.insert(axes[0].values[k] + "/" + axes[1].values[k] + "/" + axes[2].values[k]);
    }
    QCOMPARE(distinct.size(), std::size_t{15});

    // Every one of them is valid and simulated.
    const LoadResult loaded = load_scenario_file(PARASIGHT_SOURCE_DIR "/tests/data/bench/bert-exlarge-16xa10.yaml");
    QVERIFY(loaded.ok());
    Expected<SweepSpace> space = SweepSpace::of(axes);
    QVERIFY(space);
    QCOMPARE(space.value().point_count(), std::size_t{15});
    const SweepPlan plan{base.name, write_scenario_yaml(loaded.scenario->value()), {}, std::move(space).value(),
                         std::nullopt};
    Collector collector;
    SweepOptions options;
    options.jobs = 2;
    (void)run_sweep(plan, options, collector);
    QCOMPARE(collector.results.size(), std::size_t{15});
    for (const PointResult& result : collector.results) QCOMPARE(result.status, PointStatus::ok);
}

void TestStrategySpace::everyStrategyOfTheSmallPipelineCountedByHand() {
    // tests/data/cli/small_pipeline.yaml: 8 NPUs, 4 layers, 8 heads, global batch 16.
    //   tp | 8 heads and 8 NPUs: 1, 2, 4, 8; pp | 8 / tp and ≤ 4 layers; dp = 8 / (tp · pp):
    //   tp 1: pp 1, 2, 4 · tp 2: pp 1, 2, 4 · tp 4: pp 1, 2 · tp 8: pp 1 → 9 layouts.
    const Scenario base = scenario_of("cli/small_pipeline.yaml");
    QCOMPARE(strategy_axes(base, StrategySpace::degrees).front().values.size(), std::size_t{9});
    // all, per layout: schedules (pp 1: 1F1B; pp 2: 1F1B, GPipe, interleaved ×2 (4 layers = 2 · 2); pp 4: 1F1B,
    // GPipe) × micro-batches in {1, 2, 4, 8} dividing 16 / dp × ZeRO (4 with dp > 1, else 1) × recompute (3) ×
    // sequence parallelism (2 with tp > 1, else 1):
    //   tp1 pp1 dp8: 1·2·4·3 = 24    tp1 pp2 dp4: 3·3·4·3 = 108   tp1 pp4 dp2: 2·4·4·3 = 96
    //   tp2 pp1 dp4: 1·3·4·6 = 72    tp2 pp2 dp2: 3·4·4·6 = 288   tp2 pp4 dp1: 2·4·1·6 = 48
    //   tp4 pp1 dp2: 1·4·4·6 = 96    tp4 pp2 dp1: 3·4·1·6 = 72    tp8 pp1 dp1: 1·4·1·6 = 24   → 828
    const std::vector<SweepAxis> all = strategy_axes(base, StrategySpace::all);
    QCOMPARE(all.size(), std::size_t{9});
    const std::vector<std::string> paths{"parallelism.tp",           "parallelism.pp",
                                         "parallelism.dp",           "parallelism.schedule",
                                         "parallelism.virtual_stages", "training.micro_batch",
                                         "parallelism.zero",         "parallelism.recompute",
                                         "parallelism.sequence_parallel"};
    for (std::size_t a = 0; a < all.size(); ++a) {
        QCOMPARE(all[a].path, paths[a]);
        QCOMPARE(all[a].values.size(), std::size_t{828});
    }
    // No strategy twice, sequence parallelism only with tp > 1, ZeRO only with dp > 1.
    std::set<std::string> distinct;
    for (std::size_t k = 0; k < 828; ++k) {
        std::string key;
        for (const SweepAxis& axis : all) key += axis.values[k] + "|";
        distinct.insert(key);
        if (all[8].values[k] == "true") QVERIFY(all[0].values[k] != "1");
        if (all[6].values[k] != "0") QVERIFY(all[2].values[k] != "1");
    }
    QCOMPARE(distinct.size(), std::size_t{828});
}

void TestStrategySpace::spacesAreNamedAllOrDegrees() {
    QVERIFY(parse_strategy_space("all"));
    QCOMPARE(parse_strategy_space("degrees").value(), StrategySpace::degrees);
    const Expected<StrategySpace> wrong = parse_strategy_space("everything");
    QVERIFY(!wrong);
    QCOMPARE(wrong.error(), std::string("strategies is all (every layout, schedule, micro-batch, ZeRO stage and "
                                        "recompute) or degrees (every tp × pp × dp), not 'everything'"));
}

QTEST_GUILESS_MAIN(TestStrategySpace)
#include "test_strategy_space.moc"

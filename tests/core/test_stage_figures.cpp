// Per-stage figures of a report (analysis/stage_figures.h), worked out by hand: the mean breakdown weighted by the
// devices each simulated device stands for — exactly the devices' value when they agree, as the report's totals
// take it — the busiest device's compute and the fullest device.

#include "analysis/stage_figures.h"
#include "analysis/stage_sum.h"

#include <QtTest>

using namespace parasight;

namespace {

DeviceReport device(std::int64_t npu, int stage, double weight, double compute_s, double bubble_s, double peak_bytes) {
    DeviceReport report;
    report.npu = npu;
    report.stage = stage;
    report.weight = weight;
    report.breakdown.compute_s = compute_s;
    report.breakdown.bubble_s = bubble_s;
    report.peak_memory_bytes = peak_bytes;
    return report;
}

}  // namespace

class TestStageFigures : public QObject {
    Q_OBJECT
private slots:
    void stagesInOrderWithTheirFigures();
    void agreeingDevicesKeepTheirValueExactly();
};

void TestStageFigures::stagesInOrderWithTheirFigures() {
    Report report;
    // Listed out of stage order: stage 1 first. Stage 0: NPU 0 standing for 3 devices (compute 1 s, bubble 0.5 s,
    // 10 B) and NPU 4 for 1 (compute 3 s, bubble 0.1 s, 30 B). Stage 1: NPU 8 alone (2 s, 0 s, 20 B).
    report.per_device = {device(8, 1, 1.0, 2.0, 0.0, 20.0), device(0, 0, 3.0, 1.0, 0.5, 10.0),
                         device(4, 0, 1.0, 3.0, 0.1, 30.0)};
    const std::vector<StageFigures> stages = stage_figures(report);
    QCOMPARE(stages.size(), std::size_t{2});
    QCOMPARE(stages[0].stage, 0);
    QCOMPARE(stages[0].devices, (std::vector<std::size_t>{1, 2}));
    // Mean compute over 4 real devices: (3 · 1 s + 1 · 3 s) / 4 = 1.5 s; bubble (3 · 0.5 + 0.1) / 4 = 0.4 s.
    QCOMPARE(stages[0].mean_breakdown.compute_s, 1.5);
    QCOMPARE(stages[0].mean_breakdown.bubble_s, (3.0 * 0.5 + 0.1) / 4.0);
    QCOMPARE(stages[0].busiest_compute_s, 3.0);
    QCOMPARE(stages[0].fullest_device, std::size_t{2});  // NPU 4, 30 B
    QCOMPARE(stages[1].stage, 1);
    QCOMPARE(stages[1].mean_breakdown.compute_s, 2.0);
    QCOMPARE(stages[1].fullest_device, std::size_t{0});
    QCOMPARE(fullest_device(report), std::size_t{2});
    QVERIFY(stage_figures(Report{}).empty());
}

void TestStageFigures::agreeingDevicesKeepTheirValueExactly() {
    // 0.1 s on three devices of weights 1, 1 and 5: (0.1 + 0.1 + 5 · 0.1) / 7 is not 0.1 in doubles, but the stage's
    // mean is exactly 0.1 and its total 0.1 × 7, as simulating every device would give.
    StageSum stage;
    for (const double weight : {1.0, 1.0, 5.0}) stage.add(0.1, weight);
    QCOMPARE(stage.mean(), 0.1);
    QCOMPARE(stage.total(), 0.1 * 7.0);
    QCOMPARE(stage.weight(), 7.0);
    // Disagreeing devices: the weighted sum and mean.
    StageSum mixed;
    mixed.add(1.0, 1.0);
    mixed.add(4.0, 2.0);
    QCOMPARE(mixed.total(), 9.0);
    QCOMPARE(mixed.mean(), 3.0);
    QCOMPARE(StageSum{}.mean(), 0.0);
}

QTEST_APPLESS_MAIN(TestStageFigures)
#include "test_stage_figures.moc"

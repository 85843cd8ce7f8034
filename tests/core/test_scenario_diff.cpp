// What differs between two scenarios (scenario_file/scenario_diff.h), path by path, for `runs compare`.

#include "scenario_file/scenario_diff.h"

#include <QtTest>

using namespace parasight;

class TestScenarioDiff : public QObject {
    Q_OBJECT
private slots:
    void pathsThatDiffer();
    void theSameScenarioDiffersInNothing();
};

void TestScenarioDiff::pathsThatDiffer() {
    const std::string before = "name: a\n"
                               "training: {global_batch: 16, micro_batch: 2}\n"
                               "cluster:\n"
                               "  topology:\n"
                               "    - {kind: switch, size: 4, bandwidth: 300 GB/s}\n"
                               "    - {kind: switch, size: 2, bandwidth: 25 GB/s}\n"
                               "strategy_tree: []\n";
    const std::string after = "name: a\n"
                              "training: {global_batch: 32, micro_batch: 2}\n"
                              "cluster:\n"
                              "  topology:\n"
                              "    - {kind: switch, size: 4, bandwidth: 300 GB/s}\n"
                              "parallelism: {zero: 1}\n"
                              "strategy_tree: []\n";
    const std::vector<ScenarioDifference> differences = scenario_differences(before, after);
    // The second dimension's three values are gone; a parallelism section came; the batch changed. Sorted by path.
    QCOMPARE(differences.size(), std::size_t{5});
    const auto is = [](const ScenarioDifference& d, const char* path, const char* a, const char* b) {
        return d.path == path && d.before == a && d.after == b;
    };
    QVERIFY(is(differences[0], "cluster.topology[1].bandwidth", "25 GB/s", ""));
    QVERIFY(is(differences[1], "cluster.topology[1].kind", "switch", ""));
    QVERIFY(is(differences[2], "cluster.topology[1].size", "2", ""));
    QVERIFY(is(differences[3], "parallelism.zero", "", "1"));
    QVERIFY(is(differences[4], "training.global_batch", "16", "32"));
}

void TestScenarioDiff::theSameScenarioDiffersInNothing() {
    const std::string yaml = "model: {preset: gpt3-175b}\nstrategy_tree: []\n";
    QVERIFY(scenario_differences(yaml, yaml).empty());
}

QTEST_GUILESS_MAIN(TestScenarioDiff)
#include "test_scenario_diff.moc"

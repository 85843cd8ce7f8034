// Measured operation times replacing the roofline (DistSim: cost each distinct operation once, reuse it): parsing
// with located errors, and the simulation using the measured time wherever the operation recurs.

#include "compile/compiler.h"
#include "device/measured_operations.h"
#include "scenario_file/relocate_paths.h"
#include "simulation/simulate.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/scenario_writer.h"

#include <QtTest>

#include <cmath>

using namespace parasight;

class TestMeasuredOperations : public QObject {
    Q_OBJECT
private slots:
    void parsesRowsWithUnits();
    void errors_data();
    void errors();
    void simulationUsesMeasuredTimes();
    void missingTableIsReportedAtTheKey();
    void roundTripKeepsThePath();
    void relocatedPathsNameTheSameFile_data();
    void relocatedPathsNameTheSameFile();
    void textWithoutAFolderNeedsAFullPath();
};

void TestMeasuredOperations::parsesRowsWithUnits() {
    Diagnostics diagnostics;
    const auto times = parse_measured_operations("operation,pass,time\n"
                                                 "# a comment\n"
                                                 "\n"
                                                 "qkv, forward, 0.98 ms\n"
                                                 "qkv,backward,1960 us\r\n"
                                                 "optimizer,forward,12 ms\n",
                                                 "ops.csv", diagnostics);
    QVERIFY(diagnostics.empty());
    QCOMPARE(times.size(), std::size_t{3});
    QCOMPARE_EQ(times.at("qkv/forward"), 0.98e-3);    // 0.98 ms
    QCOMPARE_EQ(times.at("qkv/backward"), 1960e-6);   // 1960 us
    QCOMPARE_EQ(times.at("optimizer/forward"), 12e-3);
}

void TestMeasuredOperations::errors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << "" << "ops.csv:1:1: the table is empty";
    QTest::newRow("no header") << "qkv,forward,1 ms\n" << "ops.csv:1:1: the first line must be the header";
    QTest::newRow("unknown operation") << "operation,pass,time\nqvk,forward,1 ms\n"
                                       << "ops.csv:2:1: unknown operation 'qvk' (did you mean 'qkv'?)";
    QTest::newRow("bad pass") << "operation,pass,time\nqkv,  fwd,1 ms\n"
                              << "ops.csv:2:7: pass must be forward or backward, not 'fwd'";
    QTest::newRow("no unit") << "operation,pass,time\nqkv,forward,1\n" << "ops.csv:2:13: time: '1' has no unit";
    QTest::newRow("wrong unit") << "operation,pass,time\nqkv,forward,1 GB\n"
                                << "ops.csv:2:13: time: 'GB' is a unit of a size";
    QTest::newRow("too long") << "operation,pass,time\nqkv,forward,2 h\n" << "ops.csv:2:13: time: unknown unit 'h'";
    QTest::newRow("absurd") << "operation,pass,time\nqkv,forward,7200 s\n"
                            << "ops.csv:2:13: time must be between 0 s and 1 hour";
    QTest::newRow("field count") << "operation,pass,time\nqkv,forward\n"
                                 << "ops.csv:2:1: expected 3 fields (operation,pass,time), found 2";
    QTest::newRow("twice") << "operation,pass,time\nqkv,forward,1 ms\nqkv,forward,2 ms\n"
                           << "ops.csv:3:1: qkv forward is measured twice (first at line 2)";
}

void TestMeasuredOperations::errors() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    Diagnostics diagnostics;
    (void)parse_measured_operations(text.toStdString(), "ops.csv", diagnostics);
    QCOMPARE(diagnostics.size(), std::size_t{1});
    const QString actual = QString::fromStdString(diagnostics.front().to_string());
    QVERIFY2(actual.startsWith(expected), qPrintable(actual));
}

void TestMeasuredOperations::simulationUsesMeasuredTimes() {
    const LoadResult loaded = load_scenario_file(PARASIGHT_TEST_DATA_DIR "/measured/measured.yaml");
    QVERIFY(loaded.ok());
    const auto graph = compile_scenario(*loaded.scenario, CompileOptions{});
    QVERIFY(graph.has_value());
    // The attention block forward is layernorm 0.0625 + qkv 0.5 + scores 0.25 + softmax 0.125 + values 0.25 +
    // out 0.25 + dropout 0.0625 = 1.5 ms; the MLP block layernorm 0.0625 + up 1 + activation 0.125 + down 1 +
    // dropout 0.0625 = 2.25 ms — each measured operation replaces the roofline wherever it recurs (the two
    // LayerNorms and dropouts share one measurement).
    int checked = 0;
    for (const Task& task : graph->tasks) {
        const std::string& label = graph->labels[static_cast<std::size_t>(task.label)];
        if (task.kind != TaskKind::forward) continue;
        if (label == "attention") {
            QVERIFY(std::abs(task.work_s - 1.5e-3) <= 1e-15);  // sums of milliseconds: equal to rounding
            ++checked;
        }
        if (label == "mlp") {
            QVERIFY(std::abs(task.work_s - 2.25e-3) <= 1e-15);
            ++checked;
        }
    }
    QCOMPARE(checked, 2);
    // qkv backward is measured (1 ms); the rest of the attention backward stays on the roofline, so the block takes
    // 1 ms plus what the roofline gives the other operations — more than 1 ms, and not the roofline's qkv.
    for (const Task& task : graph->tasks) {
        if (graph->labels[static_cast<std::size_t>(task.label)] == "attention backward") QVERIFY(task.work_s > 1e-3);
    }
}

void TestMeasuredOperations::missingTableIsReportedAtTheKey() {
    const std::string file = PARASIGHT_TEST_DATA_DIR "/measured/missing-table.yaml";
    const LoadResult loaded = load_scenario_file(file);
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.diagnostics.size(), std::size_t{1});
    // Line 8: simulation: {measured_operations: no-such-table.csv}; the value starts at column 35.
    QCOMPARE(loaded.diagnostics.front().location.line, 8);
    QCOMPARE(loaded.diagnostics.front().location.column, 35);
    QCOMPARE(QString::fromStdString(loaded.diagnostics.front().message),
             QStringLiteral("cannot read the measured operations table '" PARASIGHT_TEST_DATA_DIR
                            "/measured/no-such-table.csv': it does not exist"));
}

void TestMeasuredOperations::roundTripKeepsThePath() {
    const std::string file = PARASIGHT_TEST_DATA_DIR "/measured/measured.yaml";
    const LoadResult loaded = load_scenario_file(file);
    QVERIFY(loaded.ok());
    // Read back from the original's folder, the path still resolves and the Scenario reads back equal.
    const LoadResult again =
        load_scenario_text(write_scenario_yaml(loaded.scenario->value()), file, PARASIGHT_TEST_DATA_DIR "/measured");
    QVERIFY(again.ok());
    QVERIFY(*again.scenario == *loaded.scenario);
    QCOMPARE(QString::fromStdString(again.scenario->value().simulation.measured_operations), QStringLiteral("layer-ops.csv"));
}

void TestMeasuredOperations::relocatedPathsNameTheSameFile_data() {
    QTest::addColumn<QString>("written");   // in the file read
    QTest::addColumn<QString>("from");      // its folder
    QTest::addColumn<QString>("absolute");  // as an editor holds it
    QTest::addColumn<QString>("to");        // the folder it is saved to
    QTest::addColumn<QString>("rewritten");
    QTest::newRow("into a subfolder") << "ops.csv" << "/srv/team/runs" << "/srv/team/runs/ops.csv"
                                      << "/srv/team/runs/v2" << "../ops.csv";
    QTest::newRow("out of a subfolder") << "tables/ops.csv" << "/srv/team/runs" << "/srv/team/runs/tables/ops.csv"
                                        << "/srv/team" << "runs/tables/ops.csv";
    QTest::newRow("elsewhere") << "../ops.csv" << "/srv/team/runs" << "/srv/team/ops.csv" << "/home/me"
                               << "../../srv/team/ops.csv";
    QTest::newRow("same folder") << "./ops.csv" << "/srv/team/runs" << "/srv/team/runs/ops.csv" << "/srv/team/runs"
                                 << "ops.csv";
    QTest::newRow("written absolute") << "/data/ops.csv" << "/srv/team/runs" << "/data/ops.csv" << "/data"
                                      << "ops.csv";
    // Never read from a file: nothing to resolve a relative path against, so it is kept as written (and the
    // loader says it needs a full path).
    QTest::newRow("no folder") << "ops.csv" << "" << "ops.csv" << "/home/me" << "ops.csv";
    QTest::newRow("none") << "" << "/srv/team/runs" << "" << "/home/me" << "";
}

void TestMeasuredOperations::relocatedPathsNameTheSameFile() {
    QFETCH(QString, written);
    QFETCH(QString, from);
    QFETCH(QString, absolute);
    QFETCH(QString, to);
    QFETCH(QString, rewritten);
    Scenario scenario;
    scenario.simulation.measured_operations = written.toStdString();
    scenario.simulation.measured_times_s = {{"qkv forward", 1e-3}};
    const Scenario held = with_absolute_paths(scenario, from.toStdString());
    QCOMPARE(QString::fromStdString(held.simulation.measured_operations), absolute);
    const Scenario saved = with_relative_paths(held, to.toStdString());
    QCOMPARE(QString::fromStdString(saved.simulation.measured_operations), rewritten);
    QVERIFY(saved.simulation.measured_times_s == scenario.simulation.measured_times_s);  // only the path moves
}

void TestMeasuredOperations::textWithoutAFolderNeedsAFullPath() {
    // An unsaved scenario (text with no folder) cannot resolve a relative table path: it says so at the key,
    // instead of looking in whatever the current directory is.
    const std::string file = PARASIGHT_TEST_DATA_DIR "/measured/measured.yaml";
    const LoadResult loaded = load_scenario_file(file);
    QVERIFY(loaded.ok());
    const std::string text = write_scenario_yaml(loaded.scenario->value());
    const LoadResult unsaved = load_scenario_text(text, "unsaved scenario");
    QVERIFY(!unsaved.ok());
    QCOMPARE(unsaved.diagnostics.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(unsaved.diagnostics.front().message),
             QStringLiteral("the measured operations table 'layer-ops.csv' is a relative path, but this scenario has "
                            "no folder (it was not read from a file); give the table's full path, or save the "
                            "scenario first"));
    // The table's rows are part of the Scenario: the loaded value simulates the same in memory as from its file.
    const auto from_file = simulate(*loaded.scenario, SimulateOptions{});
    const auto in_memory = simulate(loaded.scenario->value(), SimulateOptions{});
    QVERIFY(from_file.has_value() && in_memory.has_value());
    QCOMPARE(in_memory->report.iteration_time_s, from_file->report.iteration_time_s);
}

QTEST_APPLESS_MAIN(TestMeasuredOperations)
#include "test_measured_operations.moc"

// The scenario document (widgets/document/): every edit is undoable and undo restores the value exactly; edits of
// one field in a row merge into one step; every change is validated, an invalid value carrying the loader's message
// at its scenario path; open → edit → save → reopen round-trips, and a failed save changes nothing. The value handed
// to workers (sharedScenario) is never changed by a later edit.

#include "document/scenario_document.h"

#include "presets/preset_library.h"
#include "scenario_file/scenario_loader.h"
#include "scenario_file/sweep_section.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using parasight::Diagnostics;
using parasight::Scenario;
using parasight::gui::ScenarioDocument;

namespace {

using Edit = std::function<void(Scenario&)>;

// The bundled default scenario: GPT-3 175B, global_batch 1536, micro_batch 1, tp 8 · pp 16 · dp 8 on 1024 A100s.
void open_default(ScenarioDocument& document) {
    const parasight::Preset* preset = parasight::find_preset(parasight::PresetKind::scenario, "default");
    QVERIFY(preset != nullptr);
    Diagnostics problems;
    QVERIFY(document.openText(preset->text, std::string(preset->file), problems));
    QVERIFY(problems.empty());
}

QString first_problem(const ScenarioDocument& document) {
    return document.problems().empty() ? QString() : QString::fromStdString(document.problems().front().to_string());
}

}  // namespace

Q_DECLARE_METATYPE(Edit)

class TestScenarioDocument : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void editAndUndo_data();
    void editAndUndo();
    void editsOfOneFieldMerge();
    void anEditThatChangesNothingIsNoStep();
    void saveAndReopen();
    void aTopologyEditKeepsTheSavedNamesTrue();
    void saveAsElsewhereKeepsTheTable();
    void savingKeepsTheSweepSection();
    void failedSaveChangesNothing();
    void openReportsTheLoadersProblems();
    void aLockedDocumentRefusesEdits();
};

void TestScenarioDocument::editAndUndo_data() {
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<QString>("problem");  // the first diagnostic "path: message", or empty when still valid
    QTest::newRow("global batch") << Edit([](Scenario& s) { s.training.global_batch = 3072; }) << QString();
    QTest::newRow("micro batch") << Edit([](Scenario& s) { s.training.micro_batch = 2; }) << QString();
    QTest::newRow("zero stage") << Edit([](Scenario& s) { s.parallelism.zero = 3; }) << QString();
    QTest::newRow("recompute") << Edit([](Scenario& s) { s.parallelism.recompute = parasight::Recompute::full; })
                               << QString();
    QTest::newRow("device memory") << Edit([](Scenario& s) { s.cluster.device.memory_bytes = 40.0 * (1 << 30); })
                                   << QString();
    QTest::newRow("overlap slowdown") << Edit([](Scenario& s) { s.simulation.overlap_slowdown = 0.25; }) << QString();
    // tp 4 · pp 16 · dp 8 = 512, not the 1024 devices of the topology.
    QTest::newRow("tp that does not fit")
        << Edit([](Scenario& s) { s.parallelism.tp = 4; })
        << QStringLiteral("parallelism: the parallel degrees multiply to 512 (tp=4 x dp=8 x pp=16) but the cluster has "
                          "1024 devices (8 x 128); change a degree or write one of them as 'auto'");
    QTest::newRow("zero micro-batch") << Edit([](Scenario& s) { s.training.micro_batch = 0; })
                                      << QStringLiteral("training.micro_batch must be between 1 and 10000000, not 0");
}

void TestScenarioDocument::editAndUndo() {
    QFETCH(Edit, edit);
    QFETCH(QString, problem);
    ScenarioDocument document;
    open_default(document);
    const Scenario original = document.scenario();
    QVERIFY(document.validated() != nullptr);
    QVERIFY(!document.isModified());
    QSignalSpy changed(&document, &ScenarioDocument::scenarioChanged);
    QSignalSpy modified(&document, &ScenarioDocument::modifiedChanged);
    // What a worker was handed before the edit keeps the value it had (shared, never changed).
    const std::shared_ptr<const Scenario> shared_before = document.sharedScenario();

    document.edit(QStringLiteral("edit"), QString(), edit);
    Scenario expected = original;
    edit(expected);
    QVERIFY(document.scenario() == expected);
    QVERIFY(*shared_before == original);
    QVERIFY(*document.sharedScenario() == expected);
    QCOMPARE(&document.scenario(), document.sharedScenario().get());
    QCOMPARE(changed.count(), 1);
    QVERIFY(document.isModified());
    QCOMPARE(modified.count(), 1);
    if (problem.isEmpty()) {
        QVERIFY2(document.problems().empty(), qPrintable(first_problem(document)));
        QVERIFY(document.validated() != nullptr);
    } else {
        QVERIFY(document.validated() == nullptr);
        QCOMPARE(first_problem(document), problem);
    }

    document.undoStack()->undo();
    QVERIFY(document.scenario() == original);
    QVERIFY(document.validated() != nullptr);
    QVERIFY(document.problems().empty());
    QVERIFY(!document.isModified());
    document.undoStack()->redo();
    QVERIFY(document.scenario() == expected);
    QCOMPARE(changed.count(), 3);
}

void TestScenarioDocument::editsOfOneFieldMerge() {
    ScenarioDocument document;
    open_default(document);
    const Scenario original = document.scenario();
    // Typing 3, 30, 307, 3072 into one field: four edits with one key, one undo step.
    for (const std::int64_t batch : {3, 30, 307, 3072}) {
        document.edit(QStringLiteral("global batch"), QStringLiteral("training.global_batch"),
                      [batch](Scenario& s) { s.training.global_batch = batch; });
    }
    // Then another field: a step of its own.
    document.edit(QStringLiteral("micro batch"), QStringLiteral("training.micro_batch"),
                  [](Scenario& s) { s.training.micro_batch = 2; });
    QCOMPARE(document.undoStack()->count(), 2);
    QCOMPARE(document.scenario().training.global_batch, std::int64_t{3072});
    document.undoStack()->undo();
    QCOMPARE(document.scenario().training.micro_batch, 1);
    QCOMPARE(document.scenario().training.global_batch, std::int64_t{3072});
    document.undoStack()->undo();
    QVERIFY(document.scenario() == original);
    // Edits without a key never merge.
    document.edit(QStringLiteral("a"), QString(), [](Scenario& s) { s.training.global_batch = 768; });
    document.edit(QStringLiteral("b"), QString(), [](Scenario& s) { s.training.global_batch = 384; });
    QCOMPARE(document.undoStack()->count(), 2);
}

void TestScenarioDocument::anEditThatChangesNothingIsNoStep() {
    ScenarioDocument document;
    open_default(document);
    QSignalSpy changed(&document, &ScenarioDocument::scenarioChanged);
    document.edit(QStringLiteral("same"), QString(), [](Scenario& s) { s.training.global_batch = 1536; });
    QCOMPARE(document.undoStack()->count(), 0);
    QCOMPARE(changed.count(), 0);
    QVERIFY(!document.isModified());
}

void TestScenarioDocument::saveAndReopen() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("edited.yaml"));
    ScenarioDocument document;
    open_default(document);
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 3072; });
    QSignalSpy renamed(&document, &ScenarioDocument::filePathChanged);
    const auto error = document.saveAs(path);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    QCOMPARE(document.filePath(), path);
    QCOMPARE(renamed.count(), 1);
    QCOMPARE(document.displayName(), QStringLiteral("edited.yaml"));
    QVERIFY(!document.isModified());
    // What was saved loads back, through the same loader the command line uses, to the same scenario.
    const parasight::LoadResult reloaded = parasight::load_scenario_file(path.toStdString());
    QVERIFY2(reloaded.ok(), reloaded.ok() ? "" : reloaded.diagnostics.front().to_string().c_str());
    QVERIFY(reloaded.scenario->value() == document.validated()->value());
    ScenarioDocument reopened;
    Diagnostics problems;
    QVERIFY(reopened.openFile(path, problems));
    QVERIFY(reopened.scenario() == document.scenario());
    QCOMPARE(reopened.undoStack()->count(), 0);
}

// "GPT-3 175B on 1024 A100-80GB" and "128 x DGX A100 (1024 GPUs)" survived an edit to 8 × 64 = 512 devices into
// the saved file (scenario/scenario_names.h).
void TestScenarioDocument::aTopologyEditKeepsTheSavedNamesTrue() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("half.yaml"));
    ScenarioDocument document;
    open_default(document);
    document.edit(QStringLiteral("nodes"), QString(), [](Scenario& s) {
        s.cluster.topology[1].size = 64;
        s.parallelism.dp = 4;
    });
    QCOMPARE(document.scenario().name, std::string("GPT-3 175B on 512 A100-80GB SXM4"));
    QVERIFY(!document.saveAs(path));
    const parasight::ReadResult saved = parasight::read_scenario_file(path.toStdString());
    QVERIFY(saved.scenario.has_value());
    QCOMPARE(saved.scenario->name, std::string("GPT-3 175B on 512 A100-80GB SXM4"));
    QCOMPARE(saved.scenario->cluster.name, std::string("512 x A100-80GB SXM4 (8 x 64)"));
    // Undo brings the names back with the topology.
    document.undoStack()->undo();
    QCOMPARE(document.scenario().name, std::string("GPT-3 175B on 1024 A100-80GB"));
    QCOMPARE(document.scenario().cluster.name, std::string("128 x DGX A100 (1024 GPUs)"));
}

void TestScenarioDocument::savingKeepsTheSweepSection() {
    // sweep_section.yaml: tp zipped with micro-batch, times two bandwidths. Edited and saved, the file keeps it.
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openFile(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/sweep_section.yaml"), problems));
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 32; });
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("saved.yaml"));
    const auto error = document.saveAs(path);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));
    const parasight::SweepSectionRead read = parasight::read_sweep_section_file(path.toStdString());
    QVERIFY(read.diagnostics.empty());
    QVERIFY(read.section);
    QCOMPARE(read.section->axes.size(), std::size_t{3});
    QCOMPARE(read.section->axes[0].values, (std::vector<std::string>{"1", "2", "4"}));
    QVERIFY(read.section->axes[1].zipped_with_previous);
    QCOMPARE(read.section->axes[2].text, std::string("25..50 GB/s +25 GB/s"));
    const parasight::LoadResult reloaded = parasight::load_scenario_file(path.toStdString());
    QVERIFY(reloaded.ok());
    QCOMPARE(reloaded.scenario->value().training.global_batch, std::int64_t{32});
    // A document opened from text has no section to keep.
    QFile small(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"));
    QVERIFY(small.open(QIODevice::ReadOnly));
    QVERIFY(document.openText(small.readAll().toStdString(), "new.yaml", problems));
    const QString second = directory.filePath(QStringLiteral("second.yaml"));
    QVERIFY(!document.saveAs(second));
    QVERIFY(!parasight::read_sweep_section_file(second.toStdString()).section);
}

void TestScenarioDocument::saveAsElsewhereKeepsTheTable() {
    // measured.yaml names its table "layer-ops.csv", next to it. Saved into another folder, the copy must name
    // the same table from there — relative to its own folder — and load back to the same scenario.
    const QString original = QStringLiteral(PARASIGHT_TEST_DATA_DIR "/measured/measured.yaml");
    ScenarioDocument document;
    Diagnostics problems;
    QVERIFY(document.openFile(original, problems));
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    QVERIFY(QDir(directory.path()).mkpath(QStringLiteral("copies")));
    const QString copy = directory.filePath(QStringLiteral("copies/measured.yaml"));
    const auto error = document.saveAs(copy);
    QVERIFY2(!error, qPrintable(error.value_or(QString())));

    const QString table = QStringLiteral(PARASIGHT_TEST_DATA_DIR "/measured/layer-ops.csv");
    const QString expected = QDir(directory.filePath(QStringLiteral("copies"))).relativeFilePath(table);
    QVERIFY(expected.startsWith(QStringLiteral("../")));
    QFile saved(copy);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY2(saved.readAll().contains(("measured_operations: " + expected).toUtf8()), qPrintable(expected));

    const parasight::LoadResult from_copy = parasight::load_scenario_file(copy.toStdString());
    const parasight::LoadResult from_original = parasight::load_scenario_file(original.toStdString());
    QVERIFY(from_copy.ok() && from_original.ok());
    QVERIFY(from_copy.scenario->value().simulation.measured_times_s ==
            from_original.scenario->value().simulation.measured_times_s);
    ScenarioDocument reopened;
    QVERIFY(reopened.openFile(copy, problems));
    QVERIFY(reopened.scenario() == document.scenario());  // both hold the table's absolute path
}

void TestScenarioDocument::failedSaveChangesNothing() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    ScenarioDocument document;
    open_default(document);
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 3072; });
    // A folder that does not exist: refused, and the document keeps its (lack of a) file and its changes.
    const auto error = document.saveAs(directory.filePath(QStringLiteral("missing/edited.yaml")));
    QVERIFY(error.has_value());
    QVERIFY2(error->startsWith(QStringLiteral("its folder '")) && error->endsWith(QStringLiteral("No such file or directory")),
             qPrintable(*error));
    QVERIFY(document.filePath().isEmpty());
    QVERIFY(document.isModified());
}

void TestScenarioDocument::openReportsTheLoadersProblems() {
    QTemporaryDir directory;
    QVERIFY(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("bad.yaml"));
    QVERIFY(write_test_file(path, "schema: 1\nmodel: gpt2-small\ntraining: {global_batch: 8, micro_bach: 1}\n"));
    ScenarioDocument document;
    open_default(document);
    const Scenario before = document.scenario();
    Diagnostics problems;
    QVERIFY(!document.openFile(path, problems));
    QVERIFY(!problems.empty());
    // The unknown key, at its line and column (`training: {global_batch: 8, ` is 28 characters), as the command line
    // prints it.
    QVERIFY2(QString::fromStdString(problems.front().to_string())
                 .startsWith(path + QStringLiteral(":3:29: unknown key 'micro_bach'")),
             problems.front().to_string().c_str());
    QVERIFY(document.scenario() == before);
}


// A lesson step's lock: an edit is refused — editRefused, and scenarioChanged for the views to show the value again —
// nothing to undo; unlocked, the same edit goes through; opening another scenario unlocks.
void TestScenarioDocument::aLockedDocumentRefusesEdits() {
    ScenarioDocument document;
    open_default(document);
    QSignalSpy locked(&document, &ScenarioDocument::lockedChanged);
    QSignalSpy refused(&document, &ScenarioDocument::editRefused);
    QSignalSpy changed(&document, &ScenarioDocument::scenarioChanged);
    document.setLocked(true);
    QCOMPARE(locked.size(), 1);
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 3072; });
    QCOMPARE(document.scenario().training.global_batch, std::int64_t{1536});
    QCOMPARE(refused.size(), 1);
    QCOMPARE(changed.size(), 1);
    QVERIFY(!document.undoStack()->canUndo());
    QVERIFY(!document.isModified());
    document.setLocked(false);
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 3072; });
    QCOMPARE(document.scenario().training.global_batch, std::int64_t{3072});
    QCOMPARE(refused.size(), 1);
    document.setLocked(true);
    open_default(document);
    QVERIFY(!document.isLocked());
}

QTEST_MAIN(TestScenarioDocument)
#include "test_scenario_document.moc"

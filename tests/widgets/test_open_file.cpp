// Opening a scenario file in the window (main_window/open_file_page.h, document/scenario_file_loader.h): the file is
// read on a worker while a page in place of the tabs says so, with Cancel; a file that does not load keeps its name
// on that page with its own problems only — not a zeroed "Untitled" scenario with the empty scenario's problems —
// and offers to edit it, reload it, open another or go back; a cancelled read changes nothing; a list of 100 008
// problems is cut to what a person reads. Headless (offscreen).

#include "main_window/main_window.h"
#include "main_window/open_file_page.h"
#include "problems/problem_list_model.h"
#include "scenario_form/scenario_form.h"

#include "largest_strategy_tree.h"
#include "open_file.h"
#include "test_files.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using parasight::Diagnostic;
using parasight::Diagnostics;
using parasight::gui::MainWindow;
using parasight::gui::OpenFilePage;
using parasight::gui::ProblemListModel;
using parasight::testing::open_and_wait;

namespace {

QString bad_file() { return QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/bad.yaml"); }

QPushButton* button(const OpenFilePage& page, const QString& text_start) {
    for (QPushButton* candidate : page.findChildren<QPushButton*>()) {
        if (!candidate->isHidden() && candidate->text().remove(u'&').startsWith(text_start)) return candidate;
    }
    return nullptr;
}

// The largest strategy tree a scenario may hold, written into `folder`: its path, or empty if it was not written.
QString write_largest_tree(const QTemporaryDir& folder) {
    const QString path = folder.filePath(QStringLiteral("largest.yaml"));
    if (!write_test_file(path, QByteArray::fromStdString(parasight::testing::scenario_with_largest_strategy_tree()))) {
        return {};
    }
    return path;
}

QStringList listed(const ProblemListModel& model) {
    QStringList rows;
    for (int row = 0; row < model.rowCount(); ++row) rows << model.index(row, 0).data().toString();
    return rows;
}

}  // namespace

class TestOpenFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void aFileThatDoesNotLoadKeepsItsName_data();
    void aFileThatDoesNotLoadKeepsItsName();
    void aFailedOpenGoesBackToTheScenarioBehind();
    void aLargeFileIsReadOnAWorker();
    void aCancelledReadChangesNothing();
    void manyProblemsAreCutShort();
};

void TestOpenFile::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("ParaSight tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_open_file"));
}

// What a user passing a broken file on the command line sees. Before, the window opened a zeroed "Untitled" scenario
// whose 8 problems (no model, no cluster, …) had nothing to do with the file.
void TestOpenFile::aFileThatDoesNotLoadKeepsItsName_data() {
    QTest::addColumn<QString>("file");        // BAD: tests/data/cli/bad.yaml; MISSING: a file that is not there
    QTest::addColumn<QStringList>("problems");  // each listed problem's start after "FILE:"
    QTest::newRow("a misspelt key and a unit") << QStringLiteral("BAD")
                                               << QStringList{QStringLiteral("7:3: unknown key 'micro_bach'"),
                                                              QStringLiteral("11:40: cluster.topology[0].bandwidth")};
    QTest::newRow("a file that is not there") << QStringLiteral("MISSING")
                                              << QStringList{QStringLiteral(" cannot load the scenario: it does not exist")};
}

void TestOpenFile::aFileThatDoesNotLoadKeepsItsName() {
    QFETCH(QString, file);
    QFETCH(QStringList, problems);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString path = file == QStringLiteral("BAD") ? bad_file() : folder.filePath(QStringLiteral("gone.yaml"));
    MainWindow window;
    window.show();
    QVERIFY(!open_and_wait(window, path));

    OpenFilePage* page = window.openFilePage();
    QVERIFY(page != nullptr);
    const QString name = QFileInfo(path).fileName();
    QCOMPARE(page->headline(), QStringLiteral("%1 could not be opened").arg(name));
    QVERIFY2(window.windowTitle().contains(name), qPrintable(window.windowTitle()));
    // Its own problems, located in it, and nothing of the empty scenario behind the page.
    const QStringList rows = listed(*page->problems());
    QCOMPARE(rows.size(), problems.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QVERIFY2(rows[i].startsWith(path + u':' + problems[i]), qPrintable(rows[i]));
    }
    // The Problems panel does not repeat them, and the form of the scenario behind the page cannot be edited.
    auto* problems_dock = window.findChild<QListView*>(QStringLiteral("ProblemsList"))->parentWidget();
    QVERIFY(problems_dock->isHidden());
    QVERIFY(!window.scenarioForm()->isEnabled());
    // What to do next; with no scenario opened before, Back starts a new one.
    QVERIFY(button(*page, QStringLiteral("Reload")) != nullptr);
    QVERIFY(button(*page, QStringLiteral("Open Another File")) != nullptr);
    QPushButton* edit = button(*page, QStringLiteral("Open in Text Editor"));
    QVERIFY(edit != nullptr);
    QCOMPARE(edit->isEnabled(), QFileInfo::exists(path));
    QPushButton* back = button(*page, QStringLiteral("New Scenario"));
    QVERIFY(back != nullptr);
    back->click();
    QVERIFY(window.openFilePage() == nullptr);
    QVERIFY(window.document().validated() != nullptr);  // the bundled default scenario
    QVERIFY(window.scenarioForm()->isEnabled());
}

void TestOpenFile::aFailedOpenGoesBackToTheScenarioBehind() {
    MainWindow window;
    window.setAutoRun(false);
    QVERIFY(open_and_wait(window, QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")));
    QVERIFY(!open_and_wait(window, bad_file()));
    QPushButton* back = button(*window.openFilePage(), QStringLiteral("Back to small_pipeline.yaml"));
    QVERIFY(back != nullptr);
    back->click();
    QVERIFY(window.openFilePage() == nullptr);
    QCOMPARE(QFileInfo(window.document().filePath()).fileName(), QStringLiteral("small_pipeline.yaml"));
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("small_pipeline.yaml")));
    // Reload reads the file again: still broken, still its problems.
    QVERIFY(!open_and_wait(window, bad_file()));
    QSignalSpy opened(&window, &MainWindow::fileOpened);
    button(*window.openFilePage(), QStringLiteral("Reload"))->click();
    QVERIFY(opened.wait(30000));
    QCOMPARE(opened.last().at(1).toBool(), false);
    QCOMPARE(window.openFilePage()->problems()->rowCount(), 2);
}

// The largest strategy tree a scenario may hold takes a second or more to read: the window says so at once and the
// document changes only when the worker has read it (before, the window read it before it appeared: 8 s).
void TestOpenFile::aLargeFileIsReadOnAWorker() {
    QTemporaryDir folder;
    const QString path = write_largest_tree(folder);
    QVERIFY(!path.isEmpty());
    MainWindow window;
    window.setAutoRun(false);
    window.openDefaultScenario();
    QSignalSpy opened(&window, &MainWindow::fileOpened);
    window.openFile(path);
    // Returned before reading: the page says what is being opened, the document is still the one before.
    QVERIFY(window.openFilePage() != nullptr);
    QCOMPARE(window.openFilePage()->headline(), QStringLiteral("Opening largest.yaml…"));
    QVERIFY(button(*window.openFilePage(), QStringLiteral("Cancel")) != nullptr);
    QVERIFY(window.document().filePath().isEmpty());
    QVERIFY(opened.wait(60000));
    QCOMPARE(opened.last().at(1).toBool(), true);
    QVERIFY(window.openFilePage() == nullptr);
    QCOMPARE(window.document().filePath(), QFileInfo(path).canonicalFilePath());
    QCOMPARE(window.document().scenario().strategy_tree.size(), std::size_t{100'000});
    QVERIFY(window.document().validated() != nullptr);
}

void TestOpenFile::aCancelledReadChangesNothing() {
    QTemporaryDir folder;
    const QString path = write_largest_tree(folder);
    QVERIFY(!path.isEmpty());
    MainWindow window;
    window.setAutoRun(false);
    QVERIFY(open_and_wait(window, QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")));
    const QString before = window.document().filePath();
    QSignalSpy opened(&window, &MainWindow::fileOpened);
    window.openFile(path);
    button(*window.openFilePage(), QStringLiteral("Cancel"))->click();
    QCOMPARE(opened.size(), 1);  // at once
    QCOMPARE(opened.last().at(1).toBool(), false);
    QCOMPARE(window.openFilePage()->headline(), QStringLiteral("Opening largest.yaml was cancelled"));
    // The read still finishing on the worker is never adopted.
    QTRY_VERIFY_WITH_TIMEOUT(!window.fileLoader().isLoading(), 1000);
    QTest::qWait(3000);
    QCOMPARE(window.document().filePath(), before);
    QCOMPARE(opened.size(), 1);
    button(*window.openFilePage(), QStringLiteral("Back to small_pipeline.yaml"))->click();
    QVERIFY(window.openFilePage() == nullptr);
}

// 100 000 unknown keys are 100 008 problems: the window listed them all in a word-wrapped list, which took seconds
// to lay out. The first 200 are listed, then one row says how many more.
void TestOpenFile::manyProblemsAreCutShort() {
    ProblemListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Diagnostics problems;
    for (int i = 0; i < 100'008; ++i) {
        problems.push_back(Diagnostic{parasight::SourceLocation{"big.yaml", i + 4, 3},
                                      "unknown key 'key" + std::to_string(i) + "' in model", "model"});
    }
    model.setProblems(problems);
    QCOMPARE(model.rowCount(), ProblemListModel::max_listed + 1);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("big.yaml:4:3: unknown key 'key0' in model"));
    QCOMPARE(model.index(ProblemListModel::max_listed - 1, 0).data().toString(),
             QStringLiteral("big.yaml:203:3: unknown key 'key199' in model"));
    // 100 008 − 200 = 99 808.
    QCOMPARE(model.index(ProblemListModel::max_listed, 0).data().toString(),
             QStringLiteral("…and 99808 more problems, not listed here (parasight-cli validate lists every one)"));
    QCOMPARE(model.index(ProblemListModel::max_listed, 0).data(ProblemListModel::PathRole), QVariant());
    QCOMPARE(model.problems().size(), std::size_t{100'008});
    // Up to the limit, every problem is a row.
    problems.resize(ProblemListModel::max_listed);
    model.setProblems(problems);
    QCOMPARE(model.rowCount(), ProblemListModel::max_listed);
}

QTEST_MAIN(TestOpenFile)
#include "test_open_file.moc"

// Autosave and crash recovery (widgets/document/autosave.h): a document with unsaved changes is copied to the data
// folder a few seconds after each change; a save, an undo back to the saved state or a clean exit removes the copy;
// a copy left by a session that really died (this test binary run again, killed by _Exit before any destructor) is
// offered, recovered as an unsaved scenario belonging to its file — invalid values included — and then removed.
// Headless (offscreen).

#include "document/autosave.h"
#include "document/scenario_document.h"
#include "main_window/main_window.h"
#include "problems/problem_list_model.h"

#include "scenario_file/scenario_loader.h"
#include "test_files.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QUrl>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <memory>

using parasight::Diagnostics;
using parasight::Scenario;
using parasight::gui::Autosave;
using parasight::gui::LeftAutosave;
using parasight::gui::MainWindow;
using parasight::gui::ScenarioDocument;

namespace {

const char* const crash_folder_variable = "PARASIGHT_TEST_CRASH_FOLDER";  // set: this run is the crashing session
const char* const crash_file_variable = "PARASIGHT_TEST_CRASH_FILE";

QString default_scenario_file(const QString& folder) {
    ScenarioDocument document;
    const parasight::Preset* preset = parasight::find_preset(parasight::PresetKind::scenario, "default");
    Diagnostics problems;
    if (preset == nullptr || !document.openText(preset->text, std::string(preset->file), problems)) return {};
    const QString path = QDir(folder).filePath(QStringLiteral("mine.yaml"));
    if (document.saveAs(path)) return {};
    // With a sweep section, which the copy and the recovered document keep.
    QFile file(path);
    if (!file.open(QIODevice::Append)) return {};
    file.write("sweep:\n  axes:\n    - parallelism.tp: [4, 8]\n");
    return path;
}

// The edits the crashing session makes: a valid one, then one that leaves the scenario invalid (micro-batch 0).
void make_unsaved_edits(ScenarioDocument& document) {
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 3072; });
    document.edit(QStringLiteral("micro"), QString(), [](Scenario& s) { s.training.micro_batch = 0; });
}

// A session that opens the file, edits it, is autosaved and dies without running a destructor.
int crashing_session(int argc, char** argv) {
    QCoreApplication application(argc, argv);
    ScenarioDocument document;
    Diagnostics problems;
    if (!document.openFile(qEnvironmentVariable(crash_file_variable), problems)) return 3;
    Autosave autosave(document, qEnvironmentVariable(crash_folder_variable));
    make_unsaved_edits(document);
    autosave.writeNow();
    if (!autosave.error().isEmpty() || !QFile::exists(autosave.path())) return 4;
    std::_Exit(0);  // as a crash would: the lock file stays, naming a process that no longer runs
}

// A saved file opened in a session with its autosave, in a folder of its own.
struct OpenedSession {
    QTemporaryDir folder;
    QString file = default_scenario_file(folder.path());
    QString copies = folder.filePath(QStringLiteral("autosave"));
    ScenarioDocument document;
    std::unique_ptr<Autosave> autosave;

    // False if the file could not be made or opened.
    bool open() {
        Diagnostics problems;
        if (file.isEmpty() || !document.openFile(file, problems)) return false;
        autosave = std::make_unique<Autosave>(document, copies);
        return true;
    }
    [[nodiscard]] QStringList filesInCopies() const {
        return QDir(copies).entryList(QDir::Files | QDir::Hidden);
    }
};

// The same with unsaved edits, autosaved once.
struct EditedSession : OpenedSession {
    bool start() {
        if (!open()) return false;
        make_unsaved_edits(document);
        autosave->writeNow();
        return autosave->error().isEmpty();
    }
};

}  // namespace

class TestAutosave : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void anEditIsCopiedAfterAPause();
    void aSingleEditIsCopied();
    void savingOrUndoingRemovesTheCopy();
    void aCleanExitRemovesTheCopy();
    void aRunningSessionsCopyIsNotOffered();
    void aCrashedSessionsCopyIsRecovered();
    void aDiscardedCopyIsGone();
    void anUnreadableCopyIsKept();
    void recoveredChangesAreProtectedAgain();
    void aFileOpenedByARelativePathIsRecoveredToItself();
    void aCopyNamingARelativePathIsRecoveredUntitled();
};

void TestAutosave::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("ParaSight tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_autosave"));
}

void TestAutosave::anEditIsCopiedAfterAPause() {
    OpenedSession session;
    QVERIFY(session.open());
    const QString& file = session.file;
    ScenarioDocument& document = session.document;
    const Autosave& autosave = *session.autosave;
    make_unsaved_edits(document);
    QVERIFY(!QFile::exists(autosave.path()));  // not at once: after the pause
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave.path()), Autosave::delay_ms + 5000);
    // The copy: its first line names the file (percent-encoded), the rest is the scenario as it is, invalid value
    // included.
    QFile copy(autosave.path());
    QVERIFY(copy.open(QIODevice::ReadOnly));
    const QByteArray text = copy.readAll();
    QVERIFY(text.startsWith("# ParaSight autosave of: " + QUrl::toPercentEncoding(file) + "\n"));
    const parasight::ReadResult read = parasight::read_scenario_text(text.toStdString(), "copy");
    QVERIFY2(read.scenario.has_value(), read.diagnostics.empty() ? "" : read.diagnostics.front().to_string().c_str());
    QVERIFY(*read.scenario == document.scenario());
    QCOMPARE(read.scenario->training.micro_batch, 0);
}

// The first edit after opening or saving changes the value before the undo stack counts as modified, so the copy's
// timer, started only on a value change while modified, never ran: a single edit was never copied.
void TestAutosave::aSingleEditIsCopied() {
    OpenedSession session;
    QVERIFY(session.open());
    ScenarioDocument& document = session.document;
    const Autosave& autosave = *session.autosave;
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 3072; });
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave.path()), Autosave::delay_ms + 5000);
    // And again after a save: the next single edit is copied too.
    QVERIFY(!document.saveAs(session.file));
    QVERIFY(!QFile::exists(autosave.path()));
    document.edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 768; });
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(autosave.path()), Autosave::delay_ms + 5000);
}

void TestAutosave::savingOrUndoingRemovesTheCopy() {
    EditedSession session;
    QVERIFY(session.start());
    QVERIFY(QFile::exists(session.autosave->path()));
    session.document.undoStack()->undo();
    session.document.undoStack()->undo();  // back to the saved state: nothing to lose
    QVERIFY(!QFile::exists(session.autosave->path()));
    make_unsaved_edits(session.document);
    session.autosave->writeNow();
    QVERIFY(QFile::exists(session.autosave->path()));
    QVERIFY(!session.document.saveAs(session.file));
    QCOMPARE(session.filesInCopies(), QStringList());
}

void TestAutosave::aCleanExitRemovesTheCopy() {
    EditedSession session;
    QVERIFY(session.start());
    QCOMPARE(session.filesInCopies().size(), 2);  // the copy and its lock
    session.autosave.reset();
    QCOMPARE(session.filesInCopies(), QStringList());
}

void TestAutosave::aRunningSessionsCopyIsNotOffered() {
    EditedSession session;
    QVERIFY(session.start());
    // Its lock is held by a running process (this one): another window's copy, not a crash's.
    QVERIFY(Autosave::left_in(session.copies).empty());
    QVERIFY(QFile::exists(session.autosave->path()));
}

namespace {

// Runs this binary as a session that edits `file` (relative to `folder` when given), autosaves into `copies` and
// dies; false if it did not.
bool crash_a_session(const QString& file, const QString& copies, const QString& folder = {}) {
    QProcess session;
    if (!folder.isEmpty()) session.setWorkingDirectory(folder);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QString::fromLatin1(crash_folder_variable), copies);
    environment.insert(QString::fromLatin1(crash_file_variable), file);
    session.setProcessEnvironment(environment);
    session.start(QCoreApplication::applicationFilePath(), {});
    if (!session.waitForFinished(30000)) return false;
    return session.exitStatus() == QProcess::NormalExit && session.exitCode() == 0;
}

// A session that crashed with unsaved edits of a saved file, and the one copy it left, locked by this process.
struct CrashedSession {
    QTemporaryDir folder;
    QString file = default_scenario_file(folder.path());
    QString copies = folder.filePath(QStringLiteral("autosave"));
    std::vector<LeftAutosave> left;

    // False unless the session ran, crashed and left exactly one copy.
    bool crash() {
        if (file.isEmpty() || !crash_a_session(file, copies)) return false;
        left = Autosave::left_in(copies);
        return left.size() == 1;
    }
};

}  // namespace

void TestAutosave::aCrashedSessionsCopyIsRecovered() {
    CrashedSession crashed;
    QVERIFY(crashed.crash());
    const QString& file = crashed.file;
    std::vector<LeftAutosave>& left = crashed.left;
    QCOMPARE(left.front().originalPath(), file);

    MainWindow window;
    window.setAutoRun(false);
    QVERIFY(window.recover(left.front()));
    // The scenario as the crashed session had it — its valid edit and its invalid one — belonging to its file and
    // unsaved; the invalid value is reported as any edit's would be.
    const Scenario& recovered = window.document().scenario();
    QCOMPARE(recovered.training.global_batch, std::int64_t{3072});
    QCOMPARE(recovered.training.micro_batch, 0);
    QCOMPARE(window.document().filePath(), file);
    QVERIFY(window.document().isModified());
    QVERIFY(window.document().validated() == nullptr);
    QVERIFY(window.problemList()->rowCount() > 0);
    QVERIFY2(window.document().sweepSection().find("parallelism.tp") != std::string::npos,
             window.document().sweepSection().c_str());
    QVERIFY(!QFile::exists(left.front().path()));
    QVERIFY(Autosave::left_in(crashed.copies).empty());  // not offered again
}

void TestAutosave::aDiscardedCopyIsGone() {
    CrashedSession crashed;
    QVERIFY(crashed.crash());
    crashed.left.front().remove();
    QCOMPARE(QDir(crashed.copies).entryList(QDir::Files | QDir::Hidden), QStringList());
}

void TestAutosave::anUnreadableCopyIsKept() {
    CrashedSession crashed;
    QVERIFY(crashed.crash());
    std::vector<LeftAutosave>& left = crashed.left;
    QVERIFY(write_test_file(left.front().path(), "training: [unclosed\n"));
    MainWindow window;
    window.setAutoRun(false);
    window.openDefaultScenario();
    QVERIFY(!window.recover(left.front()));
    // The reason is listed; the document is left as it was; the copy stays, for the user to read by hand.
    QCOMPARE(window.problemList()->rowCount(), 1);
    QVERIFY(window.document().filePath().isEmpty());
    QVERIFY(QFile::exists(left.front().path()));
}

// Recover deleted the crashed session's copy and wrote none of its own until the next edit: a second crash lost
// what had just been recovered. The recovered changes are copied again before the old copy goes.
void TestAutosave::recoveredChangesAreProtectedAgain() {
    CrashedSession crashed;
    QVERIFY(crashed.crash());
    MainWindow window;
    window.setAutoRun(false);
    QVERIFY(window.recover(crashed.left.front()));
    QVERIFY(!QFile::exists(crashed.left.front().path()));
    QVERIFY(QFile::exists(window.autosave().path()));
    QFile copy(window.autosave().path());
    QVERIFY(copy.open(QIODevice::ReadOnly));
    const QByteArray text = copy.readAll();
    QVERIFY(text.startsWith("# ParaSight autosave of: " + QUrl::toPercentEncoding(crashed.file) + "\n"));
    const parasight::ReadResult read = parasight::read_scenario_text(text.toStdString(), "copy");
    QVERIFY(read.scenario.has_value());
    QCOMPARE(read.scenario->training.global_batch, std::int64_t{3072});
    // The status bar says where Save will write them.
    QVERIFY2(window.statusText().contains(crashed.file), qPrintable(window.statusText()));
}

// A session started in another folder with a relative path recorded the path as typed; recovered from anywhere else,
// Save wrote over an unrelated file of that name there. The path is held absolute and canonical from the start.
void TestAutosave::aFileOpenedByARelativePathIsRecoveredToItself() {
    QTemporaryDir folder;
    QTemporaryDir elsewhere;
    QVERIFY(folder.isValid() && elsewhere.isValid());
    const QString file = default_scenario_file(folder.path());
    QVERIFY(!file.isEmpty());
    const QString copies = folder.filePath(QStringLiteral("autosave"));
    QVERIFY(crash_a_session(QFileInfo(file).fileName(), copies, folder.path()));
    std::vector<LeftAutosave> left = Autosave::left_in(copies);
    QCOMPARE(left.size(), std::size_t{1});
    const QString canonical = QFileInfo(file).canonicalFilePath();
    QCOMPARE(left.front().originalPath(), canonical);

    // Recovered while the working folder holds an unrelated file of the same name.
    const QString unrelated = QDir(elsewhere.path()).filePath(QFileInfo(file).fileName());
    QVERIFY(write_test_file(unrelated, "not a scenario, and not to be overwritten\n"));
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(elsewhere.path()));
    const auto back = qScopeGuard([&] { QDir::setCurrent(before); });
    MainWindow window;
    window.setAutoRun(false);
    QVERIFY(window.recover(left.front()));
    QCOMPARE(window.document().filePath(), canonical);
    QVERIFY(!window.document().saveAs(window.document().filePath()));
    QFile kept(unrelated);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("not a scenario, and not to be overwritten\n"));
    // The file it belongs to holds the recovered edits (read, not validated: one of them is invalid).
    const parasight::ReadResult saved = parasight::read_scenario_file(file.toStdString());
    QVERIFY(saved.scenario.has_value());
    QCOMPARE(saved.scenario->training.global_batch, std::int64_t{3072});
}

// A copy made by an older version names its file relative to a working folder no one knows any more: it is recovered
// untitled, so that Save asks where instead of guessing.
void TestAutosave::aCopyNamingARelativePathIsRecoveredUntitled() {
    CrashedSession crashed;
    QVERIFY(crashed.crash());
    LeftAutosave& left = crashed.left.front();
    QFile copy(left.path());
    QVERIFY(copy.open(QIODevice::ReadOnly));
    QByteArray text = copy.readAll();
    copy.close();
    const qsizetype first_line = text.indexOf('\n');
    text.replace(0, first_line, "# ParaSight autosave of: mine.yaml");
    QVERIFY(write_test_file(left.path(), text));
    MainWindow window;
    window.setAutoRun(false);
    QVERIFY(window.recover(left));
    QVERIFY(window.document().filePath().isEmpty());
    QVERIFY(window.document().isModified());
    QCOMPARE(window.document().scenario().training.global_batch, std::int64_t{3072});
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsSet(crash_folder_variable)) return crashing_session(argc, argv);
    QApplication application(argc, argv);
    TestAutosave test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_autosave.moc"

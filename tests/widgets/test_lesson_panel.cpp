// The Lesson dock (widgets/lessons/lesson_panel.h) on the bundled lesson "Pipeline bubbles", headless: the answer
// hidden until a guess is committed, then the simulation's number and how far the guess was — following the run on
// screen —; Back and Next; and the window opening a lesson's step as its scenario, on its tab.

#include "lessons/lesson_panel.h"
#include "navigation/spotlight.h"
#include "oracle/oracle_view.h"
#include "sweeps/sweeps_page.h"

#include "document/scenario_document.h"
#include "lesson/lesson_check.h"
#include "main_window/main_window.h"
#include "timeline/playhead_bar.h"
#include "timeline/timeline_page.h"
#include "presets/preset_library.h"
#include "simulation/simulate.h"

#include <QDockWidget>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSlider>
#include <QSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>

using namespace parasight;
using namespace parasight::gui;

namespace {

Lesson bundled(std::string_view id) {
    const Preset* preset = find_preset(PresetKind::lesson, id);
    if (preset == nullptr) qFatal("no bundled lesson");
    LessonRead read = read_lesson(preset->text, std::string(preset->file), ".");
    if (!read.lesson) qFatal("the bundled lesson does not read");
    return std::move(*read.lesson);
}

// Step `index`'s run, simulated as the window simulates it.
LessonRun step_run(const Lesson& lesson, std::size_t index) {
    const LoadResult scenario = lesson_step_scenario(lesson, index);
    if (!scenario.ok()) qFatal("the step does not load");
    SimulateOptions options;
    options.timeline = TimelineDetail::none;
    return {simulate(*scenario.scenario, options).value().report, std::nullopt};
}

// The window shown at 1200×800 with pipeline-bubbles open at its first step, once its run has settled (`settled`
// listens to the window's runSettled).
[[nodiscard]] bool shown_at_first_step(MainWindow& window, QSignalSpy& settled) {
    window.resize(1200, 800);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window)) return false;
    window.openLesson(bundled("pipeline-bubbles"));
    return settled.wait(30000);
}

}  // namespace

class TestLessonPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void theAnswerWaitsForAGuessAndFollowsTheRun();
    void aStepOpenedDirectlyHasTheEarlierRunsItNames();
    void aSliderGuess();
    void backAndNext();
    void theWindowOpensAStepAsItsScenarioOnItsTab();
    void theOracleBesideTheSimulationWaitsForTheGuess();
    void aStepRunsItsSweep();
    void helpListsTheLessonsInCourseOrder();
    void handoutsWithEachStepsPicture();
    void aLessonFileOfOnesOwn();
    void perStudentVariants();
    void presentationMode();
    void aPictureForSlides();
};

void TestLessonPanel::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("ParaSight tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_lesson_panel"));
}

// Step 1 (1F1B, 4 stages, 16 micro-batches): the bubble is 22.6% of the iteration (the lesson's claim, checked by
// test_lessons). A guess of 16% is 29.1% off — |0.16 − 0.2258| / 0.2258 —; 23% is within the question's 10%.
void TestLessonPanel::theAnswerWaitsForAGuessAndFollowsTheRun() {
    const Lesson lesson = bundled("pipeline-bubbles");
    LessonPanel panel;
    QSignalSpy chosen(&panel, &LessonPanel::stepChosen);
    panel.showLesson(lesson);
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.front().front().toInt(), 0);
    QCOMPARE(panel.counterText(), QStringLiteral("Step 1 of 4"));
    QVERIFY(panel.narrativeMarkdown().contains(QStringLiteral("**4 stages**")));
    // No guess yet: no answer, even with the run there.
    const LessonRun report = step_run(lesson, 0);
    panel.setRun(&report);
    QVERIFY(panel.answerText().isEmpty());
    QVERIFY(!panel.commitGuess(QStringLiteral("a lot")));
    QVERIFY(panel.answerText().isEmpty());
    QVERIFY(panel.commitGuess(QStringLiteral("16%")));
    QVERIFY2(panel.answerText().startsWith(QStringLiteral("The simulation says 0.226 (22.6%); you guessed 0.16 (16%), "
                                                          "off by 29.1")),
             qPrintable(panel.answerText()));
    QVERIFY(panel.commitGuess(QStringLiteral("0.23")));
    QCOMPARE(panel.answerText(), QStringLiteral("Right. The simulation says 0.226 (22.6%); you guessed 0.23 (23%)."));
    // The student changes the scenario: the answer follows the run on screen (64 micro-batches: 13.7%).
    const LessonRun more = step_run(lesson, 1);
    panel.setRun(&more);
    QVERIFY2(panel.answerText().startsWith(QStringLiteral("The simulation says 0.137 (13.7%)")),
             qPrintable(panel.answerText()));
    panel.setRun(nullptr);
    QVERIFY(panel.answerText().contains(QStringLiteral("comes with its run")));
}

// Opened at step 2, whose question compares with step 1 (step[1]): step 1 is simulated for it as the lesson sets it,
// so the answer is there once step 2's run is — 22.58% / 13.71% = 1.65 times.
void TestLessonPanel::aStepOpenedDirectlyHasTheEarlierRunsItNames() {
    LessonPanel panel;
    const Lesson lesson = bundled("pipeline-bubbles");
    panel.showLesson(lesson, 1);
    const LessonRun run = step_run(lesson, 1);
    panel.setRun(&run);
    QVERIFY(panel.commitGuess(QStringLiteral("1.6")));
    QVERIFY2(panel.answerText().startsWith(QStringLiteral("Right. The simulation says 1.65;")), qPrintable(panel.answerText()));
}

// pipeline-bubbles' first question has a range, [0, 0.6]: a slider instead of the typed guess, its value beside it;
// Commit Guess commits where it stands — at 0.23 (383 of 1000 steps: 0.6 × 383 / 1000 = 0.2298), within 10% of 0.226.
void TestLessonPanel::aSliderGuess() {
    LessonPanel panel;
    const Lesson lesson = bundled("pipeline-bubbles");
    panel.showLesson(lesson);
    const LessonRun run = step_run(lesson, 0);
    panel.setRun(&run);
    QSlider* slider = panel.guessSlider();
    QVERIFY(slider->isVisibleTo(&panel));
    slider->setValue(383);
    panel.commitButton()->click();
    QVERIFY2(panel.answerText().startsWith(QStringLiteral("Right. The simulation says 0.226 (22.6%); you guessed 0.23 (23%)")),
             qPrintable(panel.answerText()));
    panel.setStep(1);  // a typed guess again
    QVERIFY(!slider->isVisibleTo(&panel));
}

void TestLessonPanel::backAndNext() {
    LessonPanel panel;
    QSignalSpy chosen(&panel, &LessonPanel::stepChosen);
    const Lesson lesson = bundled("pipeline-bubbles");
    panel.showLesson(lesson);
    QVERIFY(!panel.backButton()->isEnabled());
    const LessonRun first = step_run(lesson, 0);
    panel.setRun(&first);
    QVERIFY(panel.commitGuess(QStringLiteral("20%")));
    panel.nextButton()->click();
    QCOMPARE(panel.step(), 1);
    QCOMPARE(chosen.back().front().toInt(), 1);
    QCOMPARE(panel.counterText(), QStringLiteral("Step 2 of 4"));
    QVERIFY(panel.answerText().isEmpty());  // the guess belongs to its step
    // Step 2 explains its numbers, but only once the class has guessed; they are its run's and step 1's ({{…}}):
    // ellipses until its run comes, then 22.58% (step 1's) to 13.71%.
    QVERIFY(panel.explanationMarkdown().isEmpty());
    QVERIFY(panel.commitGuess(QStringLiteral("1.5")));
    QVERIFY2(panel.explanationMarkdown().contains(QStringLiteral("From …% to …%")),
             qPrintable(panel.explanationMarkdown()));
    const LessonRun second = step_run(lesson, 1);
    panel.setRun(&second);
    QVERIFY2(panel.explanationMarkdown().contains(QStringLiteral("From 22.58% to 13.71%")),
             qPrintable(panel.explanationMarkdown()));
    panel.setStep(3);
    QVERIFY(!panel.nextButton()->isEnabled());
    panel.setStep(9);  // past the end: nothing changes
    QCOMPARE(panel.step(), 3);
    panel.backButton()->click();
    QCOMPARE(panel.step(), 2);
}

// Help → Lessons' path: the lesson's step 1 opens as the document (48 layers, a global batch of 16) and shows the
// Timeline once its run settles; Next opens step 2 (64 sequences).
void TestLessonPanel::theWindowOpensAStepAsItsScenarioOnItsTab() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.showTab(QStringLiteral("topology"));
    window.openLesson(bundled("pipeline-bubbles"));
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.document().scenario().model.layers, 48);
    QCOMPARE(window.document().scenario().training.global_batch, std::int64_t{16});
    QCOMPARE(window.findChild<QTabWidget*>()->currentIndex(), MainWindow::tabNames().indexOf(QStringLiteral("timeline")));
    // The step shows the playhead at the start, to step through the warm-up.
    QCOMPARE(window.timelinePage()->playhead()->time(), std::optional<double>(0.0));
    // The step asks for the bubble: the run's numbers are hidden until the guess — the summary's, and the tabs of
    // results but the step's own Timeline (the inputs' tabs stay open).
    QVERIFY(window.resultsHidden());
    auto* tabs = window.findChild<QTabWidget*>();
    const auto tab_open = [&](const char* name) {
        return tabs->isTabEnabled(MainWindow::tabNames().indexOf(QString::fromLatin1(name)));
    };
    QVERIFY(!tab_open("breakdown"));
    QVERIFY(!tab_open("memory"));
    QVERIFY(tab_open("timeline"));
    QVERIFY(tab_open("topology"));
    // The challenge's verdict would say the number: only its goal until the guess.
    QVERIFY(!window.lessonPanel()->challengeText().contains(QStringLiteral("0.2258")));
    QVERIFY(window.lessonPanel()->commitGuess(QStringLiteral("23%")));
    QVERIFY(!window.resultsHidden());
    QVERIFY(tab_open("breakdown"));
    QVERIFY(tab_open("memory"));
    QVERIFY2(window.lessonPanel()->answerText().startsWith(QStringLiteral("Right.")),
             qPrintable(window.lessonPanel()->answerText()));
    // The challenge (the bubble below 21%, keeping the stages and layers): not met by the step as it is; met when the
    // student doubles the global batch to 32 micro-batches (16.9%), and the answer follows the new run.
    QVERIFY2(window.lessonPanel()->challengeText().contains(
                 QStringLiteral("not yet: bubble_s / iteration_time_s is 0.2258, not below 0.21")),
             qPrintable(window.lessonPanel()->challengeText()));
    // The step's scenario is locked until Try It: an edit is refused, the form greyed.
    QVERIFY(window.document().isLocked());
    QVERIFY(window.lessonPanel()->tryItButton()->isEnabled());
    window.document().edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 32; });
    QCOMPARE(window.document().scenario().training.global_batch, std::int64_t{16});
    window.lessonPanel()->tryItButton()->click();
    QVERIFY(!window.document().isLocked());
    QVERIFY(!window.lessonPanel()->tryItButton()->isEnabled());
    window.document().edit(QStringLiteral("batch"), QString(), [](Scenario& s) { s.training.global_batch = 32; });
    QVERIFY(settled.wait(30000));
    QVERIFY2(window.lessonPanel()->challengeText().contains(
                 QStringLiteral("met: bubble_s / iteration_time_s is 0.1692, below 0.21")),
             qPrintable(window.lessonPanel()->challengeText()));
    QVERIFY2(window.lessonPanel()->answerText().contains(QStringLiteral("0.169")),
             qPrintable(window.lessonPanel()->answerText()));
    // Reset Step: the step's scenario again, the student's batch dropped (and no question about saving it).
    window.lessonPanel()->resetButton()->click();
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.document().scenario().training.global_batch, std::int64_t{16});
    QVERIFY(window.document().isLocked());  // locked again
    QVERIFY(window.lessonPanel()->challengeText().contains(QStringLiteral("not yet:")));
    window.lessonPanel()->nextButton()->click();
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.document().scenario().training.global_batch, std::int64_t{64});
    QVERIFY(window.resultsHidden());  // a new question
    QVERIFY(!window.timelinePage()->playhead()->isShown());  // step 2 does not ask for it
}

// The Oracle tab's sentence setting the oracle beside the simulation gives the answer of oracle-limits' first question
// away (20.49 ms against 6.555 ms, the lesson's claims): hidden until the guess, shown after it.
void TestLessonPanel::theOracleBesideTheSimulationWaitsForTheGuess() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openLesson(bundled("oracle-limits"));
    QVERIFY(settled.wait(30000));
    const QLabel* comparison = window.findChild<OracleView*>()->comparisonLabel();
    QVERIFY2(comparison->text().contains(QStringLiteral("hidden until you commit a guess")), qPrintable(comparison->text()));
    QVERIFY(!comparison->text().contains(QStringLiteral("6.555")));
    QVERIFY(window.lessonPanel()->commitGuess(QStringLiteral("3")));
    QVERIFY2(comparison->text().contains(QStringLiteral("the oracle says 20.49 ms, the simulation 6.555 ms")),
             qPrintable(comparison->text()));
}

// The capstone's first step defines its sweep on the Sweeps tab — every tp × pp × dp of the default scenario's 1024
// GPUs, 41 points (the lesson's points:, checked by test_lessons) — and runs it once the step's run settles.
void TestLessonPanel::aStepRunsItsSweep() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QSignalSpy swept(window.sweepsPage(), &SweepsPage::sweepSettled);
    window.openLesson(bundled("sweep-capstone"));
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.findChild<QTabWidget*>()->currentIndex(), MainWindow::tabNames().indexOf(QStringLiteral("sweeps")));
    QCOMPARE(window.sweepsPage()->strategiesBox()->currentIndex(), 1);  // strategies: degrees
    QVERIFY(window.sweepsPage()->axesEdit()->toPlainText().isEmpty());
    QVERIFY(swept.wait(60000));
    // The list of sweeps, and the summary of the one shown, are read again on a worker once the sweep has settled
    // (under a loaded machine the first reading may not have come back yet).
    QTRY_VERIFY_WITH_TIMEOUT(window.sweepsPage()->shownSweep() != nullptr, 10000);
    QCOMPARE(window.sweepsPage()->shownSweep()->point_count, std::uint64_t{41});
    QTRY_COMPARE_WITH_TIMEOUT(window.sweepsPage()->shownSweep()->stored(), std::uint64_t{41}, 10000);
}

// Help → Lessons lists the bundled lessons in course order, numbered, each with its summary as a tool tip; then opens
// a lesson file.
void TestLessonPanel::helpListsTheLessonsInCourseOrder() {
    MainWindow window;
    QMenu* lessons = nullptr;
    for (QMenu* menu : window.findChildren<QMenu*>()) {
        if (menu->title() == QStringLiteral("&Lessons")) lessons = menu;
    }
    QVERIFY(lessons != nullptr);
    // The twelve lessons, a separator, Open Lesson File….
    const QList<QAction*> all = lessons->actions();
    QCOMPARE(all.size(), 14);
    QVERIFY(all.at(12)->isSeparator());
    QCOMPARE(all.at(13)->text(), QStringLiteral("Open Lesson &File…"));
    const QList<QAction*> actions = all.mid(0, 12);
    QCOMPARE(actions.front()->text(), QStringLiteral("1. Data parallelism and the ring all-reduce"));
    QCOMPARE(actions.at(1)->text(), QStringLiteral("2. Pipeline bubbles"));
    QCOMPARE(actions.back()->text(), QStringLiteral("12. Capstone: sweep the layouts, defend the best cell"));
    QVERIFY(actions.front()->toolTip().startsWith(QStringLiteral("Eight replicas of BERT-large")));
    actions.at(1)->trigger();
    QCOMPARE(window.lessonPanel()->lesson()->title, std::string("Pipeline bubbles"));
}

// The handout: every step opened and pictured, then written — as Markdown with a picture per step beside it (FILE.md,
// FILE-figures/step-N.png), or as one PDF — and the lesson back at the step it was on.
void TestLessonPanel::handoutsWithEachStepsPicture() {
    QTemporaryDir directory;
    MainWindow window;
    window.resize(1024, 700);
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QSignalSpy exported(&window, &MainWindow::handoutExported);
    window.openLesson(bundled("pipeline-bubbles"), 1);
    QVERIFY(settled.wait(30000));
    const QString markdown = directory.filePath(QStringLiteral("bubbles.md"));
    QVERIFY(window.exportHandout(markdown, HandoutReader::teacher));
    QVERIFY(!window.exportHandout(markdown, HandoutReader::teacher));  // one at a time
    QVERIFY(exported.wait(60000));
    QVERIFY2(exported.front().at(1).toBool(), qPrintable(exported.front().front().toString()));
    QFile file(markdown);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    for (int step = 1; step <= 4; ++step) {
        QVERIFY2(text.contains(QStringLiteral("](bubbles-figures/step-%1.png)").arg(step)), qPrintable(text));
        const QImage figure(directory.filePath(QStringLiteral("bubbles-figures/step-%1.png").arg(step)));
        QVERIFY(!figure.isNull());
        QVERIFY(figure.width() > 400);
    }
    QVERIFY(text.contains(QStringLiteral("**Answer:** 0.226 (22.6%)")));  // step 1's run, made for the handout
    QCOMPARE(window.lessonPanel()->step(), 1);
    // PDF: one file.
    exported.clear();
    const QString pdf = directory.filePath(QStringLiteral("bubbles.pdf"));
    QVERIFY(window.exportHandout(pdf, HandoutReader::students));
    QVERIFY(exported.wait(60000));
    QVERIFY2(exported.front().at(1).toBool(), qPrintable(exported.front().front().toString()));
    QFile written(pdf);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY(written.read(5) == "%PDF-");
    QVERIFY2(written.size() > 50'000, qPrintable(QString::number(written.size())));  // four pictures
}

// A lesson file of one's own, beside its scenario file (`file:` is read from the lesson's folder): opened at its first
// step, the scenario the step names as the document. A file that does not read is refused, its problem said.
void TestLessonPanel::aLessonFileOfOnesOwn() {
    QTemporaryDir directory;
    const parasight::Preset* pipeline = find_preset(PresetKind::scenario, "pipeline-1f1b");
    QVERIFY(pipeline != nullptr);
    QFile scenario(directory.filePath(QStringLiteral("mine.yaml")));
    QVERIFY(scenario.open(QIODevice::WriteOnly));
    scenario.write(QByteArray(pipeline->text.data(), static_cast<qsizetype>(pipeline->text.size())));
    scenario.close();
    QFile lesson(directory.filePath(QStringLiteral("lesson.yaml")));
    QVERIFY(lesson.open(QIODevice::WriteOnly));
    lesson.write("schema: 1\ntitle: My lesson\nsteps:\n  - title: Mine\n    scenario:\n      file: mine.yaml\n"
                 "      set: {training.global_batch: 16}\n    tab: memory\n");
    lesson.close();
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(window.openLessonFile(lesson.fileName()));
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.lessonPanel()->lesson()->title, std::string("My lesson"));
    QCOMPARE(window.document().scenario().training.global_batch, std::int64_t{16});
    QCOMPARE(window.findChild<QTabWidget*>()->currentIndex(), MainWindow::tabNames().indexOf(QStringLiteral("memory")));
    QFile broken(directory.filePath(QStringLiteral("broken.yaml")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("schema: 1\ntitle: Broken\n");
    broken.close();
    QVERIFY(!window.openLessonFile(broken.fileName()));
    QCOMPARE(window.lessonPanel()->lesson()->title, std::string("My lesson"));  // the open lesson stays
}

// Per-student variants: pipeline-bubbles varies the hidden size (768 or 1280 for variants 1 and 2); the step opens
// again in the variant, whose bubble differs from the lesson as written (23.3% with 768, against 22.6%: the
// teacher's handouts of each, test_cli_lesson). A lesson without variants shows no box.
void TestLessonPanel::perStudentVariants() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    window.openLesson(bundled("pipeline-bubbles"));
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.document().scenario().model.hidden, 1024);
    auto* box = window.lessonPanel()->findChild<QSpinBox*>();
    QVERIFY(box != nullptr && box->isVisibleTo(window.lessonPanel()));
    box->setValue(1);
    QCOMPARE(window.lessonPanel()->variant(), 1);
    QVERIFY(settled.wait(30000));
    QCOMPARE(window.document().scenario().model.hidden, 768);
    QCOMPARE(window.document().scenario().model.layers, 48);  // the step's own fields kept
    QVERIFY(window.lessonPanel()->commitGuess(QStringLiteral("25%")));
    QVERIFY2(window.lessonPanel()->answerText().contains(QStringLiteral("0.233 (23.3%)")),
             qPrintable(window.lessonPanel()->answerText()));
    window.openLesson(bundled("heavy-last-stage"));
    QVERIFY(!box->isVisibleTo(window.lessonPanel()));
    QCOMPARE(window.lessonPanel()->variant(), 0);
}

// Presentation mode: full screen, high contrast, a dimming spotlight, the scenario dock and the teacher's notes hidden,
// text 1.5 times larger; PageDown
// and PageUp move through the steps; Esc ends it and puts everything back.
void TestLessonPanel::presentationMode() {
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(shown_at_first_step(window, settled));
    auto* scenario_dock = window.findChild<QDockWidget*>(QStringLiteral("ScenarioDock"));
    QVERIFY(scenario_dock != nullptr && scenario_dock->isVisible());
    QVERIFY(window.lessonPanel()->notesText().contains(QStringLiteral("Ask the class to predict")));
    const double points = window.font().pointSizeF();
    const QColor text_before = QApplication::palette().color(QPalette::Text);
    // F11 starts it (F5 runs the simulation).
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(window.isPresenting());
    QVERIFY(window.isFullScreen() || window.windowState().testFlag(Qt::WindowFullScreen));
    QVERIFY(!scenario_dock->isVisible());
    QCOMPARE(window.font().pointSizeF(), points * MainWindow::presentation_font_scale);
    QVERIFY(window.lessonPanel()->notesText().isEmpty());
    QVERIFY(window.spotlightOverlay()->isDimming());  // a spotlight darkens the rest of the window
    // High contrast: the light palette's text black on white.
    QCOMPARE(QApplication::palette().color(QPalette::Text), QColor(Qt::black));
    QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(Qt::white));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_PageDown);
    QCOMPARE(window.lessonPanel()->step(), 1);
    QVERIFY(settled.wait(30000));
    QTest::keyClick(&window, Qt::Key_PageUp);
    QCOMPARE(window.lessonPanel()->step(), 0);
    QVERIFY(settled.wait(30000));
    QTest::keyClick(&window, Qt::Key_Escape);
    QVERIFY(!window.isPresenting());
    QVERIFY(scenario_dock->isVisible());
    QCOMPARE(window.font().pointSizeF(), points);
    QCOMPARE(QApplication::palette().color(QPalette::Text), text_before);
    QVERIFY(!window.spotlightOverlay()->isDimming());
    QVERIFY(!window.lessonPanel()->notesText().isEmpty());
    // Outside presentation mode PageDown is the tables' again, not the lesson's.
    QTest::keyClick(&window, Qt::Key_PageDown);
    QCOMPARE(window.lessonPanel()->step(), 0);
}

// The tab on screen pictured for slides: PNG and SVG named after the lesson's step and the tab, a number added
// rather than a picture replaced.
void TestLessonPanel::aPictureForSlides() {
    QTemporaryDir directory;
    MainWindow window;
    QSignalSpy settled(&window, &MainWindow::runSettled);
    QVERIFY(shown_at_first_step(window, settled));
    const QString folder = directory.filePath(QStringLiteral("slides"));
    const Expected<QString> first = window.pictureForSlides(folder);
    QVERIFY2(first, first ? "" : first.error().c_str());
    QCOMPARE(first.value(), folder + QStringLiteral("/Pipeline bubbles, step 1 - Timeline.png"));
    const QImage picture(first.value());
    QVERIFY(!picture.isNull());
    QCOMPARE(picture.width(), 2 * window.findChild<QTabWidget*>()->currentWidget()->width());  // twice the pixels
    QVERIFY(QFileInfo::exists(folder + QStringLiteral("/Pipeline bubbles, step 1 - Timeline.svg")));
    const Expected<QString> second = window.pictureForSlides(folder);
    QVERIFY(second);
    QCOMPARE(second.value(), folder + QStringLiteral("/Pipeline bubbles, step 1 - Timeline (2).png"));
}

QTEST_MAIN(TestLessonPanel)
#include "test_lesson_panel.moc"

// The welcome (widgets/main_window/welcome_dialog.h): the bundled lessons in course order and every scenario preset;
// Open waits for a choice, one choice across both lists; a lesson or a scenario chosen opens in the window; the box
// "Show this at start" is the setting the next start reads.

#include "main_window/main_window.h"
#include "main_window/welcome_dialog.h"

#include "document/scenario_document.h"
#include "lessons/lesson_panel.h"
#include "presets/preset_library.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

using namespace parasight;
using namespace parasight::gui;

class TestWelcomeDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("ParaSight tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_welcome_dialog"));
        QSettings().clear();
    }

    void listsTheLessonsAndTheScenarios() {
        const WelcomeDialog welcome;
        QCOMPARE(welcome.lessonList()->count(), 12);
        QCOMPARE(welcome.lessonList()->item(0)->text(), QStringLiteral("1. Data parallelism and the ring all-reduce"));
        QCOMPARE(welcome.lessonList()->item(11)->text(),
                 QStringLiteral("12. Capstone: sweep the layouts, defend the best cell"));
        QCOMPARE(welcome.scenarioList()->count(), static_cast<int>(preset_ids(PresetKind::scenario).size()));
        QCOMPARE(welcome.scenarioList()->item(0)->data(Qt::UserRole).toString(), QStringLiteral("default"));
        QVERIFY(!welcome.openButton()->isEnabled());
    }

    void aLessonChosenOpensInTheWindow() {
        MainWindow window;
        QSignalSpy settled(&window, &MainWindow::runSettled);
        WelcomeDialog* welcome = window.showWelcome();
        welcome->lessonList()->setCurrentRow(1);
        QVERIFY(welcome->openButton()->isEnabled());
        welcome->scenarioList()->setCurrentRow(0);  // one choice across both lists
        QCOMPARE(welcome->lessonList()->currentRow(), -1);
        welcome->lessonList()->setCurrentRow(1);
        QCOMPARE(welcome->scenarioList()->currentRow(), -1);
        welcome->openButton()->click();
        QVERIFY(!welcome->isVisible());
        QCOMPARE(window.lessonPanel()->lesson()->title, std::string("Pipeline bubbles"));
        QVERIFY(settled.wait(30000));
        QCOMPARE(window.document().scenario().model.layers, 48);  // its first step's scenario
    }

    void aScenarioChosenOpensAsTheDocument() {
        MainWindow window;
        window.openDefaultScenario();
        WelcomeDialog* welcome = window.showWelcome();
        const auto items = welcome->scenarioList()->findItems(QStringLiteral("1F1B, 4 stages, 8 micro-batches"),
                                                             Qt::MatchExactly);
        QCOMPARE(items.size(), 1);
        welcome->scenarioList()->setCurrentItem(items.front());
        welcome->openButton()->click();
        QCOMPARE(window.document().scenario().parallelism.pp, 4);
        QCOMPARE(window.document().scenario().training.global_batch, std::int64_t{8});
    }

    void theBoxIsTheStartSetting() {
        QVERIFY(WelcomeDialog::showsAtStart());  // until unticked
        const WelcomeDialog welcome;
        QVERIFY(welcome.atStartBox()->isChecked());
        welcome.atStartBox()->setChecked(false);
        QVERIFY(!WelcomeDialog::showsAtStart());
        const WelcomeDialog again;
        QVERIFY(!again.atStartBox()->isChecked());
    }
};

QTEST_MAIN(TestWelcomeDialog)
#include "test_welcome_dialog.moc"

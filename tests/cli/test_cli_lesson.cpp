// parasight-cli lesson end to end (docs/cli.md "lesson"): a bundled lesson by id and a lesson file by path hold true;
// a lesson whose claim the simulation contradicts is refused at the claim's FILE:LINE:COL with both numbers; every
// bad argument is a usage error.

#include "cli_runner.h"

#include <QTemporaryDir>
#include <QTest>

namespace {

using parasight::testing::write_file;

// One step on the bundled 1F1B pipeline (4 stages, 8 micro-batches of GPT-2 medium's 24 layers), claiming `claim`.
QByteArray lesson_claiming(const QByteArray& claim) {
    return "schema: 1\n"
           "title: One claim\n"
           "steps:\n"
           "  - title: The preset as it is\n"
           "    scenario: {preset: pipeline-1f1b}\n"
           "    claims:\n"
           "      - {expression: devices, is: " +
           claim + "}\n";
}

}  // namespace

class TestCliLesson : public QObject {
    Q_OBJECT

private slots:
    void aBundledLessonById() {
        // pipeline-bubbles has 4 steps and 6 claims (presets/lessons/pipeline-bubbles.yaml).
        RUN_CLI(run, {QStringLiteral("lesson"), QStringLiteral("check"), QStringLiteral("pipeline-bubbles")});
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QStringLiteral("pipeline-bubbles: ok — Pipeline bubbles, 4 steps, 6 claims true\n"));
        QCOMPARE(run.err, QString());
    }

    void aLessonFileByPath() {
        // The pipeline runs on 4 devices (pp = 4): a claim of 4 holds.
        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("four.yaml"));
        QVERIFY(write_file(path, lesson_claiming("4")));
        RUN_CLI(run, {QStringLiteral("lesson"), QStringLiteral("check"), path});
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, path + QStringLiteral(": ok — One claim, 1 step, 1 claim true\n"));
    }

    void aFalseClaimIsRefusedWhereItIsWritten() {
        // Claiming 5 devices: refused at the claim's value (line 7, column 40), with both numbers; the other lesson
        // named is still checked and said to hold.
        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("five.yaml"));
        QVERIFY(write_file(path, lesson_claiming("5")));
        RUN_CLI(run, {QStringLiteral("lesson"), QStringLiteral("check"), path, QStringLiteral("heavy-last-stage")});
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.startsWith(path + QStringLiteral(":7:")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("the lesson says devices is 5, the simulation gives 4")),
                 qPrintable(run.err));
        QVERIFY2(run.out.startsWith(QStringLiteral("heavy-last-stage: ok")), qPrintable(run.out));
    }

    void badArguments_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no action") << QStringList{QStringLiteral("lesson")} << QStringLiteral("say what to do");
        QTest::newRow("unknown action") << QStringList{QStringLiteral("lesson"), QStringLiteral("chek")}
                                        << QStringLiteral("unknown action 'chek'");
        QTest::newRow("nothing to check") << QStringList{QStringLiteral("lesson"), QStringLiteral("check")}
                                          << QStringLiteral("name at least one LESSON");
        QTest::newRow("unknown id") << QStringList{QStringLiteral("lesson"), QStringLiteral("check"),
                                                   QStringLiteral("pipeline-bubble")}
                                    << QStringLiteral("did you mean 'pipeline-bubbles'?");
        QTest::newRow("missing file") << QStringList{QStringLiteral("lesson"), QStringLiteral("check"),
                                                     QStringLiteral("no/such/lesson.yaml")}
                                      << QStringLiteral("no/such/lesson.yaml");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("lesson"), QStringLiteral("check"),
                                                       QStringLiteral("--json"), QStringLiteral("pipeline-bubbles")}
                                        << QStringLiteral("--json");
    }

    void badArguments() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        RUN_CLI(run, arguments);
        EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QCOMPARE(run.out, QString());
    }
};

QTEST_APPLESS_MAIN(TestCliLesson)
#include "test_cli_lesson.moc"

// parasight-cli lesson end to end (docs/cli.md "lesson"): a bundled lesson by id and a lesson file by path hold true;
// a lesson whose claim the simulation contradicts is refused at the claim's FILE:LINE:COL with both numbers; the
// students' handout keeps the answers back, the teacher's has them; every bad argument is a usage error.

#include "cli_runner.h"

#include <QFile>
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

    void aStudentsHandoutKeepsTheAnswersBack() {
        // The students' handout: the lesson's title with its number, each step's question with room for the
        // prediction — and neither the answers nor the teacher's notes.
        RUN_CLI(run, {QStringLiteral("lesson"), QStringLiteral("handout"), QStringLiteral("pipeline-bubbles")});
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.startsWith(QStringLiteral("# 2. Pipeline bubbles\n")), qPrintable(run.out.left(200)));
        QVERIFY(run.out.contains(QStringLiteral("## Step 1 of 4: Four stages, sixteen micro-batches\n")));
        QCOMPARE(run.out.count(QStringLiteral("Your prediction: ")), 3);  // steps 1, 2 and 4 ask
        QVERIFY(!run.out.contains(QStringLiteral("**Answer:**")));
        QVERIFY(!run.out.contains(QStringLiteral("Teacher's notes")));
    }

    void theTeachersHandoutHasTheSimulationsAnswers() {
        // Step 1's answer is the bubble's share of the iteration, 22.6% (the lesson's claim, checked by test_lessons);
        // step 2's, 22.58% / 13.71% = 1.65 times; written whole to --out.
        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("handout.md"));
        RUN_CLI(run, {QStringLiteral("lesson"), QStringLiteral("handout"), QStringLiteral("pipeline-bubbles"),
                      QStringLiteral("--teacher"), QStringLiteral("--out"), path});
        EXPECT_EXIT(run, 0);
        QCOMPARE(run.out, QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY(text.startsWith(QStringLiteral("# 2. Pipeline bubbles — teacher's handout\n")));
        QVERIFY2(text.contains(QStringLiteral("**Answer:** 0.226 (22.6%)\n")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("**Answer:** 1.65\n")));
        QVERIFY(text.contains(QStringLiteral("*Teacher's notes:* Ask the class to predict")));
    }

    void aVariantsHandout() {
        // pipeline-bubbles' variant 1 sets the hidden size to 768: its bubble is 23.3% of the iteration, not 22.6%,
        // and the explanation's {{…}} numbers follow (23.33% to 14.7%).
        RUN_CLI(run, {QStringLiteral("lesson"), QStringLiteral("handout"), QStringLiteral("pipeline-bubbles"),
                      QStringLiteral("--teacher"), QStringLiteral("--variant"), QStringLiteral("1")});
        EXPECT_EXIT(run, 0);
        QVERIFY2(run.out.contains(QStringLiteral("*Variant 1: model.hidden 768*\n")), qPrintable(run.out.left(400)));
        QVERIFY(run.out.contains(QStringLiteral("**Answer:** 0.233 (23.3%)\n")));
        QVERIFY(run.out.contains(QStringLiteral("From 23.33% to 14.7%")));
    }

    void badArguments_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no action") << QStringList{QStringLiteral("lesson")} << QStringLiteral("say what to do");
        QTest::newRow("unknown action") << QStringList{QStringLiteral("lesson"), QStringLiteral("chek")}
                                        << QStringLiteral("unknown action 'chek'; the actions are check and handout");
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
        QTest::newRow("handout of two") << QStringList{QStringLiteral("lesson"), QStringLiteral("handout"),
                                                       QStringLiteral("pipeline-bubbles"), QStringLiteral("memory-wall")}
                                        << QStringLiteral("handout takes one LESSON");
        QTest::newRow("check with --teacher") << QStringList{QStringLiteral("lesson"), QStringLiteral("check"),
                                                             QStringLiteral("--teacher"), QStringLiteral("pipeline-bubbles")}
                                              << QStringLiteral("check takes no --out, --teacher or --variant");
        QTest::newRow("a variant not a number") << QStringList{QStringLiteral("lesson"), QStringLiteral("handout"),
                                                               QStringLiteral("pipeline-bubbles"), QStringLiteral("--variant"),
                                                               QStringLiteral("-1")}
                                                << QStringLiteral("--variant");
        QTest::newRow("handout into a folder") << QStringList{QStringLiteral("lesson"), QStringLiteral("handout"),
                                                              QStringLiteral("pipeline-bubbles"), QStringLiteral("--out"),
                                                              QStringLiteral("/tmp")}
                                               << QStringLiteral("--out: cannot write");
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

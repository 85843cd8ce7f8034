// `parasight --screenshot OUT.png [--tab NAME] [--spotlight TARGET] [--size WxH] [--palette NAME] [FILE]` run as a
// user runs it: a good
// run writes a PNG of the window at the asked size and exits 0; every bad argument, bad file or unwritable output
// exits 2 with a message (a FILE's problems as FILE:LINE:COL: message) and leaves an existing OUT.png untouched.

#include "test_files.h"

#include "presets/preset_library.h"
#include "scenario_file/lesson_file.h"
#include "store/result_store.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int exit_code = -1;
    QString standard_error;
};

// `config_home`: where the application keeps its settings (XDG_CONFIG_HOME), when the test reads them; `data_home`:
// where its results database is (XDG_DATA_HOME).
Run run_parasight(const QStringList& arguments, const QString& config_home = {}, const QString& data_home = {}) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    if (!config_home.isEmpty()) environment.insert(QStringLiteral("XDG_CONFIG_HOME"), config_home);
    if (!data_home.isEmpty()) environment.insert(QStringLiteral("XDG_DATA_HOME"), data_home);
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(PARASIGHT_GUI_BINARY), arguments);
    if (!process.waitForFinished(120000)) return {};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardError())};
}

// The window at 1024x700 and 1920x1080, light and dark: the columns `size` and `palette`.
void add_sizes_and_palettes() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("palette");
    for (const QSize size : {QSize(1024, 700), QSize(1920, 1080)}) {
        for (const char* palette : {"light", "dark"}) {
            QTest::addRow("%dx%d %s", size.width(), size.height(), palette) << size << QString::fromLatin1(palette);
        }
    }
}

// How many colours a picture has on a 7-pixel grid: a blank or half-drawn window has a handful.
qsizetype colours_sampled(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    }
    return colours.size();
}

}  // namespace

class TestScreenshotCommand : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writesThePngAtTheAskedSize();
    void whatIfTabWaitsForItsSweep();
    void aPictureIsNotARecentFile();
    void sweepsAndHistoryAtTwoSizes_data();
    void sweepsAndHistoryAtTwoSizes();
    void aSweepPicturedAsItRuns_data();
    void aSweepPicturedAsItRuns();
    void everyLessonStepPictured_data();
    void everyLessonStepPictured();
    void twoRunsComparedAtTwoSizes_data();
    void twoRunsComparedAtTwoSizes();
    void badInputExitsTwoAndKeepsTheOldPng_data();
    void badInputExitsTwoAndKeepsTheOldPng();
};

void TestScreenshotCommand::writesThePngAtTheAskedSize() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString output = folder.filePath(QStringLiteral("breakdown.png"));
    QVERIFY(write_test_file(output, "an older screenshot"));
    const Run run = run_parasight({QStringLiteral("--screenshot"), output, QStringLiteral("--tab"),
                                   QStringLiteral("breakdown"), QStringLiteral("--size"), QStringLiteral("900x600")});
    QVERIFY2(run.exit_code == 0, qPrintable(run.standard_error));
    const QImage image(output);  // replaced by the new one
    QCOMPARE(image.size(), QSize(900, 600));
    // Nothing but the PNG is left in the folder: no temporary file.
    QCOMPARE(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("breakdown.png")});
}

// The What-if tab is pictured once its default sweep has run: the command ends (no hang waiting for a run that
// already settled) and writes the picture.
void TestScreenshotCommand::whatIfTabWaitsForItsSweep() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString output = folder.filePath(QStringLiteral("whatif.png"));
    const Run run = run_parasight({QStringLiteral("--screenshot"), output, QStringLiteral("--tab"),
                                   QStringLiteral("whatif"), QStringLiteral("--size"), QStringLiteral("800x500"),
                                   QStringLiteral(PARASIGHT_TEST_DATA_DIR "/what_if/bert-dp.yaml")});
    QVERIFY2(run.exit_code == 0, qPrintable(run.standard_error));
    QCOMPARE(QImage(output).size(), QSize(800, 500));
}

// A picture made for the docs is not a file the user opened: --screenshot added its FILE to File → Open Recent.
void TestScreenshotCommand::aPictureIsNotARecentFile() {
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString settings = folder.filePath(QStringLiteral("ParaSight/ParaSight.conf"));
    QVERIFY(QDir(folder.path()).mkpath(QStringLiteral("ParaSight")));
    QVERIFY(write_test_file(settings, "[General]\nrecentFiles=/somewhere/mine.yaml\n"));
    const Run run = run_parasight({QStringLiteral("--screenshot"), folder.filePath(QStringLiteral("out.png")),
                                   QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")},
                                  folder.path());
    QVERIFY2(run.exit_code == 0, qPrintable(run.standard_error));
    QFile file(settings);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY2(text.contains("recentFiles=/somewhere/mine.yaml\n"), text.constData());
    QVERIFY2(!text.contains("small_pipeline"), text.constData());
}

void TestScreenshotCommand::sweepsAndHistoryAtTwoSizes_data() {
    QTest::addColumn<QString>("tab");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("palette");
    QTest::newRow("sweeps small light") << "sweeps" << QSize(1024, 700) << "light";
    QTest::newRow("sweeps large dark") << "sweeps" << QSize(1920, 1080) << "dark";
    QTest::newRow("history small dark") << "history" << QSize(1024, 700) << "dark";
    QTest::newRow("history large light") << "history" << QSize(1920, 1080) << "light";
}

// The Sweeps and History tabs pictured over a database holding a 2 × 2 sweep: the command waits for the database to
// be read (it ends, no hang), writes the asked size, stores nothing, and the picture is not blank.
void TestScreenshotCommand::sweepsAndHistoryAtTwoSizes() {
    QFETCH(QString, tab);
    QFETCH(QSize, size);
    QFETCH(QString, palette);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString database = folder.filePath(QStringLiteral("parasight/results.db"));
    {
        auto store = parasight::ResultStore::open(database.toStdString(), parasight::ResultStore::Access::read_write);
        QVERIFY(store);
        const parasight::SweepRecord record{"pictured", "schema: 1\nname: pictured\n",
                                            {{"parallelism.tp", {"1", "2"}}, {"parallelism.pp", {"1", "2"}}}, 4};
        const auto id = store.value().open_sweep(record);
        QVERIFY(id);
        std::vector<parasight::PointResult> points(4);
        for (std::uint64_t k = 0; k < 4; ++k) {
            points[k].point = k;
            points[k].values = {{"parallelism.tp", std::to_string(1 + k / 2)}, {"parallelism.pp", std::to_string(1 + k % 2)}};
            points[k].scenario_yaml = "# " + std::to_string(k) + "\n";
            parasight::Report report;
            report.iteration_time_s = 1.0 + static_cast<double>(k);
            report.breakdown.compute_s = report.iteration_time_s;
            report.mode = "representative";
            points[k].report = report;
        }
        QVERIFY(!store.value().add_points(id.value(), points));
    }
    const QString output = folder.filePath(tab + QStringLiteral(".png"));
    const Run run = run_parasight({QStringLiteral("--screenshot"), output, QStringLiteral("--tab"), tab,
                                   QStringLiteral("--size"), QStringLiteral("%1x%2").arg(size.width()).arg(size.height()),
                                   QStringLiteral("--palette"), palette,
                                   QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")},
                                  folder.filePath(QStringLiteral("config")), folder.path());
    QVERIFY2(run.exit_code == 0, qPrintable(run.standard_error));
    const QImage image(output);
    QCOMPARE(image.size(), size);
    QVERIFY(colours_sampled(image) > 20);  // not blank
    // The picture stored no run of its own: the sweep's four points are the database's only runs.
    auto store = parasight::ResultStore::open(database.toStdString(), parasight::ResultStore::Access::read_only);
    QVERIFY(store);
    QVERIFY(store.value().single_runs().value().empty());
}

void TestScreenshotCommand::aSweepPicturedAsItRuns_data() { add_sizes_and_palettes(); }

// --sweep-axis runs a sweep of the small pipeline from the Sweeps tab and pictures it once its first points are shown
// (mid-run), or finished if it ends first: the command ends, writes the asked size, and the sweep is in the database
// with the points run so far — one at least, at most its 2 × 2.
void TestScreenshotCommand::aSweepPicturedAsItRuns() {
    QFETCH(QSize, size);
    QFETCH(QString, palette);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString output = folder.filePath(QStringLiteral("running.png"));
    const Run run = run_parasight({QStringLiteral("--screenshot"), output, QStringLiteral("--sweep-axis"),
                                   QStringLiteral("parallelism.tp=1,2"), QStringLiteral("--sweep-axis"),
                                   QStringLiteral("training.micro_batch=1,2"), QStringLiteral("--size"),
                                   QStringLiteral("%1x%2").arg(size.width()).arg(size.height()),
                                   QStringLiteral("--palette"), palette,
                                   QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")},
                                  folder.filePath(QStringLiteral("config")), folder.path());
    QVERIFY2(run.exit_code == 0, qPrintable(run.standard_error));
    const QImage image(output);
    QCOMPARE(image.size(), size);
    QVERIFY(colours_sampled(image) > 20);
    auto store = parasight::ResultStore::open(folder.filePath(QStringLiteral("parasight/results.db")).toStdString(),
                                              parasight::ResultStore::Access::read_only);
    QVERIFY(store);
    const auto sweeps = store.value().sweeps().value();
    QCOMPARE(sweeps.size(), std::size_t{1});
    QCOMPARE(sweeps.front().point_count, std::uint64_t{4});
    QVERIFY(sweeps.front().stored() >= 1 && sweeps.front().stored() <= 4);
}

void TestScreenshotCommand::everyLessonStepPictured_data() {
    QTest::addColumn<QString>("lesson");  // ID:STEP
    for (const parasight::Preset& preset : parasight::all_presets()) {
        if (preset.kind != parasight::PresetKind::lesson) continue;
        const parasight::LessonRead read = parasight::read_lesson(preset.text, std::string(preset.file), ".");
        QVERIFY(read.lesson);
        for (std::size_t step = 1; step <= read.lesson->steps.size(); ++step) {
            const QString name = QString::fromUtf8(preset.id.data(), static_cast<qsizetype>(preset.id.size())) +
                                 QStringLiteral(":%1").arg(step);
            QTest::newRow(qPrintable(name)) << name;
        }
    }
}

// Each step of each bundled lesson pictured at 1024x700, as the class sees it: the command waits for the step's run
// (it ends, no hang), writes the picture, and the picture is not blank.
void TestScreenshotCommand::everyLessonStepPictured() {
    QFETCH(QString, lesson);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString output = folder.filePath(QStringLiteral("step.png"));
    const Run run = run_parasight({QStringLiteral("--screenshot"), output, QStringLiteral("--lesson"), lesson,
                                   QStringLiteral("--size"), QStringLiteral("1024x700")},
                                  folder.filePath(QStringLiteral("config")), folder.path());
    QVERIFY2(run.exit_code == 0, qPrintable(run.standard_error));
    const QImage image(output);
    QCOMPARE(image.size(), QSize(1024, 700));
    QVERIFY(colours_sampled(image) > 20);
}

void TestScreenshotCommand::twoRunsComparedAtTwoSizes_data() { add_sizes_and_palettes(); }

// Two stored runs of the small pipeline (global batch 16 and 32) compared on the History tab: the command waits until
// both are simulated again (it ends, no hang), writes the asked size, stores nothing more, and the picture is not
// blank; a run the database does not hold is refused with exit code 2.
void TestScreenshotCommand::twoRunsComparedAtTwoSizes() {
    QFETCH(QSize, size);
    QFETCH(QString, palette);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    const QString database = folder.filePath(QStringLiteral("parasight/results.db"));
    {
        auto store = parasight::ResultStore::open(database.toStdString(), parasight::ResultStore::Access::read_write);
        QVERIFY(store);
        QFile file(QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::string yaml = file.readAll().toStdString();
        std::string larger = yaml;
        larger.replace(larger.find("global_batch: 16"), 16, "global_batch: 32");
        parasight::Report report;
        report.iteration_time_s = 1.0;
        report.mode = "representative";
        QVERIFY(store.value().add_run("small", yaml, report));
        QVERIFY(store.value().add_run("small", larger, report));
    }
    const QString output = folder.filePath(QStringLiteral("compare.png"));
    const QString size_text = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
    const Run run = run_parasight({QStringLiteral("--screenshot"), output, QStringLiteral("--compare"),
                                   QStringLiteral("run:1,run:2"), QStringLiteral("--size"), size_text,
                                   QStringLiteral("--palette"), palette,
                                   QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")},
                                  folder.filePath(QStringLiteral("config")), folder.path());
    QVERIFY2(run.exit_code == 0, qPrintable(run.standard_error));
    const QImage image(output);
    QCOMPARE(image.size(), size);
    QVERIFY(colours_sampled(image) > 20);  // not blank
    auto store = parasight::ResultStore::open(database.toStdString(), parasight::ResultStore::Access::read_only);
    QVERIFY(store);
    QCOMPARE(store.value().single_runs().value().size(), std::size_t{2});
    const Run refused = run_parasight({QStringLiteral("--screenshot"), folder.filePath(QStringLiteral("no.png")),
                                       QStringLiteral("--compare"), QStringLiteral("run:1,run:9"),
                                       QStringLiteral(PARASIGHT_TEST_DATA_DIR "/cli/small_pipeline.yaml")},
                                      folder.filePath(QStringLiteral("config")), folder.path());
    QCOMPARE(refused.exit_code, 2);
    QVERIFY2(refused.standard_error.contains(QStringLiteral(
                 "parasight: --compare: run:1 and run:9 cannot be compared: the database holds no run 9")),
             qPrintable(refused.standard_error));
    QVERIFY(!QFile::exists(folder.filePath(QStringLiteral("no.png"))));
}

void TestScreenshotCommand::badInputExitsTwoAndKeepsTheOldPng_data() {
    QTest::addColumn<QString>("output");          // OUT.png; the folder holds an old.png and a folder dir.png
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");  // what stderr holds, the folder written as FOLDER
    const QString old = QStringLiteral("FOLDER/old.png");
    QTest::newRow("output not a PNG") << "FOLDER/old.jpg" << QStringList{}
                                      << "parasight: --screenshot writes a PNG: name a file ending in .png, not "
                                         "'FOLDER/old.jpg'";
    QTest::newRow("output folder missing") << "FOLDER/none/out.png" << QStringList{}
                                           << "parasight: --screenshot: cannot write 'FOLDER/none/out.png': ";
    QTest::newRow("output a folder") << "FOLDER/dir.png" << QStringList{}
                                     << "parasight: --screenshot: cannot write 'FOLDER/dir.png': ";
    QTest::newRow("unknown tab") << old << QStringList{QStringLiteral("--tab"), QStringLiteral("gantt")}
                                 << "parasight: --tab: unknown tab 'gantt'; expected one of topology, strategy, "
                                    "timeline, breakdown, memory, oracle, whatif, sweeps, history";
    QTest::newRow("size too small") << old << QStringList{QStringLiteral("--size"), QStringLiteral("100x100")}
                                    << "parasight: --size must be WIDTHxHEIGHT from 320x240 to 10000x10000, not "
                                       "'100x100'";
    QTest::newRow("unknown palette") << old << QStringList{QStringLiteral("--palette"), QStringLiteral("sepia")}
                                     << "parasight: --palette: unknown palette 'sepia'; expected one of system, light, "
                                        "dark";
    QTest::newRow("unknown target") << old << QStringList{QStringLiteral("--spotlight"), QStringLiteral("node:stage2")}
                                    << "parasight: --spotlight: 'stage2' is not a strategy-tree node";
    // The default scenario has 16 stages: stage[40] is not in its tree, so nothing shows it.
    QTest::newRow("target nothing shows") << old << QStringList{QStringLiteral("--spotlight"), QStringLiteral("node:stage[40]")}
                                          << "parasight: --spotlight: nothing in this scenario's window shows "
                                             "node:stage[40]";
    QTest::newRow("compare one run") << old << QStringList{QStringLiteral("--compare"), QStringLiteral("run:3")}
                                     << "parasight: --compare must name two stored runs as run:A,run:B (run:3,run:4), "
                                        "not 'run:3'";
    QTest::newRow("sweep axis not a field") << old
                                            << QStringList{QStringLiteral("--sweep-axis"),
                                                           QStringLiteral("parallelism.tpp=1,2")}
                                            << "parasight: --sweep-axis: parallelism.tpp=1,2: parallelism.tpp: "
                                               "'parallelism' has no 'tpp' (did you mean 'tp'?)";
    QTest::newRow("compare and sweep") << old
                                       << QStringList{QStringLiteral("--compare"), QStringLiteral("run:1,run:2"),
                                                      QStringLiteral("--sweep-axis"), QStringLiteral("parallelism.tp=1,2")}
                                       << "parasight: --compare and --sweep-axis show different tabs: name one";
    QTest::newRow("unknown lesson") << old << QStringList{QStringLiteral("--lesson"), QStringLiteral("pipeline-bubble")}
                                    << "parasight: --lesson: pipeline-bubble: no lesson file or bundled lesson by "
                                       "this name (did you mean 'pipeline-bubbles'?)";
    QTest::newRow("missing lesson file") << old << QStringList{QStringLiteral("--lesson"), QStringLiteral("FOLDER/none.yaml:2")}
                                         << "parasight: --lesson: FOLDER/none.yaml";
    QTest::newRow("lesson step past its end") << old
                                              << QStringList{QStringLiteral("--lesson"),
                                                             QStringLiteral("pipeline-bubbles:9")}
                                              << "parasight: --lesson: 'pipeline-bubbles' has steps 1 to 4, not '9'";
    QTest::newRow("two files") << old << QStringList{QStringLiteral("a.yaml"), QStringLiteral("b.yaml")}
                               << "parasight: name at most one scenario FILE";
    QTest::newRow("missing file") << old << QStringList{QStringLiteral("FOLDER/none.yaml")}
                                  << "FOLDER/none.yaml: cannot load the scenario: it does not exist";
    // Line 3 of bad.yaml: `training: {global_batch: 0}` — "training: {" is 11 characters, "global_batch: " 14
    // more, so the value is at column 26.
    QTest::newRow("file with a problem") << old << QStringList{QStringLiteral("FOLDER/bad.yaml")}
                                         << "FOLDER/bad.yaml:3:26: training.global_batch must be between 1 and";
}

void TestScreenshotCommand::badInputExitsTwoAndKeepsTheOldPng() {
    QFETCH(QString, output);
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QVERIFY(write_test_file(
        folder.filePath(QStringLiteral("bad.yaml")),
        "schema: 1\nmodel: gpt2-small\ntraining: {global_batch: 0}\n"
        "cluster: {device: a100-80gb, topology: [{kind: ring, size: 8, bandwidth: 100 GB/s, latency: 1 us}]}\n"
        "parallelism: {dp: auto}\n"));
    QVERIFY(QDir(folder.path()).mkdir(QStringLiteral("dir.png")));
    QVERIFY(write_test_file(folder.filePath(QStringLiteral("old.png")), "an older screenshot"));
    QFile old(folder.filePath(QStringLiteral("old.png")));
    for (QString& argument : arguments) argument.replace(QStringLiteral("FOLDER"), folder.path());
    output.replace(QStringLiteral("FOLDER"), folder.path());
    const Run run = run_parasight(QStringList{QStringLiteral("--screenshot"), output} + arguments);
    QCOMPARE(run.exit_code, 2);
    QVERIFY2(run.standard_error.contains(QString(message).replace(QStringLiteral("FOLDER"), folder.path())),
             qPrintable(run.standard_error));
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), QByteArray("an older screenshot"));
    old.close();
    // Nothing else written, not even a temporary file: the scenario, the old PNG and the folder.
    QCOMPARE(QDir(folder.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 3);
}

QTEST_GUILESS_MAIN(TestScreenshotCommand)
#include "test_screenshot_command.moc"

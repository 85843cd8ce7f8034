// parasight: the desktop application. Composes the main window; with --screenshot it renders the window offscreen
// once the scenario has been simulated, writes the PNG and exits (docs/gui.md).

#include "common/did_you_mean.h"
#include "common/memory_reuse.h"
#include "io/atomic_output.h"
#include "io/temporary_files.h"
#include "main_window/main_window.h"
#include "main_window/welcome_dialog.h"
#include "main_window/open_file_page.h"
#include "lesson/named_lesson.h"
#include "scenario_file/lesson_file.h"
#include "problems/problem_list_model.h"
#include "style/appearance.h"
#include "summary/summary_bar.h"
#include "history/history_page.h"
#include "sweeps/heatmap_view.h"
#include "sweeps/sweeps_page.h"
#include "target/target.h"
#include "whatif/what_if_page.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QImageWriter>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

constexpr int exit_ok = 0;
constexpr int exit_internal_error = 1;
constexpr int exit_bad_input = 2;

bool wants_screenshot(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0) return true;
    }
    return false;
}

int usage_error(const QString& message) {
    QTextStream(stderr) << "parasight: " << message << "\nsee 'parasight --help'\n";
    return exit_bad_input;
}

// Writes the window as a PNG into `output` (opened before the run, so that a path that cannot be written is refused
// at once), or says why there is nothing to show; the exit status.
int write_screenshot(parasight::gui::MainWindow& window, parasight::AtomicOutput& output) {
    if (!window.result()) {
        // The run failed: the summary bar says why.
        QTextStream(stderr) << "parasight: the scenario was not simulated: "
                            << window.summaryBar()->texts().join(QLatin1Char(' ')).trimmed() << '\n';
        return exit_bad_input;
    }
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    const QString target = QString::fromStdString(output.target().string());
    if (!window.grab().save(&buffer, "PNG")) {
        QTextStream(stderr) << "parasight: cannot encode the window as PNG for '" << target << "'\n";
        return exit_internal_error;
    }
    output.stream().write(png.constData(), png.size());
    if (const auto error = output.commit()) {
        QTextStream(stderr) << "parasight: cannot write '" << target << "': " << QString::fromStdString(*error) << '\n';
        return exit_internal_error;
    }
    return exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
    // Ctrl-C, SIGTERM or a closed terminal ends the window as before (its autosave is offered at the next start), but
    // leaves no hidden temporary file beside an export or screenshot being written.
    parasight::remove_temporary_files_on_signals();
    // A sweep's points, and each re-run, reuse the memory the runs before them freed.
    parasight::keep_freed_memory_for_reuse();
    // A screenshot needs no display: render offscreen unless the caller chose a platform.
    if (wants_screenshot(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ParaSight"));
    QApplication::setOrganizationName(QStringLiteral("ParaSight"));
    QApplication::setApplicationVersion(QStringLiteral(PARASIGHT_VERSION));
    // The installed desktop file's name: Wayland compositors match the window to it for its name and icon.
    QGuiApplication::setDesktopFileName(QStringLiteral(PARASIGHT_APP_ID));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Design-space explorer for distributed deep-learning training"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window once FILE is simulated (and, for the "
                                                       "What-if tab, its delay sweep run), write it to OUT.png and "
                                                       "exit."),
                                        QStringLiteral("OUT.png"));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("The tab to show: %1.")
                                     .arg(parasight::gui::MainWindow::tabNames().join(QStringLiteral(", "))),
                                 QStringLiteral("NAME"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("The window size (default 1400x900)."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption colours(QStringLiteral("palette"),
                                     QStringLiteral("Colours: %1 (default: as last chosen in View > Appearance).")
                                         .arg(parasight::gui::appearance_names().join(QStringLiteral(", "))),
                                     QStringLiteral("NAME"));
    const QCommandLineOption spotlight(QStringLiteral("spotlight"),
                                       QStringLiteral("With --screenshot: bring TARGET into view and mark it "
                                                      "(tab:NAME, field:PATH, node:stage[i], npu:N, group:G@N, "
                                                      "device:N@VIEW, events:TEXT, time:A..B, memory:CATEGORY)."),
                                       QStringLiteral("TARGET"));
    const QCommandLineOption compare(QStringLiteral("compare"),
                                     QStringLiteral("Compare two stored runs on the History tab, their timelines shown "
                                                    "(as 'parasight-cli runs list' names them: run:3,run:4)."),
                                     QStringLiteral("run:A,run:B"));
    const QCommandLineOption sweep_axis(
        QStringLiteral("sweep-axis"),
        QStringLiteral("Run a sweep of the scenario on the Sweeps tab over this axis, as parasight-cli sweep --axis "
                       "writes it (repeatable: parallelism.tp=1,2,4,8); its points are stored in the results database. "
                       "With --screenshot, the tab is pictured mid-run, once the first points are shown (or finished, "
                       "if the sweep ends first)."),
        QStringLiteral("PATH=VALUES"));
    const QCommandLineOption lesson_option(
        QStringLiteral("lesson"),
        QStringLiteral("Open a lesson — a bundled lesson's id (parasight-cli presets list lesson) or a lesson file — at "
                       "step STEP, from 1 (default 1); with --screenshot, the step is pictured once its run has settled "
                       "and its targets are shown."),
        QStringLiteral("LESSON[:STEP]"));
    parser.addOptions({screenshot, tab, size, colours, spotlight, compare, sweep_axis, lesson_option});
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("A scenario to open (default: the bundled default scenario)."));
    if (!parser.parse(QApplication::arguments())) return usage_error(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return exit_ok;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        QTextStream(stdout) << "parasight " << PARASIGHT_VERSION << '\n';
        return exit_ok;
    }
    if (parser.positionalArguments().size() > 1) return usage_error(QStringLiteral("name at most one scenario FILE"));

    QSize window_size(1400, 900);
    if (parser.isSet(size)) {
        static const QRegularExpression pattern(QStringLiteral("^([0-9]{1,5})x([0-9]{1,5})$"));
        const QRegularExpressionMatch match = pattern.match(parser.value(size));
        const int width = match.hasMatch() ? match.captured(1).toInt() : 0;
        const int height = match.hasMatch() ? match.captured(2).toInt() : 0;
        if (width < 320 || height < 240 || width > 10000 || height > 10000) {
            return usage_error(QStringLiteral("--size must be WIDTHxHEIGHT from 320x240 to 10000x10000, not '%1'")
                                   .arg(parser.value(size)));
        }
        window_size = QSize(width, height);
    }

    QString appearance = QSettings().value(QStringLiteral("appearance"), QStringLiteral("system")).toString();
    if (parser.isSet(colours)) {
        appearance = parser.value(colours);
        if (!parasight::gui::appearance_from_name(appearance)) {
            return usage_error(QStringLiteral("--palette: unknown palette '%1'; expected one of %2")
                                   .arg(appearance, parasight::gui::appearance_names().join(QStringLiteral(", "))));
        }
        // A one-off choice for this run: the remembered one stays as it was.
    }
    parasight::gui::apply_appearance(parasight::gui::appearance_from_name(appearance).value_or(parasight::gui::Appearance::system));

    parasight::gui::MainWindow window;
    if (parser.isSet(tab) && !window.showTab(parser.value(tab))) {
        return usage_error(QStringLiteral("--tab: unknown tab '%1'; expected one of %2")
                               .arg(parser.value(tab), parasight::gui::MainWindow::tabNames().join(QStringLiteral(", "))));
    }
    const bool taking_screenshot = parser.isSet(screenshot);
    std::optional<std::pair<std::int64_t, std::int64_t>> compared;
    if (parser.isSet(compare)) {
        static const QRegularExpression pattern(QStringLiteral("^run:([0-9]{1,18}),run:([0-9]{1,18})$"));
        const QRegularExpressionMatch match = pattern.match(parser.value(compare));
        if (!match.hasMatch()) {
            return usage_error(
                QStringLiteral("--compare must name two stored runs as run:A,run:B (run:3,run:4), not '%1'")
                    .arg(parser.value(compare)));
        }
        compared = std::pair(match.captured(1).toLongLong(), match.captured(2).toLongLong());
        window.showTab(QStringLiteral("history"));
    }
    std::optional<std::pair<parasight::Lesson, int>> lesson;
    if (parser.isSet(lesson_option)) {
        // NAME or NAME:STEP, NAME a bundled lesson's id or a lesson file.
        const QString value = parser.value(lesson_option);
        const qsizetype colon = value.lastIndexOf(u':');
        bool step_given = false;
        const int step = colon < 0 ? 1 : value.mid(colon + 1).toInt(&step_given);
        const QString name = step_given ? value.left(colon) : value;
        const QString step_text = step_given ? value.mid(colon + 1) : QString();
        parasight::LessonRead read = parasight::read_named_lesson(name.toStdString());
        if (!read.lesson) {
            return usage_error(QStringLiteral("--lesson: %1").arg(QString::fromStdString(read.diagnostics.front().to_string())));
        }
        const auto steps = static_cast<int>(read.lesson->steps.size());
        if (step < 1 || step > steps) {
            return usage_error(QStringLiteral("--lesson: '%1' has steps 1 to %2, not '%3'").arg(name).arg(steps).arg(step_text));
        }
        lesson = std::pair(std::move(*read.lesson), step - 1);
    }
    const QStringList sweep_axes = parser.values(sweep_axis);
    if (!sweep_axes.isEmpty()) {
        if (compared) return usage_error(QStringLiteral("--compare and --sweep-axis show different tabs: name one"));
        window.showTab(QStringLiteral("sweeps"));
    }
    std::optional<parasight::Target> spotlit;
    if (parser.isSet(spotlight)) {
        if (!taking_screenshot) return usage_error(QStringLiteral("--spotlight marks a target in a --screenshot"));
        const parasight::Expected<parasight::Target> target =
            parasight::parse_target(parser.value(spotlight).toStdString());
        if (!target) {
            return usage_error(QStringLiteral("--spotlight: %1").arg(QString::fromStdString(target.error())));
        }
        spotlit = target.value();
    }
    std::unique_ptr<parasight::AtomicOutput> output;
    if (taking_screenshot) {
        const QString path = parser.value(screenshot);
        if (!path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive)) {
            return usage_error(QStringLiteral("--screenshot writes a PNG: name a file ending in .png, not '%1'")
                                   .arg(path));
        }
        auto opened = parasight::AtomicOutput::open(path.toStdString());
        if (!opened) {
            return usage_error(QStringLiteral("--screenshot: cannot write '%1': %2")
                                   .arg(path, QString::fromStdString(opened.error())));
        }
        output = std::move(opened.value());
    }

    int status = exit_ok;
    if (taking_screenshot) {
        // Rendered once the run has settled and the event loop has had its turn: the status bar has hidden the
        // progress bar and the layouts have made room for the new numbers.
        const auto take = [&] {
            if (spotlit && !window.spotlight(*spotlit)) {
                QTextStream(stderr) << "parasight: --spotlight: nothing in this scenario's window shows "
                                    << QString::fromStdString(parasight::target_text(*spotlit)) << '\n';
                status = exit_bad_input;
                QApplication::exit(status);
                return;
            }
            // The spotlight settles once the tab it reveals is laid out (it looks again every 100 ms).
            QTimer::singleShot(spotlit ? 300 : 0, &application, [&] {
                status = write_screenshot(window, *output);
                QApplication::exit(status);
            });
        };
        if (lesson) {
            // The step once its run has settled and the window has shown its tab and targets (the spotlight settles
            // in a few hundred milliseconds).
            QObject::connect(&window, &parasight::gui::MainWindow::runSettled, &application,
                             [&application, take] { QTimer::singleShot(400, &application, take); },
                             Qt::SingleShotConnection);
        } else if (!sweep_axes.isEmpty()) {
            // Mid-run: the first grid of a sweep not yet whole with a point in it, shown while the sweep runs, with its
            // points read; or, if the sweep ends first, the finished tab with its points read.
            auto* sweeps = window.sweepsPage();
            auto taken = std::make_shared<bool>(false);
            const auto once = [taken, take] {
                if (*taken) return;
                *taken = true;
                take();
            };
            auto waiting = std::make_shared<bool>(false);  // for the points of a grid shown mid-run
            QObject::connect(sweeps, &parasight::gui::SweepsPage::gridShown, &application, [sweeps, once, waiting] {
                const auto& grid = sweeps->heatmap()->grid();
                const bool filled = grid && std::any_of(grid->cells.begin(), grid->cells.end(),
                                                        [](const parasight::GridCell& cell) { return cell.points > 0; });
                const parasight::SweepSummary* shown = sweeps->shownSweep();
                if (*waiting || !sweeps->isSweeping() || shown == nullptr || shown->stored() >= shown->point_count ||
                    !filled) {
                    return;
                }
                *waiting = true;
                QObject::connect(sweeps, &parasight::gui::SweepsPage::pointsShown, sweeps, once,
                                 Qt::SingleShotConnection);
            });
            QObject::connect(sweeps, &parasight::gui::SweepsPage::sweepSettled, &application, [sweeps, once] {
                QObject::connect(sweeps, &parasight::gui::SweepsPage::pointsShown, sweeps, once,
                                 Qt::SingleShotConnection);
            }, Qt::SingleShotConnection);
        } else if (parser.value(tab) == QStringLiteral("sweeps")) {
            // The Sweeps tab is pictured once the run has settled and its database has been read, in either order.
            auto waiting = std::make_shared<int>(2);
            const auto one_done = [waiting, take] {
                if (--*waiting == 0) take();
            };
            QObject::connect(&window, &parasight::gui::MainWindow::runSettled, &application, one_done,
                             Qt::SingleShotConnection);
            // A heatmap is pictured with its table of points read.
            auto* sweeps = window.sweepsPage();
            QObject::connect(sweeps, &parasight::gui::SweepsPage::gridShown, &application, [sweeps, one_done] {
                if (sweeps->heatmap()->grid()) {
                    QObject::connect(sweeps, &parasight::gui::SweepsPage::pointsShown, sweeps, one_done,
                                     Qt::SingleShotConnection);
                } else {
                    one_done();
                }
            }, Qt::SingleShotConnection);
        } else if (compared) {
            // A comparison is pictured once the run has settled and both runs have been simulated again; a run the
            // database does not hold is refused.
            auto waiting = std::make_shared<int>(2);
            const auto one_done = [waiting, take] {
                if (--*waiting == 0) take();
            };
            QObject::connect(&window, &parasight::gui::MainWindow::runSettled, &application, one_done,
                             Qt::SingleShotConnection);
            auto* history = window.historyPage();
            QObject::connect(history, &parasight::gui::HistoryPage::comparisonShown, &application, [&, history] {
                if (history->comparisonModel()->rowCount() == 0) {
                    QTextStream(stderr) << "parasight: --compare: " << history->comparisonTitle() << '\n';
                    status = exit_bad_input;
                    QApplication::exit(status);
                }
            }, Qt::SingleShotConnection);
            QObject::connect(history, &parasight::gui::HistoryPage::comparedRunsSimulated, &application, one_done,
                             Qt::SingleShotConnection);
        } else if (parser.value(tab) == QStringLiteral("history")) {
            // The History tab is pictured once the run has settled and the history has been read, in either order.
            auto waiting = std::make_shared<int>(2);
            const auto one_done = [waiting, take] {
                if (--*waiting == 0) take();
            };
            QObject::connect(&window, &parasight::gui::MainWindow::runSettled, &application, one_done,
                             Qt::SingleShotConnection);
            QObject::connect(window.historyPage(), &parasight::gui::HistoryPage::historyShown, &application, one_done,
                             Qt::SingleShotConnection);
        } else if (parser.value(tab) == QStringLiteral("whatif")) {
            // The What-if tab is pictured with its delay sweep (the controls' default one) drawn.
            QObject::connect(&window, &parasight::gui::MainWindow::runSettled, &application, [&window, take] {
                if (!window.whatIfPage()->sweep()) take();
            });
            QObject::connect(window.whatIfPage(), &parasight::gui::WhatIfPage::sweepSettled, &application, take);
        } else {
            QObject::connect(&window, &parasight::gui::MainWindow::runSettled, &application, take);
        }
    }
    window.resize(window_size);
    if (compared) {
        window.historyPage()->compareRuns(compared->first, compared->second);
        window.historyPage()->showComparedTimelines();
    }
    if (!sweep_axes.isEmpty()) {
        // Once the scenario has been simulated: the axes written on the Sweeps tab and run, or why they make no sweep.
        const auto refuse_sweep = [&](const QString& why) {
            if (!taking_screenshot) return;
            QTextStream(stderr) << "parasight: --sweep-axis: " << why << '\n';
            status = exit_bad_input;
            QApplication::exit(status);
        };
        QObject::connect(window.sweepsPage(), &parasight::gui::SweepsPage::sweepRefused, &application, refuse_sweep);
        QObject::connect(&window, &parasight::gui::MainWindow::runSettled, &application, [&, refuse_sweep] {
            auto* sweeps = window.sweepsPage();
            sweeps->axesEdit()->setPlainText(sweep_axes.join(u'\n'));
            if (!sweeps->runSweep()) refuse_sweep(sweeps->progressText());
        }, Qt::SingleShotConnection);
    }
    // A picture for the docs is not a file the user opened.
    window.setRecordsRecentFiles(!taking_screenshot);
    if (taking_screenshot) window.setKeepsRuns(false);  // a picture leaves the history as it was
    const auto print_problems = [](const parasight::Diagnostics& problems) {
        for (const auto& problem : problems) QTextStream(stderr) << QString::fromStdString(problem.to_string()) << '\n';
    };
    const auto refuse_screenshot = [&](const parasight::Diagnostics& problems) {
        print_problems(problems);
        status = exit_bad_input;
        QApplication::exit(status);
    };
    if (taking_screenshot) {
        // The file is read on a worker: what it holds decides once it has been read.
        QObject::connect(&window, &parasight::gui::MainWindow::fileOpened, &application, [&](const QString&, bool opened) {
            if (!opened) {
                refuse_screenshot(window.openFilePage() != nullptr ? window.openFilePage()->problems()->problems()
                                                                   : parasight::Diagnostics{});
            } else if (!window.document().validated()) {
                refuse_screenshot(window.document().problems());
            }
        });
    }
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty()) {
        window.openDefaultScenario();
        if (taking_screenshot && !window.document().validated()) {
            print_problems(window.document().problems());  // read at once: refused before the event loop runs
            return exit_bad_input;
        }
    } else {
        window.openFile(files.front());
    }
    if (lesson) window.openLesson(std::move(lesson->first), lesson->second);
    window.show();
    if (!taking_screenshot) window.offerRecovery(parasight::gui::Autosave::default_folder());
    // The welcome at start, when nothing was asked for on the command line and it has not been turned off.
    if (!taking_screenshot && files.isEmpty() && !parser.isSet(lesson_option) && !parser.isSet(compare) &&
        sweep_axes.isEmpty() && parasight::gui::WelcomeDialog::showsAtStart()) {
        window.showWelcome();
    }
    const int code = QApplication::exec();
    return taking_screenshot ? status : code;
}

#include "sweeps/sweeps_page.h"

#include "common/message_text.h"
#include "document/scenario_document.h"
#include "scenario_file/sweep_section.h"
#include "document/results_database.h"
#include "store/stored_sweep_ranking.h"
#include "store/stored_sweep_run.h"
#include "store/stored_table.h"
#include "io/atomic_output.h"
#include "picture/export_button.h"
#include "store/point_filter.h"
#include "store/stored_rows_writer.h"
#include "store/sql_text.h"
#include "store/sweep_pareto.h"
#include "store/sweep_slices.h"
#include "run/comparison_choice.h"
#include "scenario_file/scenario_writer.h"
#include "sweeps/axis_picker.h"
#include "sweeps/heatmap_view.h"
#include "sweeps/pareto_view.h"
#include "sweeps/slice_view.h"
#include "sweeps/sweep_points_model.h"
#include "sweeps/sweep_job.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QRegularExpression>
#include <QGridLayout>
#include <QGroupBox>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QThread>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QTableView>
#include <QTimer>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace parasight::gui {
namespace {

QString text_of(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

// The sweeps of a database, or why they cannot be read.
using SweepList = Expected<std::vector<SweepSummary>>;

SweepList read_sweeps(const std::string& path) {
    Expected<ResultStore> store = open_results_for_reading(path);
    if (!store) return Error{store.error()};
    return store.value().sweeps();
}

// A grid and the ranking of its sweep, or why not.
struct GridAnswer {
    SweepGrid grid;
    std::string default_metric;  // what ranks the sweep when no metric is named
};

Expected<GridAnswer> read_grid(const std::string& path, GridRequest request, const SweepSummary& sweep,
                               bool default_metric) {
    Expected<ResultStore> store = open_results_for_reading(path);
    if (!store) return Error{store.error()};
    GridAnswer answer;
    if (default_metric) {
        const Expected<DefaultRanking> ranking = stored_sweep_ranking(store.value(), sweep, std::nullopt);
        if (!ranking) return Error{ranking.error()};
        answer.default_metric = std::string(ranking.value().metric.column);
        request.metric = grid_metric(answer.default_metric).value();
    }
    Expected<SweepGrid> grid = store.value().sweep_grid(request);
    if (!grid) return Error{grid.error()};
    answer.grid = std::move(grid).value();
    return answer;
}

}  // namespace

SweepsPage::SweepsPage(ScenarioDocument& document, QWidget* parent) : QWidget(parent), document_(document) {
    // What to sweep: axes as the command line writes them, a strategy space, and how many points that makes.
    auto* define = new QGroupBox(tr("Sweep the scenario being edited"), this);
    axes_ = new QPlainTextEdit(define);
    axes_->setObjectName(QStringLiteral("SweepAxes"));
    axes_->setAccessibleName(tr("Axes, one per line"));
    axes_->setPlaceholderText(tr("One axis per line, as parasight-cli sweep --axis writes it:\n"
                                 "parallelism.tp=1,2,4,8\nparallelism.pp=1..16 x2"));
    axes_->setTabChangesFocus(true);
    axes_->setFixedHeight(axes_->fontMetrics().lineSpacing() * 3 + 10);
    axis_picker_ = new AxisPicker(define);
    connect(axis_picker_, &AxisPicker::axisWritten, this,
            [this](const QString& line) { axes_->setPlainText(with_axis_line(axes_->toPlainText(), line)); });
    strategies_ = new QComboBox(define);
    strategies_->setAccessibleName(tr("Strategy space"));
    strategies_->addItem(tr("no strategy space"));
    strategies_->addItem(tr("strategies: degrees"));
    strategies_->addItem(tr("strategies: all"));
    count_ = new QLabel(define);
    count_->setWordWrap(true);
    // Two lines always: a short count after a long problem must not move Run Sweep from under the pointer.
    count_->setMinimumHeight(count_->fontMetrics().lineSpacing() * 2);
    count_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    run_ = new QPushButton(tr("&Run Sweep"), define);
    cancel_ = new QPushButton(tr("Cancel"), define);
    cancel_->hide();
    copy_ = new QPushButton(tr("Copy as &Command"), define);
    copy_->setToolTip(tr("The parasight-cli sweep line that runs the same sweep, or the Slurm job array that splits it "
                         "(packaging/slurm/submit-sweep.sh)"));
    progress_ = new QLabel(define);
    auto* controls = new QVBoxLayout;
    controls->addWidget(strategies_);
    controls->addWidget(count_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    controls->addLayout(buttons);
    controls->addWidget(copy_);
    controls->addWidget(progress_);
    controls->addStretch(1);
    auto* axes_column = new QVBoxLayout;
    axes_column->addWidget(axes_);
    axes_column->addWidget(axis_picker_);
    axes_column->addStretch(1);
    auto* define_layout = new QHBoxLayout(define);
    define_layout->addLayout(axes_column, 1);
    define_layout->addLayout(controls);
    connect(axes_, &QPlainTextEdit::textChanged, this, &SweepsPage::updatePointCount);
    connect(strategies_, &QComboBox::currentIndexChanged, this, &SweepsPage::updatePointCount);
    connect(&document_, &ScenarioDocument::scenarioChanged, this, &SweepsPage::followScenario);
    offerFields();
    connect(run_, &QPushButton::clicked, this, &SweepsPage::runSweep);
    connect(cancel_, &QPushButton::clicked, this, &SweepsPage::cancelSweep);
    // The command line, or the Slurm job array's (packaging/slurm) that splits it over eight tasks.
    const auto copy = [this](const Expected<QString>& command) {
        if (!command) {
            progress_->setText(QString::fromStdString(command.error()));
            return;
        }
        QGuiApplication::clipboard()->setText(command.value());
        progress_->setText(tr("The command is on the clipboard"));
    };
    auto* copy_menu = new QMenu(copy_);
    copy_menu->addAction(tr("parasight-cli sweep"), this, [this, copy] { copy(sweepCommand()); });
    copy_menu->addAction(tr("Slurm Job Array (8 Shards)"), this, [this, copy] { copy(slurmArrayCommand(8)); });
    copy_->setMenu(copy_menu);
    connect(&sweeper_, &JobRunner::progressed, this, [this](quint64, const QString& phase, double) {
        progress_->setText(phase);
        // The heatmap fills in: the new sweep listed once it is stored, then its grid read again as points arrive.
        if (sweep_box_->count() == 0 || running_sweep_ == 0) {
            setDatabase(database_);
        } else {
            requestGrid();
        }
    });
    const auto settled = [this](const QString& text) {
        run_->setEnabled(true);
        cancel_->hide();
        progress_->setText(text);
        setDatabase(database_);  // the counts as stored
        Q_EMIT sweepSettled();
    };
    connect(&sweeper_, &JobRunner::cancelled, this,
            [settled] { settled(tr("Cancelled; the points run are stored: Run Sweep again resumes")); });
    connect(&sweeper_, &JobRunner::failed, this,
            [settled](quint64, const QString& what) { settled(tr("The sweep failed: %1").arg(what)); });

    status_ = new QLabel(this);
    status_->setWordWrap(true);
    auto* open = new QPushButton(tr("Open Database…"), this);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = ask_for_results_database(this, database_);
        if (path.isEmpty()) return;
        setDatabase(path);
        Q_EMIT databaseChosen(path);
    });
    sweep_box_ = new QComboBox(this);
    sweep_box_->setAccessibleName(tr("Sweep"));
    metric_box_ = new QComboBox(this);
    metric_box_->setAccessibleName(tr("Metric"));
    for (const GridMetric& metric : grid_metrics()) metric_box_->addItem(text_of(metric.name));
    x_box_ = new QComboBox(this);
    x_box_->setAccessibleName(tr("Axis across"));
    y_box_ = new QComboBox(this);
    y_box_->setAccessibleName(tr("Axis down"));
    for (QComboBox* box : {metric_box_, x_box_, y_box_}) box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rule_box_ = new QComboBox(this);
    rule_box_->setAccessibleName(tr("The other axes"));
    rule_box_->addItem(tr("best"));
    rule_box_->addItem(tr("median"));
    rule_box_->addItem(tr("worst"));
    scale_box_ = new QComboBox(this);
    scale_box_->setAccessibleName(tr("Scale"));
    scale_box_->addItem(tr("linear"));
    scale_box_->addItem(tr("log"));
    scale_box_->addItem(tr("ratio to baseline"));
    scale_box_->setToolTip(tr("Ratios are to the first cell with a value, or the one chosen with a right-click"));
    glyphs_box_ = new QCheckBox(tr("&Why: breakdown bars"), this);
    glyphs_box_->setToolTip(tr("A bar in each cell: compute, exposed communication by group, bubble and idle of the "
                               "point it shows"));
    glyphs_box_->setChecked(true);
    heatmap_ = new HeatmapView(this);
    heatmap_->setGlyphsShown(true);
    // The points, filtered, a page at a time: best first by the metric, or by a header clicked.
    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("PointFilter"));
    filter_->setAccessibleName(tr("Filter the points"));
    filter_->setPlaceholderText(tr("Filter: fits, pp <= 8, mfu > 0.5, peak_memory_bytes < 60 GiB"));
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(tr("Conditions joined by , or and: fits, or NAME OP VALUE — an axis (its path or last part) "
                           "or a result column, OP one of < <= > >= = !=, a value with its unit where it has one"));
    auto* filter_pause = new QTimer(this);
    filter_pause->setSingleShot(true);
    filter_pause->setInterval(300);
    connect(filter_, &QLineEdit::textChanged, filter_pause, qOverload<>(&QTimer::start));
    connect(filter_pause, &QTimer::timeout, this, &SweepsPage::requestGrid);
    points_status_ = new QLabel(this);
    points_status_->setWordWrap(true);
    points_model_ = new SweepPointsModel(this);
    points_table_ = new QTableView(this);
    points_table_->setObjectName(QStringLiteral("SweepPoints"));
    points_table_->setModel(points_model_);
    points_table_->setSortingEnabled(true);
    points_table_->horizontalHeader()->setSortIndicatorShown(false);  // until a header is clicked
    points_table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    points_table_->setSelectionMode(QAbstractItemView::SingleSelection);
    points_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    points_table_->verticalHeader()->hide();
    points_table_->setToolTip(tr("Double-click a point to open it"));
    more_ = new QPushButton(tr("Show &More"), this);
    connect(more_, &QPushButton::clicked, this, &SweepsPage::showMorePoints);
    connect(points_model_, &SweepPointsModel::sortRequested, this, [this](const QString& column, Qt::SortOrder order) {
        order_column_ = column;
        order_ = order;
        points_table_->horizontalHeader()->setSortIndicatorShown(true);
        requestPoints(false);
    });
    connect(points_table_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { openPoint(points_model_->pointOf(index.row())); });
    points_table_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(points_table_, &QTableView::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex index = points_table_->indexAt(at);
        if (!index.isValid()) return;
        const std::int64_t point = points_model_->pointOf(index.row());
        QMenu menu(points_table_);
        QAction* open_point = menu.addAction(tr("Open Point %1").arg(point));
        QAction* compare = choice_ != nullptr ? menu.addAction(choice_->actionText()) : nullptr;
        QAction* chosen = menu.exec(points_table_->viewport()->mapToGlobal(at));
        if (chosen == open_point) openPoint(point);
        if (chosen != nullptr && chosen == compare) comparePoint(point);
    });
    connect(points_table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SweepsPage::markSelectedPoint);
    connect(&points_runner_, &JobRunner::failed, this, [this](quint64, const QString& what) {
        points_status_->setText(tr("The points could not be read: %1").arg(what));
        Q_EMIT pointsShown();
    });
    // The other axes, each held at one value or not: two to a line, under the scale, so that a sweep of many axes
    // still fits a small window.
    fixed_row_ = new QWidget(this);
    fixed_layout_ = new QGridLayout(fixed_row_);
    fixed_layout_->setContentsMargins(0, 0, 0, 0);
    fixed_row_->hide();

    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(open);
    // The sweep on a line of its own: its name can be long.
    auto* which = new QHBoxLayout;
    which->addWidget(new QLabel(tr("Sweep"), this));
    which->addWidget(sweep_box_, 1);
    auto* choices = new QHBoxLayout;
    const auto labelled = [&](const QString& label, QComboBox* box) {
        choices->addWidget(new QLabel(label, this));
        choices->addWidget(box);
    };
    labelled(tr("Metric"), metric_box_);
    labelled(tr("Across"), x_box_);
    labelled(tr("Down"), y_box_);
    rule_box_->setToolTip(tr("Each cell shows the best, median or worst point among the sweep's other axes"));
    labelled(tr("Others at their"), rule_box_);
    choices->addStretch(1);
    // How the cells read, and the other axes held at one value or not.
    auto* reading = new QHBoxLayout;
    reading->addWidget(new QLabel(tr("Scale"), this));
    reading->addWidget(scale_box_);
    reading->addWidget(glyphs_box_);
    reading->addStretch(1);
    // Scrolls rather than hold the window larger than a small screen (640 × 400 with the dock).
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(define);
    layout->addLayout(top);
    layout->addLayout(which);
    layout->addLayout(choices);
    layout->addLayout(reading);
    layout->addWidget(fixed_row_);
    auto* points = new QWidget(this);
    auto* points_layout = new QVBoxLayout(points);
    points_layout->setContentsMargins(0, 0, 0, 0);
    auto* filter_line = new QHBoxLayout;
    filter_line->addWidget(filter_, 1);
    filter_line->addWidget(more_);
    // Below the heatmap, the points, the slices through the best one, and the Pareto front.
    slice_view_ = new SliceView(this);
    pareto_view_ = new ParetoView(this);
    std::vector<ExportChoice> exports = picture_choices(heatmap_, tr("Heatmap"));
    for (ExportChoice& choice : picture_choices(slice_view_, tr("Slices"))) exports.push_back(std::move(choice));
    for (ExportChoice& choice : picture_choices(pareto_view_, tr("Pareto Front"))) exports.push_back(std::move(choice));
    exports.push_back(ExportChoice{tr("Points as &CSV…"), tr("Export the points that pass the filter as CSV"),
                                   tr("CSV files (*.csv)"), QStringLiteral(".csv"),
                                   [this](const QString& path) -> std::optional<QString> {
                                       exportPointsCsv(path);  // on a worker; `exported` says how it went
                                       return std::nullopt;
                                   }});
    exports.push_back(ExportChoice{tr("Sweep as &YAML Section…"), tr("Export the sweep's axes as a sweep: section"),
                                   tr("YAML files (*.yaml)"), QStringLiteral(".yaml"),
                                   [this](const QString& path) -> std::optional<QString> {
                                       exportSweepSection(path);
                                       return std::nullopt;
                                   }});
    QToolButton* export_button = make_export_button(this, std::move(exports));
    export_button->setObjectName(QStringLiteral("SweepsExport"));
    filter_line->addWidget(export_button);
    connect(this, &SweepsPage::exported, points_status_, &QLabel::setText);
    points_layout->addLayout(filter_line);
    points_layout->addWidget(points_status_);
    points_layout->addWidget(points_table_, 1);
    auto* below = new QTabWidget(this);
    below->setDocumentMode(true);
    below->addTab(points, tr("Points"));
    below->addTab(slice_view_, tr("Slices through the best"));
    // The trade-off: a cost across, a result up, the front; the points it dominates dimmable.
    auto* pareto = new QWidget(this);
    pareto_cost_ = new QComboBox(pareto);
    pareto_cost_->setAccessibleName(tr("Cost"));
    for (const GridMetric& cost : pareto_costs()) pareto_cost_->addItem(text_of(cost.name));
    pareto_result_ = new QComboBox(pareto);
    pareto_result_->setAccessibleName(tr("Result"));
    for (const char* name : {"samples_per_s", "tokens_per_s", "iteration_time_s", "mfu"}) {
        pareto_result_->addItem(QString::fromLatin1(name));
    }
    auto* dim = new QCheckBox(tr("&Dim dominated points"), pareto);
    dim->setToolTip(tr("Fade every point another point beats on both cost and result"));
    auto* pareto_controls = new QHBoxLayout;
    pareto_controls->addWidget(new QLabel(tr("Result"), pareto));
    pareto_controls->addWidget(pareto_result_);
    pareto_controls->addWidget(new QLabel(tr("against"), pareto));
    pareto_controls->addWidget(pareto_cost_);
    pareto_controls->addWidget(dim);
    pareto_controls->addStretch(1);
    auto* pareto_layout = new QVBoxLayout(pareto);
    pareto_layout->setContentsMargins(0, 0, 0, 0);
    pareto_layout->addLayout(pareto_controls);
    pareto_layout->addWidget(pareto_view_, 1);
    below->addTab(pareto, tr("Pareto front"));
    connect(pareto_cost_, &QComboBox::currentIndexChanged, this, &SweepsPage::requestPareto);
    connect(pareto_result_, &QComboBox::currentIndexChanged, this, &SweepsPage::requestPareto);
    connect(dim, &QCheckBox::toggled, pareto_view_, &ParetoView::setDominatedDimmed);
    connect(pareto_view_, &ParetoView::pointActivated, this, &SweepsPage::openPoint);
    connect(pareto_view_, &ParetoView::pointClicked, this, &SweepsPage::selectPoint);
    connect(pareto_view_, &ParetoView::compareRequested, this, &SweepsPage::comparePoint);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(heatmap_);
    split->addWidget(below);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(sweep_box_, &QComboBox::currentIndexChanged, this, &SweepsPage::chooseSweep);
    for (QComboBox* box : {metric_box_, x_box_, y_box_, rule_box_}) {
        connect(box, &QComboBox::currentIndexChanged, this, &SweepsPage::requestGrid);
    }
    connect(heatmap_, &HeatmapView::pointActivated, this, &SweepsPage::openPoint);
    connect(heatmap_, &HeatmapView::pointClicked, this, &SweepsPage::selectPoint);
    connect(heatmap_, &HeatmapView::compareRequested, this, &SweepsPage::comparePoint);
    connect(scale_box_, &QComboBox::currentIndexChanged, this,
            [this](int index) { heatmap_->setScale(static_cast<HeatmapScale>(index)); });
    connect(heatmap_, &HeatmapView::baselineChosen, this,
            [this] { scale_box_->setCurrentIndex(static_cast<int>(HeatmapScale::ratio)); });
    connect(glyphs_box_, &QCheckBox::toggled, heatmap_, &HeatmapView::setGlyphsShown);
    connect(&runner_, &JobRunner::failed, this, [this](quint64, const QString& what) {
        heatmap_->showMessage(tr("The database could not be read: %1").arg(what));
        Q_EMIT gridShown();
    });
}

QString SweepsPage::statusText() const { return status_->text(); }

QString SweepsPage::pointCountText() const { return count_->text(); }

QString SweepsPage::progressText() const { return progress_->text(); }

SweepsPage::SweepRequest SweepsPage::sweepRequest() const {
    SweepRequest request;
    for (const QString& line : axes_->toPlainText().split(u'\n')) {
        const QString spec = line.trimmed();
        if (!spec.isEmpty()) request.specs.push_back(spec.toStdString());
    }
    request.strategies = strategies_->currentIndex() == 1   ? std::optional<std::string>("degrees")
                         : strategies_->currentIndex() == 2 ? std::optional<std::string>("all")
                                                            : std::nullopt;
    request.scenario = document_.sharedScenario();
    request.section = document_.sweepSection();
    const QFileInfo file(document_.filePath());
    request.folder = document_.filePath().isEmpty() ? std::filesystem::path(".")
                                                    : std::filesystem::path(file.absolutePath().toStdString());
    return request;
}

Expected<SweepPlan, QString> SweepsPage::planOf(SweepRequest request) {
    // The document's own sweep section comes first, as parasight-cli sweep FILE reads it.
    SweepSection section;
    if (!request.section.empty()) {
        const SweepSectionRead read = read_sweep_section(request.section, "the scenario's sweep section");
        if (read.section) section = *read.section;
    }
    const SweepBase base = sweep_base(*request.scenario, std::move(section), std::move(request.folder));
    Expected<SweepPlan, SweepSetupProblem> plan = plan_sweep(base, request.specs, request.strategies);
    if (plan) return std::move(plan).value();
    const SweepSetupProblem& problem = plan.error();
    switch (problem.source) {
        case SweepSetupProblem::Source::section:
            return QString::fromStdString(problem.diagnostics.empty() ? std::string("the scenario's sweep section")
                                                                      : problem.diagnostics.front().to_string());
        case SweepSetupProblem::Source::axis:
            return tr("%1: %2").arg(QString::fromStdString(problem.given), QString::fromStdString(problem.message));
        case SweepSetupProblem::Source::no_axes: return tr("Write an axis, or choose a strategy space");
        case SweepSetupProblem::Source::strategies:
        case SweepSetupProblem::Source::space: break;
    }
    return QString::fromStdString(problem.message);
}

void SweepsPage::offerFields() {
    fields_runner_.start<std::vector<AxisValue>>(
        [scenario = document_.sharedScenario()](JobRunner::Context&) {
            return scalar_values(write_scenario_yaml(*scenario));
        },
        [this](std::uint64_t, std::vector<AxisValue> values) { axis_picker_->setScenarioValues(values); });
}

void SweepsPage::followScenario() {
    // Hidden in a shown window (another tab is in front): later. A page never shown (a test's) follows at once.
    if (window()->isVisible() && !isVisible()) {
        scenario_followed_ = false;
        return;
    }
    scenario_followed_ = true;
    updatePointCount();
    offerFields();
}

void SweepsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!scenario_followed_) followScenario();
}

void SweepsPage::updatePointCount() {
    const bool with_section = !document_.sweepSection().empty();
    count_runner_.start<Expected<std::int64_t, QString>>(
        [request = sweepRequest()](JobRunner::Context&) mutable -> Expected<std::int64_t, QString> {
            Expected<SweepPlan, QString> plan = planOf(std::move(request));
            if (!plan) return plan.error();
            return static_cast<std::int64_t>(plan.value().space.point_count());
        },
        [this, with_section](std::uint64_t, Expected<std::int64_t, QString> points) {
            if (points) {
                QString text = QString::fromStdString(count_phrase(points.value(), "point"));
                // Its axes are not in the box above: say where they come from.
                if (with_section) text = tr("%1, with the scenario's sweep section").arg(text);
                count_->setText(text);
            } else {
                count_->setText(points.error());
            }
            run_->setEnabled(points.has_value() && !sweeper_.isRunning());
        });
}

void SweepsPage::defineSweep(const QStringList& axes, const std::optional<QString>& strategies) {
    axes_->setPlainText(axes.join(u'\n'));
    strategies_->setCurrentIndex(!strategies ? 0 : *strategies == QStringLiteral("all") ? 2 : 1);
}

bool SweepsPage::runSweep() {
    if (!hasDatabase()) return false;
    beginSweep(tr("Planning the sweep…"));
    const int threads = std::max(1, QThread::idealThreadCount());
    sweeper_.start<Expected<SweepRun, QString>>(
        [request = sweepRequest(), database = database_.toStdString(),
         threads](JobRunner::Context& context) mutable -> Expected<SweepRun, QString> {
            Expected<SweepPlan, QString> plan = planOf(std::move(request));
            if (!plan) return plan.error();
            return sweep_work(std::move(plan).value(), std::move(database), threads)(context);
        },
        [this](std::uint64_t, Expected<SweepRun, QString> run) {
            if (run) {
                finishSweep(run.value());
                return;
            }
            run_->setEnabled(true);
            cancel_->hide();
            progress_->clear();
            count_->setText(run.error());
            Q_EMIT sweepRefused(run.error());
        });
    return true;
}

void SweepsPage::resumeSweep(qint64 id) {
    const std::string path = database_.toStdString();
    progress_->setText(tr("Reading sweep:%1 to resume it…").arg(id));
    sweeper_.start<Expected<SweepPlan>>(
        [path, id](JobRunner::Context&) -> Expected<SweepPlan> {
            Expected<ResultStore> store = open_results_for_reading(path);
            if (!store) return Error{store.error()};
            return stored_sweep_plan(store.value(), id);
        },
        [this, id](std::uint64_t, Expected<SweepPlan> plan) {
            if (!plan) {
                progress_->setText(tr("sweep:%1 cannot be resumed: %2").arg(id).arg(QString::fromStdString(plan.error())));
                Q_EMIT sweepSettled();
                return;
            }
            wanted_sweep_ = id;
            startSweep(std::move(plan).value());
        });
}

bool SweepsPage::hasDatabase() {
    if (!database_.isEmpty()) return true;
    progress_->setText(tr("No results database: neither XDG_DATA_HOME nor HOME says where it goes"));
    return false;
}

void SweepsPage::beginSweep(const QString& phase) {
    running_sweep_ = 0;
    run_->setEnabled(false);
    cancel_->show();
    progress_->setText(phase);
}

void SweepsPage::finishSweep(const SweepRun& run) {
    run_->setEnabled(true);
    cancel_->hide();
    progress_->setText(run.error.empty() ? tr("sweep:%1: %2 run now, %3 stored before")
                                               .arg(run.sweep_id)
                                               .arg(run.run)
                                               .arg(run.stored_before)
                                         : tr("The sweep could not be stored: %1").arg(QString::fromStdString(run.error)));
    running_sweep_ = 0;
    setDatabase(database_);
    Q_EMIT sweepSettled();
}

bool SweepsPage::startSweep(SweepPlan plan) {
    if (!hasDatabase()) return false;
    beginSweep(tr("Starting…"));
    const int threads = std::max(1, QThread::idealThreadCount());
    sweeper_.start<SweepRun>(sweep_work(std::move(plan), database_.toStdString(), threads),
                             [this](std::uint64_t, SweepRun run) { finishSweep(run); });
    return true;
}

void SweepsPage::cancelSweep() { sweeper_.cancel(); }

namespace {

// A word for a POSIX shell: as it is when it needs no quoting, otherwise in single quotes.
QString shell_word(const QString& word) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=,+@%-]+$"));
    if (plain.match(word).hasMatch()) return word;
    QString quoted = word;
    quoted.replace(QStringLiteral("'"), QStringLiteral("'\\''"));
    return QStringLiteral("'") + quoted + QStringLiteral("'");
}

}  // namespace

Expected<QString> SweepsPage::sweepCommand() const {
    if (document_.filePath().isEmpty()) {
        return Error{tr("Save the scenario first: the command names its file").toStdString()};
    }
    if (document_.isModified()) {
        return Error{tr("Save the scenario first: the command reads its file as saved").toStdString()};
    }
    QStringList words{QStringLiteral("parasight-cli"), QStringLiteral("sweep"), shell_word(document_.filePath())};
    for (const QString& line : axes_->toPlainText().split(u'\n')) {
        const QString spec = line.trimmed();
        if (!spec.isEmpty()) words << QStringLiteral("--axis") << shell_word(spec);
    }
    if (strategies_->currentIndex() == 1) words << QStringLiteral("--strategies") << QStringLiteral("degrees");
    if (strategies_->currentIndex() == 2) words << QStringLiteral("--strategies") << QStringLiteral("all");
    if (!database_.isEmpty()) words << QStringLiteral("--db") << shell_word(database_);
    return words.join(u' ');
}

Expected<QString> SweepsPage::slurmArrayCommand(int shards) const {
    if (document_.filePath().isEmpty() || document_.isModified()) {
        return Error{tr("Save the scenario first: the job array reads its file as saved").toStdString()};
    }
    if (strategies_->currentIndex() != 0) {
        return Error{tr("The job array takes axes only: write the strategy space in the scenario's sweep: section")
                         .toStdString()};
    }
    // The axes file submit-sweep.sh reads (one axis a line), then the submission: the shards' databases and the
    // merged one in a folder beside the scenario.
    QStringList axes;
    for (const QString& line : axes_->toPlainText().split(u'\n')) {
        const QString spec = line.trimmed();
        if (!spec.isEmpty()) axes << shell_word(spec);
    }
    const QFileInfo file(document_.filePath());
    const QString out = file.absolutePath() + u'/' + file.completeBaseName() + QStringLiteral("-sweep");
    QString command;
    if (!axes.isEmpty()) command = QStringLiteral("printf '%s\\n' ") + axes.join(u' ') + QStringLiteral(" > axes.txt && ");
    else command = QStringLiteral(": > axes.txt && ");
    return command + QStringLiteral("./submit-sweep.sh %1 %2 %3 axes.txt")
                         .arg(shell_word(document_.filePath()))
                         .arg(shards)
                         .arg(shell_word(out));
}

void SweepsPage::setDatabase(const QString& path) {
    database_ = results_database_path(path);
    const std::string chosen = database_.toStdString();
    runner_.start<SweepList>([chosen](JobRunner::Context&) { return read_sweeps(chosen); },
                             [this](std::uint64_t, SweepList sweeps) {
                                 if (!sweeps) {
                                     showSweeps({});
                                     const QString where = results_database_display(database_);
                                     status_->setText(tr("%1 %2. Sweeps run with parasight-cli sweep are stored there.")
                                                          .arg(where, QString::fromStdString(sweeps.error())));
                                     return;
                                 }
                                 showSweeps(sweeps.value());
                             });
}

void SweepsPage::showSweep(qint64 id) {
    for (std::size_t s = 0; s < sweeps_.size(); ++s) {
        if (sweeps_[s].id == id) {
            sweep_box_->setCurrentIndex(static_cast<int>(s));
            return;
        }
    }
    wanted_sweep_ = id;
    setDatabase(database_);
}

void SweepsPage::showSweeps(const std::vector<SweepSummary>& sweeps) {
    sweeps_ = sweeps;
    {
        const QSignalBlocker quiet(sweep_box_);
        sweep_box_->clear();
        for (const SweepSummary& sweep : sweeps_) {
            sweep_box_->addItem(tr("sweep:%1 %2 — %3 of %4 points")
                                    .arg(sweep.id)
                                    .arg(QString::fromStdString(sweep.name))
                                    .arg(sweep.stored())
                                    .arg(sweep.point_count));
        }
        int shown = static_cast<int>(sweeps_.size()) - 1;  // the newest, unless one was asked for
        for (std::size_t s = 0; s < sweeps_.size(); ++s) {
            if (sweeps_[s].id == wanted_sweep_) shown = static_cast<int>(s);
        }
        wanted_sweep_ = 0;
        sweep_box_->setCurrentIndex(shown);
    }
    if (sweeps_.empty()) {
        // Nothing to draw (a database of single runs, or none yet), and said so: whoever waits for the grid goes on.
        status_->setText(tr("%1 holds no sweep yet. Sweeps run here or with parasight-cli sweep are stored there.")
                             .arg(results_database_display(database_)));
        heatmap_->showMessage(tr("No sweep to show"));
        Q_EMIT gridShown();
        return;
    }
    const auto count = static_cast<std::int64_t>(sweeps_.size());
    status_->setText(tr("%1: %2").arg(results_database_display(database_),
                                      QString::fromStdString(count_phrase(count, "sweep"))));
    chooseSweep();
}

const SweepSummary* SweepsPage::shownSweep() const {
    const int index = sweep_box_->currentIndex();
    return index >= 0 && static_cast<std::size_t>(index) < sweeps_.size() ? &sweeps_[static_cast<std::size_t>(index)]
                                                                           : nullptr;
}

void SweepsPage::chooseSweep() {
    const int index = sweep_box_->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size()) return;
    const SweepSummary& sweep = sweeps_[static_cast<std::size_t>(index)];
    {
        const QSignalBlocker quiet_x(x_box_);
        const QSignalBlocker quiet_y(y_box_);
        x_box_->clear();
        y_box_->clear();
        for (const std::string& path : sweep.axis_paths) {
            x_box_->addItem(QString::fromStdString(path));
            y_box_->addItem(QString::fromStdString(path));
        }
        // The first two axes that take more than one value (a single value makes a one-column map), across and down.
        std::vector<int> varied;
        for (std::size_t a = 0; a < sweep.axis_paths.size(); ++a) {
            const bool several = a < sweep.axis_value_counts.size() && sweep.axis_value_counts[a] > 1;
            if (several) varied.push_back(static_cast<int>(a));
        }
        if (varied.size() < 2) varied = {0, sweep.axis_paths.size() > 1 ? 1 : 0};
        x_box_->setCurrentIndex(varied[0]);
        y_box_->setCurrentIndex(varied[1]);
    }
    // What ranks this sweep (the command line's default) until a metric is chosen; its points best first by it.
    metric_box_->setProperty("default", true);
    order_column_.clear();
    points_table_->horizontalHeader()->setSortIndicatorShown(false);
    requestGrid();
}

void SweepsPage::requestGrid() {
    const int index = sweep_box_->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size()) return;
    const SweepSummary sweep = sweeps_[static_cast<std::size_t>(index)];
    if (sweep.axis_paths.size() < 2) {
        heatmap_->showMessage(tr("This sweep has one axis: a heatmap needs two"));
        Q_EMIT gridShown();
        return;
    }
    if (x_box_->currentIndex() == y_box_->currentIndex()) {
        heatmap_->showMessage(tr("Choose two different axes, one across and one down"));
        Q_EMIT gridShown();
        return;
    }
    const bool default_metric = metric_box_->property("default").toBool();
    metric_box_->setProperty("default", false);
    const Expected<std::string> where = filterWhere();
    if (!where) {
        points_status_->setText(QString::fromStdString(where.error()));
        Q_EMIT pointsShown();
        return;
    }
    GridRequest request{sweep.id, grid_metric(metric_box_->currentText().toStdString()).value(),
                        x_box_->currentText().toStdString(), y_box_->currentText().toStdString(), fixedValues(),
                        static_cast<GridAggregation>(rule_box_->currentIndex()), where.value()};
    const std::string path = database_.toStdString();
    runner_.start<Expected<GridAnswer>>(
        [path, request, sweep, default_metric](JobRunner::Context&) {
            return read_grid(path, request, sweep, default_metric);
        },
        [this](std::uint64_t, Expected<GridAnswer> answer) {
            if (!answer) {
                heatmap_->showMessage(QString::fromStdString(answer.error()));
                Q_EMIT gridShown();
                return;
            }
            if (!answer.value().default_metric.empty()) {
                const QSignalBlocker quiet(metric_box_);
                metric_box_->setCurrentText(QString::fromStdString(answer.value().default_metric));
            }
            const GridMetric metric = grid_metric(metric_box_->currentText().toStdString()).value();
            updateFixedControls(answer.value().grid);
            QString others;
            std::size_t aggregated = 0;
            for (const FixedControl& control : fixed_) {
                if (control.box->currentIndex() > 0) {
                    others += QStringLiteral(", %1 = %2")
                                  .arg(QString::fromStdString(control.path), control.box->currentText());
                } else {
                    ++aggregated;
                }
            }
            if (aggregated > 0) {
                others += aggregated == 1 && fixed_.size() == 1
                              ? tr(", %1 at its %2 point")
                                    .arg(QString::fromStdString(fixed_.front().path), rule_box_->currentText())
                              : tr(", the other axes at their %1 point").arg(rule_box_->currentText());
            }
            if (!filter_->text().trimmed().isEmpty()) others += tr(", points passing the filter");
            heatmap_->showGrid(std::move(answer).value().grid, metric, x_box_->currentText(), y_box_->currentText(),
                               tr("%1 of each cell%2").arg(metric_box_->currentText(), others));
            markSelectedPoint();
            Q_EMIT gridShown();
            requestPoints(false);
            requestSlices();
            if (const int result = pareto_result_->findText(metric_box_->currentText()); result >= 0) {
                // The front follows the heatmap's metric when it is a result (not a cost, nor a share).
                const QSignalBlocker quiet(pareto_result_);
                pareto_result_->setCurrentIndex(result);
            }
            requestPareto();
        });
}

QString SweepsPage::pointsText() const { return points_status_->text(); }

Expected<std::string> SweepsPage::filterWhere() const {
    const int index = sweep_box_->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size()) return std::string();
    const auto filter = parse_point_filter(filter_->text().toStdString(), sweeps_[static_cast<std::size_t>(index)].axis_paths);
    if (!filter) return Error{filter.error().located()};
    return filter.value().where;
}

namespace {

// A page of a sweep's points and how many pass the filter.
struct PointsPage {
    std::int64_t passing = 0;
    StoredTable rows;
};

}  // namespace

void SweepsPage::requestPoints(bool more) {
    const int index = sweep_box_->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size()) {
        points_model_->clear();
        return;
    }
    const SweepSummary sweep = sweeps_[static_cast<std::size_t>(index)];
    const Expected<std::string> where = filterWhere();
    if (!where) {
        points_status_->setText(QString::fromStdString(where.error()));
        Q_EMIT pointsShown();
        return;
    }
    const GridMetric metric = grid_metric(metric_box_->currentText().toStdString()).value();
    const std::string order = pointsOrder();
    const std::int64_t offset = more ? points_model_->rowCount() : 0;
    const std::string path = database_.toStdString();
    const std::string filter = where.value();
    const std::int64_t page_rows = page_rows_;
    points_runner_.start<Expected<PointsPage>>(
        [path, sweep, filter, order, offset, page_rows](JobRunner::Context&) -> Expected<PointsPage> {
            Expected<ResultStore> store =
                open_results_for_reading(path);
            if (!store) return Error{store.error()};
            PointsPage page;
            const Expected<std::int64_t> passing = store.value().count_sweep_points(sweep.id, filter);
            if (!passing) return Error{passing.error()};
            page.passing = passing.value();
            if (auto problem = store.value().read_sweep(sweep.id, page.rows, filter, order, page_rows, offset)) {
                return Error{*problem};
            }
            return page;
        },
        [this, sweep, more, metric](std::uint64_t, Expected<PointsPage> page) {
            if (!page) {
                points_status_->setText(tr("The points could not be read: %1").arg(QString::fromStdString(page.error())));
                Q_EMIT pointsShown();
                return;
            }
            points_passing_ = page.value().passing;
            points_model_->setPage(sweep.axis_paths, std::move(page.value().rows), more);
            const auto shown = static_cast<std::int64_t>(points_model_->rowCount());
            const QString by = order_column_.isEmpty()
                                   ? tr("the best %1 by %2").arg(shown).arg(text_of(metric.name))
                                   : tr("%1 shown, sorted by %2").arg(shown).arg(order_column_);
            points_status_->setText(filter_->text().trimmed().isEmpty()
                                        ? tr("%1 of %2 points stored; %3")
                                              .arg(points_passing_)
                                              .arg(sweep.point_count)
                                              .arg(by)
                                        : tr("%1 of the %2 points pass the filter; %3")
                                              .arg(points_passing_)
                                              .arg(sweep.point_count)
                                              .arg(by));
            more_->setEnabled(shown < points_passing_);
            if (!more) points_table_->resizeColumnsToContents();
            Q_EMIT pointsShown();
        });
}

std::string SweepsPage::pointsOrder() const {
    const GridMetric metric = grid_metric(metric_box_->currentText().toStdString()).value();
    const std::string key = order_column_.isEmpty() ? "(" + std::string(metric.sql) + ")"
                                                    : store::quoted_identifier(order_column_.toStdString());
    const bool descending = order_column_.isEmpty() ? metric.higher_is_better : order_ == Qt::DescendingOrder;
    return key + " IS NULL, " + key + (descending ? " DESC" : " ASC");
}

void SweepsPage::showMorePoints() { requestPoints(true); }

void SweepsPage::requestPareto() {
    const int index = sweep_box_->currentIndex();
    const Expected<std::string> where = filterWhere();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size() || !where) return;
    const std::int64_t sweep = sweeps_[static_cast<std::size_t>(index)].id;
    const GridMetric cost = pareto_costs()[static_cast<std::size_t>(std::max(0, pareto_cost_->currentIndex()))];
    const GridMetric result = grid_metric(pareto_result_->currentText().toStdString()).value();
    const std::string path = database_.toStdString();
    const std::string filter = where.value();
    pareto_runner_.start<Expected<SweepPareto>>(
        [path, sweep, cost, result, filter](JobRunner::Context&) -> Expected<SweepPareto> {
            Expected<ResultStore> store = open_results_for_reading(path);
            if (!store) return Error{store.error()};
            return store.value().sweep_pareto(sweep, cost, result, filter);
        },
        [this, cost, result](std::uint64_t, Expected<SweepPareto> pareto) {
            if (pareto) {
                pareto_view_->showPareto(std::move(pareto).value(), cost, result);
            } else {
                pareto_view_->showMessage(
                    tr("The points could not be read: %1").arg(QString::fromStdString(pareto.error())));
            }
            Q_EMIT paretoShown();
        });
}

void SweepsPage::requestSlices() {
    const int index = sweep_box_->currentIndex();
    const Expected<std::string> where = filterWhere();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size() || !where) return;
    const std::int64_t sweep = sweeps_[static_cast<std::size_t>(index)].id;
    const GridMetric metric = grid_metric(metric_box_->currentText().toStdString()).value();
    const std::string path = database_.toStdString();
    const std::string filter = where.value();
    slices_runner_.start<Expected<SweepSlices>>(
        [path, sweep, metric, filter](JobRunner::Context&) -> Expected<SweepSlices> {
            Expected<ResultStore> store = open_results_for_reading(path);
            if (!store) return Error{store.error()};
            return store.value().sweep_slices(sweep, metric, filter);
        },
        [this, metric](std::uint64_t, Expected<SweepSlices> slices) {
            if (slices) {
                slice_view_->showSlices(std::move(slices).value(), metric);
            } else {
                slice_view_->showMessage(tr("The slices could not be read: %1").arg(QString::fromStdString(slices.error())));
            }
            Q_EMIT slicesShown();
        });
}

namespace {

// Writes `write`'s text to `path` whole or not at all; the reason when it could not.
std::optional<std::string> write_atomically(const std::string& path,
                                            const std::function<std::optional<std::string>(std::ostream&)>& write) {
    Expected<std::unique_ptr<AtomicOutput>> file = AtomicOutput::open(path);
    if (!file) return file.error();
    if (auto problem = write(file.value()->stream())) return problem;
    return file.value()->commit();
}

}  // namespace

void SweepsPage::exportPointsCsv(const QString& path) {
    const int index = sweep_box_->currentIndex();
    const Expected<std::string> where = filterWhere();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size() || !where) {
        Q_EMIT exported(tr("Nothing was written: %1")
                            .arg(where ? tr("no sweep is shown") : QString::fromStdString(where.error())));
        return;
    }
    const std::int64_t sweep = sweeps_[static_cast<std::size_t>(index)].id;
    const std::string database = database_.toStdString();
    const std::string target = path.toStdString();
    const std::string filter = where.value();
    const std::string order = pointsOrder();
    export_runner_.start<std::optional<std::string>>(
        [database, target, sweep, filter, order](JobRunner::Context&) -> std::optional<std::string> {
            Expected<ResultStore> store =
                open_results_for_reading(database);
            if (!store) return store.error();
            return write_atomically(target, [&](std::ostream& out) -> std::optional<std::string> {
                StoredRowsWriter writer(out, StoredRowsFormat::csv);
                if (auto problem = store.value().read_sweep(sweep, writer, filter, order)) return problem;
                writer.finish();
                return std::nullopt;
            });
        },
        [this, path](std::uint64_t, std::optional<std::string> problem) {
            Q_EMIT exported(problem ? tr("The points were not written: %1").arg(QString::fromStdString(*problem))
                                    : tr("The points that pass the filter are in %1").arg(QDir::toNativeSeparators(path)));
        });
}

void SweepsPage::exportSweepSection(const QString& path) {
    const int index = sweep_box_->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size()) {
        Q_EMIT exported(tr("Nothing was written: no sweep is shown"));
        return;
    }
    const std::int64_t sweep = sweeps_[static_cast<std::size_t>(index)].id;
    const std::string database = database_.toStdString();
    const std::string target = path.toStdString();
    export_runner_.start<std::optional<std::string>>(
        [database, target, sweep](JobRunner::Context&) -> std::optional<std::string> {
            Expected<ResultStore> store =
                open_results_for_reading(database);
            if (!store) return store.error();
            Expected<SweepSection> section = store.value().sweep_section(sweep);
            if (!section) return section.error();
            return write_atomically(target, [&](std::ostream& out) -> std::optional<std::string> {
                out << "# The axes of sweep:" << sweep << "; add this section to its base scenario to run it again.\n"
                    << write_sweep_section_yaml(section.value());
                return std::nullopt;
            });
        },
        [this, path, sweep](std::uint64_t, std::optional<std::string> problem) {
            Q_EMIT exported(problem ? tr("The sweep section was not written: %1").arg(QString::fromStdString(*problem))
                                    : tr("sweep:%1's section is in %2").arg(sweep).arg(QDir::toNativeSeparators(path)));
        });
}

void SweepsPage::markSelectedPoint() {
    const QModelIndexList rows = points_table_->selectionModel()->selectedRows();
    pareto_view_->setMarkedPoint(rows.isEmpty() ? std::nullopt
                                                : std::optional<std::int64_t>(points_model_->pointOf(rows.front().row())));
    const auto& grid = heatmap_->grid();
    if (rows.isEmpty() || !grid) {
        heatmap_->setMarkedCell(std::nullopt);
        return;
    }
    const int row = rows.front().row();
    const StoredValue& x = points_model_->axisValue(row, x_box_->currentText().toStdString());
    const StoredValue& y = points_model_->axisValue(row, y_box_->currentText().toStdString());
    const auto cx = std::find(grid->x_values.begin(), grid->x_values.end(), x);
    const auto cy = std::find(grid->y_values.begin(), grid->y_values.end(), y);
    if (cx == grid->x_values.end() || cy == grid->y_values.end()) {
        heatmap_->setMarkedCell(std::nullopt);
        return;
    }
    heatmap_->setMarkedCell(std::pair(static_cast<std::size_t>(cx - grid->x_values.begin()),
                                      static_cast<std::size_t>(cy - grid->y_values.begin())));
}

void SweepsPage::selectPoint(qint64 point) {
    for (int row = 0; row < points_model_->rowCount(); ++row) {
        if (points_model_->pointOf(row) == point) {
            points_table_->selectRow(row);
            points_table_->scrollTo(points_model_->index(row, 0));
            return;  // markSelectedPoint marks it everywhere
        }
    }
    // Not on the pages read: the table's selection is cleared (which clears the marks), the other views mark it by
    // number.
    points_table_->clearSelection();
    pareto_view_->setMarkedPoint(point);
    std::optional<std::pair<std::size_t, std::size_t>> cell;
    if (const auto& grid = heatmap_->grid()) {
        for (std::size_t y = 0; y < grid->y_values.size() && !cell; ++y) {
            for (std::size_t x = 0; x < grid->x_values.size(); ++x) {
                if (grid->at(x, y).point == point) {
                    cell = std::pair(x, y);
                    break;
                }
            }
        }
    }
    heatmap_->setMarkedCell(cell);
}

QComboBox* SweepsPage::fixedBox(const QString& axis) const {
    for (const FixedControl& control : fixed_) {
        if (QString::fromStdString(control.path) == axis) return control.box;
    }
    return nullptr;
}

std::map<std::string, StoredValue> SweepsPage::fixedValues() const {
    std::map<std::string, StoredValue> fixed;
    const std::string x = x_box_->currentText().toStdString();
    const std::string y = y_box_->currentText().toStdString();
    for (const FixedControl& control : fixed_) {
        const int index = control.box->currentIndex();
        if (index <= 0 || control.path == x || control.path == y) continue;
        fixed[control.path] = control.values[static_cast<std::size_t>(index - 1)];
    }
    return fixed;
}

void SweepsPage::updateFixedControls(const SweepGrid& grid) {
    const std::string x = x_box_->currentText().toStdString();
    const std::string y = y_box_->currentText().toStdString();
    std::vector<const GridAxis*> others;
    for (const GridAxis& axis : grid.axes) {
        if (axis.path != x && axis.path != y && axis.values.size() > 1) others.push_back(&axis);
    }
    // The same axes with the same values keep their controls (and what they hold).
    const bool same = others.size() == fixed_.size() &&
                      std::equal(others.begin(), others.end(), fixed_.begin(), [](const GridAxis* a, const FixedControl& c) {
                          return a->path == c.path && a->values == c.values;
                      });
    if (same) return;
    const std::map<std::string, StoredValue> held = fixedValues();
    fixed_.clear();  // their boxes go with the layout's widgets
    while (QLayoutItem* item = fixed_layout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (!others.empty()) fixed_layout_->addWidget(new QLabel(tr("Other axes:"), fixed_row_), 0, 0);
    constexpr int per_line = 2;
    for (const GridAxis* axis : others) {
        const auto at = static_cast<int>(fixed_.size());
        const int line = at / per_line;
        const int column = 1 + 2 * (at % per_line);
        fixed_layout_->addWidget(new QLabel(QString::fromStdString(axis->path), fixed_row_), line, column);
        auto* box = new QComboBox(fixed_row_);
        box->setAccessibleName(QString::fromStdString(axis->path));
        box->setToolTip(tr("Every value, each cell at the rule's point among them; or one value only"));
        box->addItem(tr("every value"));
        int chosen = 0;
        for (std::size_t v = 0; v < axis->values.size(); ++v) {
            box->addItem(QString::fromStdString(stored_text(axis->values[v])));
            const auto found = held.find(axis->path);
            if (found != held.end() && found->second == axis->values[v]) chosen = static_cast<int>(v) + 1;
        }
        box->setCurrentIndex(chosen);
        connect(box, &QComboBox::currentIndexChanged, this, &SweepsPage::requestGrid);
        fixed_layout_->addWidget(box, line, column + 1);
        fixed_.push_back({axis->path, axis->values, box});
    }
    fixed_layout_->setColumnStretch(1 + 2 * per_line, 1);
    fixed_row_->setVisible(!fixed_.empty());
}

void SweepsPage::setComparisonChoice(ComparisonChoice* choice) {
    choice_ = choice;
    const auto say = [this] {
        const QString text = choice_ != nullptr ? choice_->actionText() : QString();
        heatmap_->setCompareText(text);
        pareto_view_->setCompareText(text);
    };
    if (choice_ != nullptr) connect(choice_, &ComparisonChoice::changed, this, say);
    say();
}

void SweepsPage::comparePoint(qint64 point) {
    const int index = sweep_box_->currentIndex();
    if (choice_ == nullptr || index < 0 || static_cast<std::size_t>(index) >= sweeps_.size() || point < 0) return;
    const std::int64_t sweep = sweeps_[static_cast<std::size_t>(index)].id;
    const std::string path = database_.toStdString();
    point_runner_.start<Expected<std::int64_t>>(
        [path, sweep, point](JobRunner::Context&) -> Expected<std::int64_t> {
            Expected<ResultStore> store = open_results_for_reading(path);
            if (!store) return Error{store.error()};
            return store.value().point_run(sweep, static_cast<std::uint64_t>(point));
        },
        [this, sweep, point](std::uint64_t, Expected<std::int64_t> run) {
            if (!run) {
                Q_EMIT scenarioRefused(QString::fromStdString(run.error()));
                return;
            }
            choice_->pick(run.value(), tr("sweep:%1 point %2").arg(sweep).arg(point));
        });
}

void SweepsPage::openPoint(qint64 point) {
    const int index = sweep_box_->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= sweeps_.size() || point < 0) return;
    const std::int64_t sweep = sweeps_[static_cast<std::size_t>(index)].id;
    const std::string path = database_.toStdString();
    using Answer = Expected<StoredScenario>;
    // On the points' own runner: a point opened while a grid is read waits for nothing else.
    point_runner_.start<Answer>(
        [path, sweep, point](JobRunner::Context&) -> Answer {
            Expected<ResultStore> store =
                open_results_for_reading(path);
            if (!store) return Error{store.error()};
            return store.value().point_scenario(sweep, static_cast<std::uint64_t>(point));
        },
        [this, sweep, point](std::uint64_t, Answer scenario) {
            if (!scenario) {
                Q_EMIT scenarioRefused(QString::fromStdString(scenario.error()));
                return;
            }
            Q_EMIT scenarioChosen(tr("sweep:%1 point %2 · %3")
                                      .arg(sweep)
                                      .arg(point)
                                      .arg(QString::fromStdString(scenario.value().name)),
                                  QString::fromStdString(scenario.value().yaml));
        });
}

}  // namespace parasight::gui

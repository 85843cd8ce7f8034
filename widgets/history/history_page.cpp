#include "history/history_page.h"

#include "common/message_text.h"
#include "document/results_database.h"
#include "history/compared_bars_view.h"
#include "history/compared_runs_job.h"
#include "history/compared_timelines_view.h"
#include "picture/export_button.h"
#include "picture/model_csv.h"
#include "run/comparison_choice.h"
#include "style/quantity_text.h"

#include <QDir>

#include <algorithm>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QTableView>
#include <QVBoxLayout>

namespace parasight::gui {
namespace {

Expected<HistoryEntries> read_history(ResultStore& store) {
    Expected<std::vector<SweepSummary>> sweeps = store.sweeps();
    if (!sweeps) return Error{sweeps.error()};
    Expected<std::vector<RunSummary>> runs = store.single_runs();
    if (!runs) return Error{runs.error()};
    return HistoryEntries{std::move(sweeps).value(), std::move(runs).value()};
}

Expected<HistoryEntries> read_history_at(const std::string& path) {
    Expected<ResultStore> store = open_results_for_reading(path);
    if (!store) return Error{store.error()};
    return read_history(store.value());
}

// An edit's refusal, or the history after it.
struct EditAnswer {
    std::string refused;
    Expected<HistoryEntries> entries = Error{std::string()};
};

}  // namespace

HistoryPage::HistoryPage(QWidget* parent) : QWidget(parent) {
    model_ = new HistoryModel(this);
    filter_ = new QSortFilterProxyModel(this);
    filter_->setSourceModel(model_);
    filter_->setFilterKeyColumn(-1);  // any column
    filter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_->setSortRole(HistoryModel::SortRole);
    comparison_model_ = new RunComparisonModel(this);

    status_ = new QLabel(this);
    status_->setWordWrap(true);
    auto* open_database = new QPushButton(tr("Open Database…"), this);
    connect(open_database, &QPushButton::clicked, this, [this] {
        const QString path = ask_for_results_database(this, database_);
        if (path.isEmpty()) return;
        setDatabase(path);
        Q_EMIT databaseChosen(path);
    });
    auto* refresh = new QPushButton(tr("Re&fresh"), this);
    connect(refresh, &QPushButton::clicked, this, &HistoryPage::reload);
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Search names, axes, dates, statuses…"));
    search_->setClearButtonEnabled(true);
    search_->setAccessibleName(tr("Search the history"));
    connect(search_, &QLineEdit::textChanged, filter_, &QSortFilterProxyModel::setFilterFixedString);

    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("HistoryTable"));
    table_->setModel(filter_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(HistoryModel::date_column, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    // The axes (or a run's result), last, take the room left; the other columns fit what they hold, up to a limit.
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    connect(table_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { openRow(filter_->mapToSource(index).row()); });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPage::updateButtons);
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_, &QTableView::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex index = table_->indexAt(at);
        if (!index.isValid()) return;
        const int row = filter_->mapToSource(index).row();
        QMenu menu(table_);
        QAction* open = menu.addAction(tr("Open %1").arg(model_->nameOf(row)));
        // A single run can be compared (a sweep's point, from the Sweeps tab).
        const bool run = model_->kindOf(row) == HistoryModel::Kind::run;
        QAction* compare = run && choice_ != nullptr ? menu.addAction(choice_->actionText()) : nullptr;
        QAction* chosen = menu.exec(table_->viewport()->mapToGlobal(at));
        if (chosen == open) openRow(row);
        if (chosen != nullptr && chosen == compare) choice_->pick(model_->idOf(row), model_->nameOf(row));
    });

    open_ = new QPushButton(tr("&Open"), this);
    open_->setToolTip(tr("A sweep on the Sweeps tab; a run's scenario as a new document, simulated"));
    rename_ = new QPushButton(tr("&Rename…"), this);
    rename_->setToolTip(tr("A sweep's name (a run is named by its scenario)"));
    delete_ = new QPushButton(tr("&Delete…"), this);
    delete_->setToolTip(tr("A sweep with all its points, or a single run"));
    resume_ = new QPushButton(tr("Res&ume"), this);
    resume_->setToolTip(tr("Run the points a sweep does not hold yet, on the Sweeps tab"));
    connect(resume_, &QPushButton::clicked, this, [this] {
        const QList<int> rows = selectedRows();
        if (rows.size() == 1 && model_->isIncomplete(rows.front())) Q_EMIT resumeRequested(model_->idOf(rows.front()));
    });
    compare_ = new QPushButton(tr("&Compare"), this);
    compare_->setToolTip(tr("Two runs selected: the inputs that differ, then every result and its change"));
    connect(open_, &QPushButton::clicked, this, [this] {
        const QList<int> rows = selectedRows();
        if (rows.size() == 1) openRow(rows.front());
    });
    connect(rename_, &QPushButton::clicked, this, [this] {
        const QList<int> rows = selectedRows();
        if (rows.size() != 1 || model_->kindOf(rows.front()) != HistoryModel::Kind::sweep) return;
        const QString old = model_->data(model_->index(rows.front(), HistoryModel::name_column), Qt::DisplayRole).toString();
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Rename %1").arg(model_->nameOf(rows.front())),
                                                   tr("Name:"), QLineEdit::Normal, old, &ok);
        if (ok && name != old) renameSweep(model_->idOf(rows.front()), name.trimmed());
    });
    connect(delete_, &QPushButton::clicked, this, [this] {
        const QList<int> rows = selectedRows();
        if (rows.size() != 1) return;
        const int row = rows.front();
        const QString what = model_->nameOf(row);
        const QString name = model_->data(model_->index(row, HistoryModel::name_column), Qt::DisplayRole).toString();
        const QString question =
            model_->kindOf(row) == HistoryModel::Kind::sweep
                ? tr("Delete %1 “%2” with all its stored points? This cannot be undone.").arg(what, name)
                : tr("Delete %1 “%2”? This cannot be undone.").arg(what, name);
        if (QMessageBox::question(this, tr("Delete %1").arg(what), question) == QMessageBox::Yes) deleteRow(row);
    });
    connect(compare_, &QPushButton::clicked, this, [this] {
        QList<int> rows = selectedRows();
        if (rows.size() != 2) return;
        // The older one is A.
        std::int64_t a = model_->idOf(rows[0]);
        std::int64_t b = model_->idOf(rows[1]);
        if (a > b) std::swap(a, b);
        compareRuns(a, b);
    });

    comparison_title_ = new QLabel(tr("Select two runs and Compare: the inputs that differ come first, then every "
                                      "result with B − A and B / A."),
                                   this);
    comparison_title_->setWordWrap(true);
    comparison_table_ = new QTableView(this);
    comparison_table_->setObjectName(QStringLiteral("ComparisonTable"));
    comparison_table_->setModel(comparison_model_);
    comparison_table_->verticalHeader()->hide();
    comparison_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    comparison_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    comparison_table_->horizontalHeader()->setStretchLastSection(true);

    // The comparison: its inputs and results from the database; its breakdown, memory and timelines from both runs
    // simulated again.
    compared_bars_ = new ComparedBarsView(this);
    compared_timelines_ = new ComparedTimelinesView(this);
    // The list as shown (searched, sorted) and the comparison as CSV; the comparison's two views as pictures.
    std::vector<ExportChoice> exports{
        ExportChoice{tr("History as &CSV…"), tr("Export the history as shown as CSV"), tr("CSV files (*.csv)"),
                     QStringLiteral(".csv"), [this](const QString& path) { return export_model_csv(*filter_, path); }},
        ExportChoice{tr("Comparison as C&SV…"), tr("Export the comparison as CSV"), tr("CSV files (*.csv)"),
                     QStringLiteral(".csv"),
                     [this](const QString& path) { return export_model_csv(*comparison_model_, path); }}};
    for (ExportChoice& choice : picture_choices(compared_bars_, tr("Breakdown and Memory"))) {
        exports.push_back(std::move(choice));
    }
    for (ExportChoice& choice : picture_choices(compared_timelines_, tr("Compared Timelines"))) {
        exports.push_back(std::move(choice));
    }
    QToolButton* export_button = make_export_button(this, std::move(exports));
    export_button->setObjectName(QStringLiteral("HistoryExport"));
    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(refresh);
    top->addWidget(open_database);
    top->addWidget(export_button);
    auto* actions = new QHBoxLayout;
    actions->addWidget(search_, 1);
    for (QPushButton* button : {open_, rename_, delete_, resume_, compare_}) actions->addWidget(button);
    auto* list = new QWidget(this);
    auto* list_layout = new QVBoxLayout(list);
    list_layout->setContentsMargins(0, 0, 0, 0);
    list_layout->addLayout(actions);
    list_layout->addWidget(table_, 1);
    timelines_summary_ = new QLabel(this);
    timelines_summary_->setWordWrap(true);
    timelines_summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    timelines_summary_->setMinimumHeight(0);  // a small window shows the lanes first; the lines above may clip
    auto* timelines = new QWidget(this);
    auto* timelines_layout = new QVBoxLayout(timelines);
    timelines_layout->setContentsMargins(0, 0, 0, 0);
    timelines_layout->addWidget(timelines_summary_);
    timelines_layout->addWidget(compared_timelines_, 1);
    comparison_tabs_ = new QTabWidget(this);
    comparison_tabs_->setDocumentMode(true);
    comparison_tabs_->addTab(comparison_table_, tr("Inputs and results"));
    comparison_tabs_->addTab(compared_bars_, tr("Breakdown and memory"));
    comparison_tabs_->addTab(timelines, tr("Timelines"));
    compared_bars_->showMessage(tr("Compare two runs to see their breakdown and memory side by side."));
    compared_timelines_->showMessage(tr("Compare two runs to see their timelines on one time axis."));
    auto* compared = new QWidget(this);
    auto* compared_layout = new QVBoxLayout(compared);
    compared_layout->setContentsMargins(0, 0, 0, 0);
    compared_layout->addWidget(comparison_title_);
    compared_layout->addWidget(comparison_tabs_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(list);
    split->addWidget(compared);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(&runner_, &JobRunner::failed, this, [this](quint64, const QString& what) {
        status_->setText(tr("The database could not be read: %1").arg(what));
        Q_EMIT historyShown();
    });
    connect(&simulation_runner_, &JobRunner::progressed, this, [this](quint64, const QString& run, double fraction) {
        const QString words = tr("Simulating both runs again (%1, %2%)…").arg(run).arg(std::lround(100.0 * fraction));
        compared_bars_->showMessage(words);
        compared_timelines_->showMessage(words);
    });
    connect(&simulation_runner_, &JobRunner::failed, this, [this](quint64, const QString& what) {
        showSimulationProblem(what);
    });
    connect(&detail_runner_, &JobRunner::failed, this, [this](quint64, const QString& what) {
        comparison_title_->setText(tr("The database could not be read: %1").arg(what));
        Q_EMIT comparisonShown();
    });
    updateButtons();
}

QList<int> HistoryPage::selectedRows() const {
    QList<int> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
        rows << filter_->mapToSource(index).row();
    }
    return rows;
}

QString HistoryPage::statusText() const { return status_->text(); }

QString HistoryPage::comparisonTitle() const { return comparison_title_->text(); }

QString HistoryPage::timelinesSummary() const { return timelines_summary_->text(); }

void HistoryPage::updateButtons() {
    const QList<int> rows = selectedRows();
    const bool one = rows.size() == 1;
    open_->setEnabled(one);
    rename_->setEnabled(one && model_->kindOf(rows.front()) == HistoryModel::Kind::sweep);
    delete_->setEnabled(one);
    resume_->setEnabled(one && model_->isIncomplete(rows.front()));
    compare_->setEnabled(rows.size() == 2 && model_->kindOf(rows[0]) == HistoryModel::Kind::run &&
                         model_->kindOf(rows[1]) == HistoryModel::Kind::run);
}

void HistoryPage::setDatabase(const QString& path) {
    database_ = results_database_path(path);
    reload();
}

void HistoryPage::reload() {
    const std::string path = database_.toStdString();
    runner_.start<Expected<HistoryEntries>>([path](JobRunner::Context&) { return read_history_at(path); },
                                            [this](std::uint64_t, Expected<HistoryEntries> entries) {
                                                showEntries(entries, {});
                                            });
}

void HistoryPage::showEntries(const Expected<HistoryEntries>& entries, const QString& done) {
    const QString where = results_database_display(database_);
    if (!entries) {
        model_->setEntries({});
        status_->setText(tr("%1 %2. Runs the window simulates and sweeps are stored there.")
                             .arg(where, QString::fromStdString(entries.error())));
    } else {
        const auto sweeps = static_cast<std::int64_t>(entries.value().sweeps.size());
        const auto runs = static_cast<std::int64_t>(entries.value().runs.size());
        model_->setEntries(entries.value());
        const QString counts = tr("%1: %2, %3")
                                   .arg(where, QString::fromStdString(count_phrase(sweeps, "sweep")),
                                        QString::fromStdString(count_phrase(runs, "single run")));
        status_->setText(done.isEmpty() ? counts : done + QStringLiteral(" — ") + counts);
    }
    const int widest_px = table_->fontMetrics().averageCharWidth() * 26;
    for (int column = 0; column < HistoryModel::contents_column; ++column) {
        table_->resizeColumnToContents(column);
        table_->setColumnWidth(column, std::min(table_->columnWidth(column), widest_px));
    }
    updateButtons();
    Q_EMIT historyShown();
}

void HistoryPage::editThenReload(std::function<std::optional<std::string>(ResultStore&)> edit, const QString& done) {
    const std::string path = database_.toStdString();
    runner_.start<EditAnswer>(
        [path, edit = std::move(edit)](JobRunner::Context&) {
            EditAnswer answer;
            Expected<ResultStore> store = ResultStore::open(path, ResultStore::Access::read_write);
            if (!store) {
                answer.refused = store.error();
                answer.entries = read_history_at(path);
                return answer;
            }
            if (auto problem = edit(store.value())) answer.refused = *problem;
            answer.entries = read_history(store.value());
            return answer;
        },
        [this, done](std::uint64_t, EditAnswer answer) {
            showEntries(answer.entries, answer.refused.empty()
                                            ? done
                                            : tr("Refused: %1").arg(QString::fromStdString(answer.refused)));
        });
}

void HistoryPage::renameSweep(std::int64_t id, const QString& name) {
    const std::string chosen = name.toStdString();
    editThenReload([id, chosen](ResultStore& store) { return store.rename_sweep(id, chosen); },
                   tr("sweep:%1 renamed “%2”").arg(id).arg(name));
}

void HistoryPage::deleteRow(int row) {
    const std::int64_t id = model_->idOf(row);
    const QString what = model_->nameOf(row);
    if (model_->kindOf(row) == HistoryModel::Kind::sweep) {
        editThenReload([id](ResultStore& store) { return store.delete_sweep(id); }, tr("%1 deleted").arg(what));
    } else {
        editThenReload([id](ResultStore& store) { return store.delete_run(id); }, tr("%1 deleted").arg(what));
    }
}

void HistoryPage::openRow(int row) {
    if (row < 0 || row >= model_->rowCount()) return;
    const std::int64_t id = model_->idOf(row);
    if (model_->kindOf(row) == HistoryModel::Kind::sweep) {
        Q_EMIT sweepChosen(id);
        return;
    }
    const std::string path = database_.toStdString();
    using Answer = Expected<StoredScenario>;
    detail_runner_.start<Answer>(
        [path, id](JobRunner::Context&) -> Answer {
            Expected<ResultStore> store =
                open_results_for_reading(path);
            if (!store) return Error{store.error()};
            return store.value().run_scenario(id);
        },
        [this, id](std::uint64_t, Answer scenario) {
            if (!scenario) {
                status_->setText(tr("run:%1 could not be opened: %2").arg(id).arg(QString::fromStdString(scenario.error())));
                return;
            }
            Q_EMIT scenarioChosen(tr("run:%1 · %2").arg(id).arg(QString::fromStdString(scenario.value().name)),
                                  QString::fromStdString(scenario.value().yaml));
        });
}

void HistoryPage::compareRuns(std::int64_t a, std::int64_t b) {
    const std::string path = database_.toStdString();
    using Answer = Expected<RunComparison, ComparisonProblem>;
    detail_runner_.start<Answer>(
        [path, a, b](JobRunner::Context&) -> Answer {
            Expected<ResultStore> store =
                open_results_for_reading(path);
            if (!store) return ComparisonProblem{false, store.error()};
            return compare_runs(store.value(), a, b);
        },
        [this, a, b](std::uint64_t, Answer comparison) {
            if (!comparison) {
                comparison_model_->clear();
                comparison_title_->setText(tr("run:%1 and run:%2 cannot be compared: the database %3")
                                               .arg(a)
                                               .arg(b)
                                               .arg(QString::fromStdString(comparison.error().message)));
                // Nothing of an earlier pair stays beside the refusal.
                simulation_runner_.cancel();
                compared_bars_->showMessage(comparison_title_->text());
                compared_timelines_->showMessage(comparison_title_->text());
                timelines_summary_->clear();
                Q_EMIT comparisonShown();
                return;
            }
            const auto inputs = static_cast<std::int64_t>(comparison.value().inputs.size());
            comparison_title_->setText(
                inputs == 0 ? tr("A = run:%1, B = run:%2: the same scenario; the results below").arg(a).arg(b)
                : inputs == 1 ? tr("A = run:%1, B = run:%2: 1 input differs (in bold), then the results").arg(a).arg(b)
                              : tr("A = run:%1, B = run:%2: %3 inputs differ (in bold), then the results")
                                    .arg(a)
                                    .arg(b)
                                    .arg(inputs));
            comparison_model_->setComparison(std::move(comparison).value());
            Q_EMIT comparisonShown();
            simulateCompared(a, b);
        });
}

void HistoryPage::showComparedTimelines() { comparison_tabs_->setCurrentWidget(compared_timelines_->parentWidget()); }

void HistoryPage::simulateCompared(std::int64_t a, std::int64_t b) {
    const QString words = tr("Simulating run:%1 and run:%2 again…").arg(a).arg(b);
    compared_bars_->showMessage(words);
    compared_timelines_->showMessage(words);
    timelines_summary_->clear();
    simulation_runner_.start<ComparedRunsOutcome>(
        compared_runs_work(database_.toStdString(), a, b), [this](std::uint64_t, ComparedRunsOutcome compared) {
            if (!compared) {
                showSimulationProblem(QString::fromStdString(compared.error()));
                return;
            }
            const ComparedRuns& runs = *compared.value();
            const TimelineComparison& matched = runs.comparison;
            QString summary =
                tr("A = run:%1 (%2), B = run:%3 (%4), simulated again, one device per class of identical devices: "
                   "%5 events matched, %6 only in A, %7 only in B.")
                    .arg(runs.a_run)
                    .arg(time_text(runs.a_report.iteration_time_s))
                    .arg(runs.b_run)
                    .arg(time_text(runs.b_report.iteration_time_s))
                    .arg(matched.matched)
                    .arg(matched.only_a)
                    .arg(matched.only_b);
            if (!runs.largest_changes.empty()) {
                summary += tr(" Changed most:");
                for (const std::string& line : runs.largest_changes) {
                    summary += QStringLiteral("\n  • ") + QString::fromStdString(line);
                }
            }
            timelines_summary_->setText(summary);
            compared_bars_->showComparison(compared.value());
            compared_timelines_->showComparison(compared.value());
            Q_EMIT comparedRunsSimulated();
        });
}

void HistoryPage::showSimulationProblem(const QString& problem) {
    const QString words = tr("The runs could not be simulated again: %1").arg(problem);
    compared_bars_->showMessage(words);
    compared_timelines_->showMessage(words);
    timelines_summary_->clear();
    Q_EMIT comparedRunsSimulated();
}

}  // namespace parasight::gui

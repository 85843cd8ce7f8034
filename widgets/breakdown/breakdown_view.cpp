#include "breakdown/breakdown_view.h"

#include "breakdown/collective_table_model.h"

#include "results/grouping_box.h"
#include "results/result_table.h"
#include "results/row_bars.h"
#include "results/row_of_npu.h"
#include "run/show_run_state.h"
#include "style/axis_scale.h"
#include "export/breakdown_csv.h"
#include "picture/export_button.h"
#include "picture/picture_export.h"
#include "style/chart_style.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>

namespace parasight::gui {

BreakdownView::BreakdownView(QWidget* parent) : QWidget(parent), model_(new BreakdownTableModel(this)) {
    grouping_ = make_grouping_box(this);
    scale_ = new QComboBox(this);
    scale_->addItem(tr("Time"));
    scale_->addItem(tr("Share of the iteration"));
    scale_->setAccessibleName(tr("Scale"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Rows:"), this));
    controls->addWidget(grouping_);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Show:"), this));
    controls->addWidget(scale_);
    controls->addStretch(1);

    chart_ = new QChart;

    table_ = make_result_table(model_, tr("Breakdown table"), this);
    // Choosing a row (in the table or by clicking its bar) names its device to the other views.
    on_row_chosen(*table_, this, [this](int row) {
        if (const std::optional<std::size_t> device = model_->firstDevice(row)) Q_EMIT deviceChosen(static_cast<qulonglong>(*device));
    });

    // The chart above, the table below: both want the window's width (a bar per row, a column per part).
    auto* splitter = new QSplitter(Qt::Vertical, this);
    QWidget* chart_view = make_chart_view(chart_, this);
    std::vector<ExportChoice> exports = picture_choices(chart_view, tr("Chart"));
    exports.push_back(ExportChoice{tr("Table as &CSV…"), tr("Export the breakdown as CSV"), tr("CSV files (*.csv)"),
                                   QStringLiteral(".csv"), [this](const QString& path) -> std::optional<QString> {
                                       if (!result_) return tr("there is no result to export");
                                       // Each simulated device's row, as parasight-cli simulate --csv writes it.
                                       return write_file_atomically(path, [this](std::ostream& out) {
                                           write_breakdown_csv(out, result_->simulation.report);
                                       });
                                   }});
    QToolButton* export_button = make_export_button(this, std::move(exports));
    export_button->setObjectName(QStringLiteral("BreakdownExport"));
    controls->addWidget(export_button);
    chart_view->setToolTip(tr("Where each device's iteration goes: compute; exposed communication (waiting on a "
                              "transfer with nothing to compute); the pipeline bubble (idle time waiting for the "
                              "pipeline to fill or drain); other idle time. Each bar adds up to the iteration; hover a "
                              "bar for its numbers, click it to pick its row."));
    splitter->addWidget(chart_view);
    // Below the chart, its table; beside it, each kind of communication call with its bandwidths.
    collectives_ = new CollectiveTableModel(this);
    collectives_table_ = make_result_table(collectives_, tr("Communication calls"), this);
    collectives_table_->setObjectName(QStringLiteral("CommunicationCalls"));
    auto* tables = new QTabWidget(this);
    tables->setDocumentMode(true);
    tables->addTab(table_, tr("Time"));
    tables->addTab(collectives_table_, tr("Communication Calls"));
    tables->setTabToolTip(1, tr("Each kind of communication a device runs: calls, bytes and time per call, and its "
                                "algorithm and bus bandwidths as nccl-tests report them"));
    splitter->addWidget(tables);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({2000, 1000});  // 2 : 1 of whatever height there is

    message_ = new QLabel(this);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    pages_ = new QStackedWidget(this);
    pages_->addWidget(message_);
    pages_->addWidget(splitter);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(pages_, 1);

    connect(grouping_, &QComboBox::currentIndexChanged, this, &BreakdownView::refresh);
    connect(scale_, &QComboBox::currentIndexChanged, this, [this](int index) {
        model_->setShowShares(index == 1);
        rebuildChart();
    });
    showMessage(tr("No result yet"));
}

void BreakdownView::showResult(std::shared_ptr<const SimulationResult> result) {
    result_ = std::move(result);
    offer_device_grouping(*grouping_, result_->simulation.report);
    collectives_->setRows(result_->collectives);
    refresh();
    pages_->setCurrentIndex(1);
}

void BreakdownView::showMessage(const QString& message) {
    result_.reset();
    model_->clear();
    collectives_->setRows({});
    message_->setText(message);
    pages_->setCurrentIndex(0);
}

void BreakdownView::refresh() {
    if (!result_) return;
    model_->showReport(result_->simulation.report, chosen_grouping(*grouping_));
    for (int part = 0; part < BreakdownTableModel::part_count; ++part) {
        table_->setColumnHidden(part, model_->partIsEmpty(part));
    }
    table_->resizeColumnsToContents();
    rebuildChart();
}

void BreakdownView::rebuildChart() {
    clear_chart(*chart_);
    const int rows = model_->rowCount();
    if (rows == 0) return;
    const bool shares = model_->showsShares();
    const AxisScale scale = shares ? AxisScale{1.0, QStringLiteral("%")} : time_axis_scale(model_->iterationSeconds());
    RowBars bars;
    for (int row = 0; row < rows; ++row) bars.row_labels << model_->headerData(row, Qt::Vertical).toString();
    for (int part = 0; part < BreakdownTableModel::part_count; ++part) {
        if (!model_->partIsEmpty(part)) bars.columns.push_back(part);
    }
    bars.value = [this, scale](int row, int part) { return model_->chartValue(row, part) / scale.unit_value; };
    bars.axis_title = shares ? tr("Share of the iteration (%)") : tr("Time (%1)").arg(scale.unit);
    bars.axis_max = shares ? 100.0 : model_->iterationSeconds() / scale.unit_value;
    add_row_bars(*chart_, bars, *table_);
    apply_chart_style(*chart_, palette());
}

void BreakdownView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) apply_chart_style(*chart_, palette());
    QWidget::changeEvent(event);
}

QString BreakdownView::message() const { return pages_->currentIndex() == 0 ? message_->text() : QString(); }

void BreakdownView::showRun(const RunState& state) { show_run_state(*this, state, result_.get()); }


std::optional<int> BreakdownView::rowOfNpu(std::int64_t npu) const {
    return row_showing_npu(result_->simulation.report, model_->rowCount(),
                           [this](int row) { return model_->firstDevice(row); }, npu);
}

bool BreakdownView::reveal(const Target& target) {
    if (target.kind != TargetKind::device || target.name != "breakdown" || !result_) return false;
    const std::optional<int> row = rowOfNpu(target.npu);
    if (!row) return false;
    table_->selectRow(*row);
    table_->scrollTo(model_->index(*row, 0));
    return true;
}

std::optional<TargetArea> BreakdownView::areaOf(const Target& target) const {
    if (target.kind != TargetKind::device || target.name != "breakdown" || !result_) return std::nullopt;
    const std::optional<int> row = rowOfNpu(target.npu);
    if (!row) return std::nullopt;
    return TargetArea{table_->viewport(), table_->visualRect(model_->index(*row, 0))
                                              .united(table_->visualRect(model_->index(*row, model_->columnCount() - 1)))};
}

}  // namespace parasight::gui

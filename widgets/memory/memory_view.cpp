#include "memory/memory_view.h"

#include "analysis/memory_curve.h"
#include "analysis/stage_figures.h"

#include "results/capacity_line.h"
#include "results/grouping_box.h"
#include "results/result_table.h"
#include "results/row_bars.h"
#include "export/memory_csv.h"
#include "picture/export_button.h"
#include "picture/picture_export.h"
#include "memory/tier_capacity_bars.h"
#include "results/row_of_npu.h"
#include "run/show_run_state.h"
#include "style/activity_colors.h"
#include "style/axis_scale.h"
#include "style/chart_style.h"
#include "style/quantity_text.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedWidget>
#include <QStringList>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace parasight::gui {

namespace {

// Enough points for a line across a wide screen; more would only slow the chart down.
constexpr int curve_points = 4000;

}  // namespace

MemoryView::MemoryView(QWidget* parent) : QWidget(parent), model_(new MemoryTableModel(this)) {
    grouping_ = make_grouping_box(this);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Rows:"), this));
    controls->addWidget(grouping_);
    controls->addStretch(1);
    // Where the capacity is when the charts, scaled to the data, do not reach it.
    capacity_note_ = new QLabel(this);
    capacity_note_->setObjectName(QStringLiteral("CapacityNote"));
    controls->addWidget(capacity_note_);

    out_of_memory_ = new QLabel(this);
    out_of_memory_->setWordWrap(true);
    out_of_memory_->setTextFormat(Qt::RichText);
    out_of_memory_->hide();
    // Where offloaded model states are, and how much of each tier they take.
    tiers_ = new TierCapacityBars(this);

    peak_chart_ = new QChart;
    table_ = make_result_table(model_, tr("Memory table"), this);
    // Choosing a row (in the table or by clicking its bar) names its device to the other views.
    on_row_chosen(*table_, this, [this](int row) {
        if (const std::optional<std::size_t> device = std::optional<std::size_t>(model_->device(row))) Q_EMIT deviceChosen(static_cast<qulonglong>(*device));
    });

    device_ = new QComboBox(this);
    device_->setAccessibleName(tr("Device"));
    device_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    time_chart_ = new QChart;
    auto* over_time = new QWidget(this);
    auto* device_row = new QHBoxLayout;
    device_row->addWidget(new QLabel(tr("Over the iteration on"), over_time));
    device_row->addWidget(device_);
    device_row->addStretch(1);
    auto* over_time_layout = new QVBoxLayout(over_time);
    over_time_layout->setContentsMargins(0, 0, 0, 0);
    over_time_layout->addLayout(device_row);
    QWidget* time_view = make_chart_view(time_chart_, over_time);
    time_view->setToolTip(tr("The chosen device's allocated memory over the iteration: activations grow with each "
                             "micro-batch's forward and are freed by its backward"));
    over_time_layout->addWidget(time_view, 1);

    // The two charts side by side above, the table across the width below.
    auto* charts = new QSplitter(Qt::Horizontal, this);
    auto* at_peak = new QWidget(this);
    auto* at_peak_layout = new QVBoxLayout(at_peak);
    at_peak_layout->setContentsMargins(0, 0, 0, 0);
    // As tall as the device row beside it, so that both charts start level.
    auto* at_peak_title = new QLabel(tr("At each device's peak"), at_peak);
    at_peak_title->setMinimumHeight(device_->sizeHint().height());
    at_peak_layout->addWidget(at_peak_title);
    QWidget* peak_view = make_chart_view(peak_chart_, at_peak);
    std::vector<ExportChoice> exports = picture_choices(peak_view, tr("Peak chart"));
    for (ExportChoice& choice : picture_choices(time_view, tr("Chart over time"))) exports.push_back(std::move(choice));
    exports.push_back(ExportChoice{tr("Table as &CSV…"), tr("Export the memory as CSV"), tr("CSV files (*.csv)"),
                                   QStringLiteral(".csv"), [this](const QString& path) -> std::optional<QString> {
                                       if (!result_) return tr("there is no result to export");
                                       return write_file_atomically(path, [this](std::ostream& out) {
                                           write_memory_csv(out, result_->simulation.report);
                                       });
                                   }});
    QToolButton* export_button = make_export_button(this, std::move(exports));
    export_button->setObjectName(QStringLiteral("MemoryExport"));
    controls->addWidget(export_button);
    peak_view->setToolTip(tr("Each row's device at its highest allocation, by what it holds (the table's headers say "
                             "what each category is)"));
    at_peak_layout->addWidget(peak_view, 1);
    charts->addWidget(at_peak);
    charts->addWidget(over_time);
    charts->setChildrenCollapsible(false);
    charts->setSizes({1000, 1000});
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(charts);
    splitter->addWidget(table_);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({2000, 1000});

    message_ = new QLabel(this);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    pages_ = new QStackedWidget(this);
    pages_->addWidget(message_);
    pages_->addWidget(splitter);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(out_of_memory_);
    layout->addWidget(tiers_);
    layout->addWidget(pages_, 1);

    connect(grouping_, &QComboBox::currentIndexChanged, this, &MemoryView::refresh);
    connect(device_, &QComboBox::currentIndexChanged, this, &MemoryView::rebuildTimeChart);
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        device_->setCurrentIndex(static_cast<int>(model_->device(index.row())));
    });
    showMessage(tr("No result yet"));
}

void MemoryView::showResult(std::shared_ptr<const SimulationResult> result) {
    result_ = std::move(result);
    const Report& report = result_->simulation.report;
    offer_device_grouping(*grouping_, report);

    if (report.out_of_memory) {
        const OutOfMemory& oom = *report.out_of_memory;
        out_of_memory_->setText(
            QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>")
                .arg(over_capacity_color().name(),
                     tr("Out of memory: NPU %1 needs %2 of its %3, first crossed at %4 by %5.")
                         .arg(oom.npu)
                         .arg(bytes_text(report.peak_memory_bytes),
                              bytes_text(report.memory_capacity_bytes),
                              time_text(oom.time_s),
                              QString::fromStdString(oom.tensor).toHtmlEscaped())));
    }
    out_of_memory_->setVisible(report.out_of_memory.has_value());
    tiers_->showReport(report);

    // The device list for the over-time chart; the fullest device first shown.
    {
        const QSignalBlocker quiet(device_);
        device_->clear();
        for (const DeviceReport& device : report.per_device) {
            device_->addItem(tr("NPU %1 · stage %2 — peak %3")
                                 .arg(device.npu)
                                 .arg(device.stage)
                                 .arg(bytes_text(device.peak_memory_bytes)));
        }
        device_->setCurrentIndex(static_cast<int>(fullest_device(report)));
    }
    refresh();
    rebuildTimeChart();
    pages_->setCurrentIndex(1);
}

void MemoryView::showMessage(const QString& message) {
    result_.reset();
    model_->clear();
    out_of_memory_->hide();
    tiers_->clear();
    capacity_note_->clear();
    message_->setText(message);
    pages_->setCurrentIndex(0);
}

void MemoryView::refresh() {
    if (!result_) return;
    model_->showReport(result_->simulation.report, chosen_grouping(*grouping_));
    for (int category = 0; category < MemoryTableModel::category_count; ++category) {
        table_->setColumnHidden(category, model_->categoryIsEmpty(category));
    }
    table_->resizeColumnsToContents();
    rebuildPeakChart();
}

void MemoryView::rebuildPeakChart() {
    clear_chart(*peak_chart_);
    const int rows = model_->rowCount();
    if (rows == 0) return;
    const double capacity = model_->capacityBytes();
    double largest = 0.0;
    for (int row = 0; row < rows; ++row) largest = std::max(largest, model_->bytes(row, MemoryTableModel::peak_column));
    const MemoryAxisTop top = memory_axis_top(largest, capacity);
    const AxisScale scale = bytes_axis_scale(top.bytes);

    RowBars bars;
    for (int row = 0; row < rows; ++row) bars.row_labels << model_->rowLabel(row);
    for (int category = 0; category < MemoryTableModel::category_count; ++category) {
        if (!model_->categoryIsEmpty(category)) bars.columns.push_back(category);
    }
    bars.value = [this, scale](int row, int category) { return model_->bytes(row, category) / scale.unit_value; };
    bars.axis_title = tr("Memory (%1)").arg(scale.unit);
    peak_capacity_shown_ = top.capacity_shown;
    showCapacityNote();
    bars.axis_max = top.bytes / scale.unit_value;
    QValueAxis* values = add_row_bars(*peak_chart_, bars, *table_);

    if (top.capacity_shown) {
        add_capacity_across_bars(*peak_chart_, values, rows, capacity / scale.unit_value,
                                 tr("Capacity %1").arg(bytes_text(capacity)));
    }
    apply_chart_style(*peak_chart_, palette());
}

void MemoryView::rebuildTimeChart() {
    clear_chart(*time_chart_);
    if (!result_ || !result_->simulation.timeline) return;
    const Report& report = result_->simulation.report;
    const Timeline& timeline = *result_->simulation.timeline;
    const int device = device_->currentIndex();
    if (device < 0 || static_cast<std::size_t>(device) >= timeline.devices().size()) return;
    const auto samples = timeline.memory(static_cast<std::size_t>(device));
    const double end_s = timeline.iteration_time_s();
    const double capacity = report.memory_capacity_bytes;
    const AxisScale time_scale = time_axis_scale(end_s);
    const MemoryAxisTop top = memory_axis_top(timeline.peak_memory_bytes(static_cast<std::size_t>(device)), capacity);
    const AxisScale bytes_scale = bytes_axis_scale(top.bytes);

    auto* used = new QLineSeries;
    used->setName(tr("Allocated"));
    QPen pen(memory_category_color(MemoryCategory::activations));
    pen.setWidthF(1.5);
    used->setPen(pen);
    QList<QPointF> points;
    for (const CurvePoint& point : memory_curve(samples, end_s, curve_points)) {
        points.append(QPointF(point.time_s / time_scale.unit_value, point.bytes / bytes_scale.unit_value));
    }
    used->replace(points);
    time_chart_->addSeries(used);

    auto* time_axis = new QValueAxis;
    time_axis->setTitleText(tr("Time (%1)").arg(time_scale.unit));
    time_axis->setRange(0.0, end_s / time_scale.unit_value);
    time_axis->setLabelFormat(QStringLiteral("%g"));
    time_axis->applyNiceNumbers();
    auto* bytes_axis = new QValueAxis;
    bytes_axis->setTitleText(tr("Memory (%1)").arg(bytes_scale.unit));
    time_capacity_shown_ = top.capacity_shown;
    showCapacityNote();
    bytes_axis->setRange(0.0, top.bytes / bytes_scale.unit_value);
    bytes_axis->setLabelFormat(QStringLiteral("%g"));
    bytes_axis->applyNiceNumbers();
    time_chart_->addAxis(time_axis, Qt::AlignBottom);
    time_chart_->addAxis(bytes_axis, Qt::AlignLeft);
    used->attachAxis(time_axis);
    used->attachAxis(bytes_axis);

    if (top.capacity_shown) {
        auto* line = new QLineSeries;
        line->setName(tr("Capacity"));
        line->setPen(capacity_pen());
        line->append(0.0, capacity / bytes_scale.unit_value);
        line->append(end_s / time_scale.unit_value, capacity / bytes_scale.unit_value);
        add_series(*time_chart_, line, time_axis, bytes_axis);
    }
    const auto& oom = report.out_of_memory;
    if (oom && oom->npu == report.per_device.at(static_cast<std::size_t>(device)).npu) {
        auto* crossing = new QScatterSeries;
        crossing->setName(tr("Out of memory"));
        crossing->setColor(over_capacity_color());
        crossing->setBorderColor(over_capacity_color());
        crossing->setMarkerSize(10.0);
        crossing->append(oom->time_s / time_scale.unit_value, capacity / bytes_scale.unit_value);
        add_series(*time_chart_, crossing, time_axis, bytes_axis);
    }
    time_chart_->setTitle(samples.empty() ? tr("Not recorded in this run") : QString());
    apply_chart_style(*time_chart_, palette());
}

void MemoryView::showCapacityNote() {
    const double capacity = result_ ? result_->simulation.report.memory_capacity_bytes : 0.0;
    QString note;
    // Short enough to stand beside the controls in a 1024 px window; the tooltip says why.
    if (capacity > 0.0 && !peak_capacity_shown_ && !time_capacity_shown_) {
        note = tr("Capacity %1 per device: above both charts");
    } else if (capacity > 0.0 && !time_capacity_shown_) {
        note = tr("Capacity %1 per device: above the chart over the iteration");
    }
    capacity_note_->setText(note.isEmpty() ? QString() : note.arg(bytes_text(capacity)));
    capacity_note_->setToolTip(note.isEmpty() ? QString()
                                              : tr("The charts are scaled to the data and end a little above its peak; "
                                                   "the capacity is drawn as a line on a chart whose scale reaches it"));
}

void MemoryView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        apply_chart_style(*peak_chart_, palette());
        apply_chart_style(*time_chart_, palette());
    }
    QWidget::changeEvent(event);
}

QString MemoryView::message() const { return pages_->currentIndex() == 0 ? message_->text() : QString(); }

void MemoryView::showRun(const RunState& state) { show_run_state(*this, state, result_.get()); }


std::optional<int> MemoryView::rowOfNpu(std::int64_t npu) const {
    return row_showing_npu(result_->simulation.report, model_->rowCount(),
                           [this](int row) { return std::optional<std::size_t>(model_->device(row)); }, npu);
}

bool MemoryView::reveal(const Target& target) {
    if (!result_) return false;
    if (target.kind == TargetKind::device && target.name == "memory") {
        const std::optional<int> row = rowOfNpu(target.npu);
        if (!row) return false;
        table_->selectRow(*row);
        table_->scrollTo(model_->index(*row, 0));
        return true;
    }
    if (target.kind == TargetKind::memory_category) {
        const std::optional<MemoryCategory> category = value_of(target.name, memory_category_names);
        if (!category) return false;
        table_->selectColumn(static_cast<int>(*category));
        return true;
    }
    return false;
}

std::optional<TargetArea> MemoryView::areaOf(const Target& target) const {
    if (!result_) return std::nullopt;
    if (target.kind == TargetKind::device && target.name == "memory") {
        const std::optional<int> row = rowOfNpu(target.npu);
        if (!row) return std::nullopt;
        return TargetArea{table_->viewport(), table_->visualRect(model_->index(*row, 0))
                                                  .united(table_->visualRect(model_->index(*row, model_->columnCount() - 1)))};
    }
    if (target.kind == TargetKind::memory_category) {
        const std::optional<MemoryCategory> category = value_of(target.name, memory_category_names);
        if (!category || model_->rowCount() == 0) return std::nullopt;
        const int column = static_cast<int>(*category);
        return TargetArea{table_->viewport(), table_->visualRect(model_->index(0, column))
                                                  .united(table_->visualRect(model_->index(model_->rowCount() - 1, column)))};
    }
    return std::nullopt;
}

}  // namespace parasight::gui

#include "oracle/oracle_view.h"

#include "document/scenario_document.h"
#include "results/capacity_line.h"
#include "results/result_table.h"
#include "results/row_bars.h"
#include "style/activity_colors.h"
#include "style/axis_scale.h"
#include "style/chart_style.h"
#include "style/quantity_text.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <optional>

namespace parasight::gui {

namespace {

QString strategy_name(OracleStrategy strategy) {
    return QString::fromUtf8(name_of(strategy, oracle_strategy_names).data());
}

}  // namespace

OracleView::OracleView(ScenarioDocument& document, QWidget* parent)
    : QWidget(parent), document_(document), model_(new OracleTableModel(this)) {
    headline_ = new QLabel(this);
    headline_->setWordWrap(true);
    headline_->setTextFormat(Qt::RichText);

    per_box_ = new QComboBox(this);
    per_box_->addItems({tr("epoch"), tr("iteration")});
    per_box_->setAccessibleName(tr("Time per"));
    pe_box_ = new QComboBox(this);
    pe_box_->setAccessibleName(tr("PEs of the bars and the table"));
    pe_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Time per"), this));
    controls->addWidget(per_box_);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Bars and table at"), this));
    controls->addWidget(pe_box_);
    controls->addStretch(1);

    scaling_chart_ = new QChart;
    split_chart_ = new QChart;
    memory_chart_ = new QChart;
    table_ = make_result_table(model_, tr("Oracle table"), this);
    table_->verticalHeader()->setVisible(true);

    auto* at_p = new QSplitter(Qt::Vertical, this);
    for (QChart* chart : {split_chart_, memory_chart_}) {
        // Two charts stacked beside the curves: each may shrink further than one alone, for a 640x400 window.
        QWidget* view = make_chart_view(chart, at_p);
        view->setMinimumHeight(60);
        at_p->addWidget(view);
    }
    at_p->setChildrenCollapsible(false);
    auto* charts = new QSplitter(Qt::Horizontal, this);
    QWidget* scaling_view = make_chart_view(scaling_chart_, charts);
    scaling_view->setToolTip(tr("ParaDL's closed forms: each CNN strategy's time against the PEs, both axes "
                                "logarithmic; dashed from where a limit rules the strategy out"));
    charts->addWidget(scaling_view);
    scaling_chart_->legend()->setAlignment(Qt::AlignRight);  // nine strategies: a column beside the curves
    charts->addWidget(at_p);
    charts->setChildrenCollapsible(false);
    charts->setSizes({1200, 1000});
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(charts);
    splitter->addWidget(table_);
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({3000, 1000});

    message_ = new QLabel(this);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    // The controls belong to the answer: a scenario the oracle cannot answer for shows its sentence alone.
    auto* answer = new QWidget(this);
    auto* answer_layout = new QVBoxLayout(answer);
    answer_layout->setContentsMargins(0, 0, 0, 0);
    answer_layout->addLayout(controls);
    answer_layout->addWidget(splitter, 1);
    pages_ = new QStackedWidget(this);
    pages_->addWidget(message_);
    pages_->addWidget(answer);

    comparison_ = new QLabel(this);
    comparison_->setWordWrap(true);
    comparison_->setTextFormat(Qt::RichText);
    comparison_->hide();

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(headline_);
    layout->addWidget(comparison_);
    layout->addWidget(pages_, 1);

    connect(&document_, &ScenarioDocument::scenarioChanged, this, &OracleView::recompute);
    connect(pe_box_, &QComboBox::currentIndexChanged, this, &OracleView::showChosen);
    connect(per_box_, &QComboBox::currentIndexChanged, this, &OracleView::showChosen);
    recompute();
}

void OracleView::showResult(const std::shared_ptr<const SimulationResult>& result) {
    if (!result || !result->oracle_comparison) {
        showNoResult();
        return;
    }
    const OracleComparison& comparison = *result->oracle_comparison;
    const QString strategy = strategy_name(comparison.oracle.strategy);
    QString text = tr("<b>Next to the simulation</b> — this scenario's %1 on %2 PEs, one iteration: the oracle says "
                      "%3, the simulation %4.")
                       .arg(strategy, QString::fromStdString(oracle_arrangement_text(comparison.oracle)),
                            time_text(comparison.oracle_iteration_s()), time_text(comparison.simulated_iteration_s));
    QStringList reasons;
    for (const std::string& reason : comparison.reasons) reasons << QString::fromStdString(reason);
    if (!reasons.isEmpty()) text += tr(" Largest difference: %1.").arg(reasons.front().toHtmlEscaped());
    comparison_text_ = text;
    comparison_tool_tip_ = reasons.join(QStringLiteral("\n\n"));
    showComparison();
}

void OracleView::setSimulationHidden(bool hidden) {
    simulation_hidden_ = hidden;
    showComparison();
}

void OracleView::showComparison() {
    if (comparison_text_.isEmpty()) return;
    comparison_->setText(simulation_hidden_ ? tr("<b>Next to the simulation</b> — hidden until you commit a guess in "
                                                 "the Lesson dock.")
                                            : comparison_text_);
    comparison_->setToolTip(simulation_hidden_ ? QString() : comparison_tool_tip_);
    comparison_->show();
}

void OracleView::setResultStale(bool stale) { comparison_->setEnabled(!stale); }

void OracleView::showNoResult() {
    comparison_text_.clear();
    comparison_tool_tip_.clear();
    comparison_->clear();
    comparison_->hide();
}

QString OracleView::message() const { return pages_->currentIndex() == 0 ? message_->text() : QString(); }

bool OracleView::perIteration() const { return per_box_->currentIndex() == 1; }

double OracleView::timeOf(const OracleEstimate& estimate) const {
    return perIteration() ? estimate.epoch_s() / problem_.iterations() : estimate.epoch_s();
}

void OracleView::showMessage(const QString& message) {
    points_.clear();
    model_->clear();
    headline_->clear();
    message_->setText(message);
    pages_->setCurrentIndex(0);
}

void OracleView::recompute() {
    const std::shared_ptr<const ValidatedScenario> validated = document_.validated();
    // A scenario with problems: the last answer stays, greyed, as in the other views.
    setEnabled(validated != nullptr);
    if (!validated) return;
    auto problem = oracle_problem(*validated);
    if (!problem) {
        // The core's reason, as the sentence it starts here.
        QString reason = QString::fromStdString(problem.error());
        if (!reason.isEmpty()) reason[0] = reason[0].toUpper();
        showMessage(tr("%1.\n\nThe Oracle tab answers for CNNs: open one (File → Open Preset → resnet50-abci) to see "
                       "where each parallel strategy stops scaling.")
                        .arg(reason));
        return;
    }
    problem_ = std::move(*problem);
    const Scenario& scenario = validated->value();
    std::vector<OracleStrategy> strategies;
    for (const auto& entry : oracle_strategy_names) strategies.push_back(entry.value);
    const std::vector<std::int64_t> pes = oracle_default_pes(scenario.device_count());
    points_ = oracle_strong_scaling(problem_, scenario.cluster.topology, pes, strategies);

    {
        // The p shown stays across edits while it is offered; at first, the cluster's NPUs (or the most below them).
        const QSignalBlocker quiet(pe_box_);
        const qint64 kept =
            pe_box_->currentIndex() >= 0 ? pe_box_->currentData().toLongLong() : scenario.device_count();
        pe_box_->clear();
        int chosen = 0;
        for (std::size_t i = 0; i < points_.size(); ++i) {
            const std::int64_t p = points_[i].p;
            pe_box_->addItem(tr("p = %1").arg(p), QVariant::fromValue<qint64>(p));
            if (p <= kept) chosen = static_cast<int>(i);
        }
        pe_box_->setCurrentIndex(chosen);
    }
    {
        // Without the dataset's size an epoch is one iteration: there is only one view.
        const QSignalBlocker quiet(per_box_);
        const bool has_epoch = scenario.training.dataset_samples.has_value();
        if (!has_epoch) per_box_->setCurrentIndex(1);
        per_box_->setEnabled(has_epoch);
        per_box_->setToolTip(has_epoch ? QString()
                                       : tr("Without training.dataset_samples (Samples per epoch in the form) an "
                                            "epoch is one iteration"));
    }
    pages_->setCurrentIndex(1);
    showChosen();
}

void OracleView::showChosen() {
    const int index = pe_box_->currentIndex();
    if (points_.empty() || index < 0) return;
    const OracleScalingPoint& point = points_[static_cast<std::size_t>(index)];
    model_->show(point.choices, problem_.iterations(), perIteration(), problem_.memory_capacity_bytes);
    table_->resizeColumnsToContents();

    const Scenario& scenario = document_.validated()->value();
    QString text = QStringLiteral("<b>%1</b> — %2 layers; ")
                       .arg(QString::fromStdString(scenario.model.name).toHtmlEscaped())
                       .arg(problem_.layers.size());
    if (scenario.training.dataset_samples) {
        text += tr("%1 samples per epoch in batches of %2 (%3 iterations)")
                    .arg(*scenario.training.dataset_samples)
                    .arg(scenario.training.global_batch)
                    .arg(fixed_text(problem_.iterations(), 1));
    } else {
        text += tr("batches of %1").arg(scenario.training.global_batch);
    }
    text += tr("; %1 per PE. ").arg(bytes_text(problem_.memory_capacity_bytes));
    if (point.best) {
        const OracleChoice& best = point.choices[*point.best];
        text += tr("Best at p = %1: <b>%2</b>, %3 per %4.")
                    .arg(point.p)
                    .arg(strategy_name(best.strategy), time_text(timeOf(best.estimate)),
                         perIteration() ? tr("iteration") : tr("epoch"));
    } else {
        text += tr("At p = %1 no strategy both runs and fits in memory.").arg(point.p);
    }
    if (point.network.beyond_cluster) {
        text += tr(" (p = %1 is more than the cluster's %2 NPUs: its outermost dimension is taken as grown.)")
                    .arg(point.p)
                    .arg(scenario.device_count());
    }
    headline_->setText(text);
    rebuildScalingChart();
    rebuildBarCharts();
}

void OracleView::rebuildScalingChart() {
    QChart& chart = *scaling_chart_;
    clear_chart(chart);
    if (points_.empty()) return;
    double lowest = std::numeric_limits<double>::infinity();
    double highest = 0.0;
    for (const OracleScalingPoint& point : points_) {
        for (const OracleChoice& choice : point.choices) {
            if (choice.estimate.ruled_out) continue;
            lowest = std::min(lowest, timeOf(choice.estimate));
            highest = std::max(highest, timeOf(choice.estimate));
        }
    }
    if (!(highest > 0.0)) return;
    const AxisScale scale = time_axis_scale(highest);
    const double bottom = lowest / scale.unit_value / 2.0;
    const double top = highest / scale.unit_value * 2.0;

    auto* pes = new QLogValueAxis;
    pes->setBase(2.0);
    pes->setLabelFormat(QStringLiteral("%g"));
    pes->setTitleText(tr("PEs (p)"));
    pes->setRange(static_cast<double>(points_.front().p) / 1.4, static_cast<double>(points_.back().p) * 1.4);
    pes->setMinorTickCount(0);
    auto* times = new QLogValueAxis;
    times->setBase(10.0);
    times->setLabelFormat(QStringLiteral("%g"));
    times->setTitleText(tr("Time per %1 (%2)").arg(perIteration() ? tr("iteration") : tr("epoch"), scale.unit));
    times->setRange(bottom, top);
    times->setMinorTickCount(8);
    chart.addAxis(pes, Qt::AlignBottom);
    chart.addAxis(times, Qt::AlignLeft);
    chart.setTitle(tr("Strong scaling: dashed where a limit rules a strategy out"));

    const auto at = [&](std::size_t point, std::size_t strategy) {
        const OracleChoice& choice = points_[point].choices[strategy];
        return QPointF(static_cast<double>(points_[point].p), timeOf(choice.estimate) / scale.unit_value);
    };
    const auto allowed = [&](std::size_t point, std::size_t strategy) {
        return !points_[point].choices[strategy].estimate.ruled_out.has_value();
    };
    // The hybrids first and wider, so that where one equals its pure strategy (data + filter with p2 = 1 is data) the
    // pure line runs on top of it and the hybrid shows as a band around it.
    std::vector<std::size_t> order(points_.front().choices.size());
    for (std::size_t s = 0; s < order.size(); ++s) order[s] = s;
    const auto hybrid = [this](std::size_t s) { return is_hybrid(points_.front().choices[s].strategy); };
    std::stable_partition(order.begin(), order.end(), hybrid);
    for (const std::size_t s : order) {
        const OracleStrategy strategy = points_.front().choices[s].strategy;
        const QColor color = oracle_strategy_color(strategy);
        if (strategy == OracleStrategy::serial) {
            // One PE only: a point, not a curve.
            if (!allowed(0, s)) continue;
            auto* dot = new QScatterSeries;
            dot->setName(strategy_name(strategy));
            dot->setColor(color);
            dot->setBorderColor(color);
            dot->setMarkerSize(9.0);
            dot->append(at(0, s));
            add_series(chart, dot, pes, times);
            continue;
        }
        QPen solid(color);
        solid.setWidthF(hybrid(s) ? 5.0 : 2.0);
        QPen dashed(color);
        dashed.setWidthF(hybrid(s) ? 3.0 : 1.5);
        dashed.setStyle(Qt::DashLine);
        bool named = false;
        QLineSeries* run = nullptr;
        bool run_allowed = false;
        for (std::size_t i = 0; i < points_.size(); ++i) {
            const bool ok = allowed(i, s);
            if (run == nullptr || ok != run_allowed) {
                // A new run of allowed (solid) or ruled-out (dashed) points, joined to the previous point.
                auto* next = new QLineSeries;
                next->setPen(ok ? solid : dashed);
                if (i > 0) next->append(at(i - 1, s));
                if (run != nullptr && !ok && run_allowed) {
                    // Where the dashes begin, the limit that begins them.
                    auto* label = new QScatterSeries;
                    label->setColor(color);
                    label->setBorderColor(color);
                    label->setMarkerSize(6.0);
                    label->append(at(i, s));
                    label->setPointLabelsFormat(
                        QString::fromStdString(points_[i].choices[s].estimate.ruled_out->bound));
                    label->setPointLabelsColor(color);
                    label->setPointLabelsClipping(false);
                    label->setPointLabelsVisible(true);
                    add_series(chart, label, pes, times);
                    hide_from_legend(chart, label);
                }
                if (ok && !named) {
                    next->setName(strategy_name(strategy));
                } else {
                    next->setName(QString());
                }
                add_series(chart, next, pes, times);
                if (!(ok && !named)) hide_from_legend(chart, next);
                named = named || ok;
                run = next;
                run_allowed = ok;
            }
            run->append(at(i, s));
        }
    }

    // The p the bars and the table are at.
    const int chosen = pe_box_->currentIndex();
    if (chosen >= 0) {
        auto* marker = new QLineSeries;
        QPen pen(palette().color(QPalette::Text));
        pen.setStyle(Qt::DotLine);
        pen.setWidthF(1.0);
        marker->setPen(pen);
        const auto p = static_cast<double>(points_[static_cast<std::size_t>(chosen)].p);
        marker->append(p, bottom);
        marker->append(p, top);
        add_series(chart, marker, pes, times);
        hide_from_legend(chart, marker);
    }
    apply_chart_style(chart, palette());
}

void OracleView::rebuildBarCharts() {
    clear_chart(*split_chart_);
    clear_chart(*memory_chart_);
    const int rows = model_->rowCount();
    if (rows == 0) return;
    const QString p = pe_box_->currentText();
    // Ruled-out strategies get no bar: the closed forms' numbers for PEs they cannot use would mislead.
    const auto shown = [this](int row, double value) { return model_->ruledOut(row) ? 0.0 : value; };
    double longest = 0.0;
    double largest = model_->capacityBytes();
    for (int row = 0; row < rows; ++row) {
        longest = std::max(longest, shown(row, model_->value(row, OracleTableModel::time_column)));
        largest = std::max(largest, shown(row, model_->value(row, OracleTableModel::memory_column)));
    }
    RowBars split;
    RowBars memory;
    for (int row = 0; row < rows; ++row) split.row_labels << model_->rowLabel(row);
    memory.row_labels = split.row_labels;

    // A strategy far slower than the best (filter parallelism's exchanges at 64 PEs take hours) would squash every
    // other bar to nothing: the axis ends at 5× the best, and a longer bar runs off it (the table has its number).
    const std::optional<std::size_t> best = points_[static_cast<std::size_t>(pe_box_->currentIndex())].best;
    const double best_s = best ? model_->value(static_cast<int>(*best), OracleTableModel::time_column) : 0.0;
    const bool cut = best_s > 0.0 && longest > 5.0 * best_s;
    if (cut) longest = 5.0 * best_s;
    const AxisScale time_scale = time_axis_scale(longest > 0.0 ? longest : 1.0);
    split.columns = {OracleTableModel::compute_column, OracleTableModel::communication_column};
    split.value = [this, shown, time_scale](int row, int column) {
        return shown(row, model_->value(row, column)) / time_scale.unit_value;
    };
    split.axis_title = tr("At %1: time per %2 (%3)").arg(p, perIteration() ? tr("iteration") : tr("epoch"),
                                                          time_scale.unit);
    if (cut) split.axis_title += tr(", ≤ 5× best");
    split.axis_max = longest / time_scale.unit_value;
    add_row_bars(*split_chart_, split, *table_);
    apply_chart_style(*split_chart_, palette());

    const AxisScale bytes_scale = bytes_axis_scale(largest > 0.0 ? largest : 1.0);
    memory.columns = {OracleTableModel::memory_column};
    memory.value = [this, shown, bytes_scale](int row, int column) {
        return shown(row, model_->value(row, column)) / bytes_scale.unit_value;
    };
    memory.axis_title = tr("At %1: memory per PE (%2)").arg(p, bytes_scale.unit);
    memory.axis_max = largest / bytes_scale.unit_value;
    QValueAxis* values = add_row_bars(*memory_chart_, memory, *table_);
    if (model_->capacityBytes() > 0.0) {
        add_capacity_across_bars(*memory_chart_, values, rows, model_->capacityBytes() / bytes_scale.unit_value,
                                 tr("Capacity %1").arg(bytes_text(model_->capacityBytes())));
    }
    apply_chart_style(*memory_chart_, palette());
}

void OracleView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && !points_.empty()) {
        rebuildScalingChart();  // the chosen-p marker takes the text colour
        apply_chart_style(*split_chart_, palette());
        apply_chart_style(*memory_chart_, palette());
    }
    QWidget::changeEvent(event);
}

void OracleView::showRun(const RunState& state) {
    switch (state.kind) {
        case RunState::Kind::none: return;
        case RunState::Kind::result:
            if (state.result.get() != shown_run_) showResult(state.result);
            shown_run_ = state.result.get();
            setResultStale(state.stale);
            return;
        case RunState::Kind::failure:
            showNoResult();
            shown_run_ = nullptr;
            return;
        case RunState::Kind::not_simulated: setResultStale(true); return;
    }
}


std::optional<int> OracleView::rowOf(const Target& target) const {
    if (target.kind != TargetKind::oracle_strategy) return std::nullopt;
    const std::optional<OracleStrategy> strategy = value_of(target.name, oracle_strategy_names);
    if (!strategy) return std::nullopt;
    for (int row = 0; row < model_->rowCount(); ++row) {
        if (model_->strategy(row) == *strategy) return row;
    }
    return std::nullopt;
}

bool OracleView::reveal(const Target& target) {
    if (target.kind != TargetKind::oracle_strategy || pages_->currentIndex() == 0) return false;
    const int p = pe_box_->findData(QVariant::fromValue<qint64>(target.pes));
    if (p < 0) return false;
    pe_box_->setCurrentIndex(p);
    const std::optional<int> row = rowOf(target);
    if (!row) return false;
    table_->selectRow(*row);
    table_->scrollTo(model_->index(*row, 0));
    return true;
}

std::optional<TargetArea> OracleView::areaOf(const Target& target) const {
    const std::optional<int> row = rowOf(target);
    if (!row) return std::nullopt;
    return TargetArea{table_->viewport(), table_->visualRect(model_->index(*row, 0))
                                              .united(table_->visualRect(model_->index(*row, model_->columnCount() - 1)))};
}

}  // namespace parasight::gui

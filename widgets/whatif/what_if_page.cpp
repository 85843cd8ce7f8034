#include "whatif/what_if_page.h"

#include "common/message_text.h"
#include "document/scenario_document.h"
#include "scenario_form/field_builders.h"
#include "style/chart_style.h"
#include "style/quantity_text.h"
#include "whatif/delay_sweep_chart.h"
#include "run/job_runner.h"
#include "whatif/rule_delegate.h"
#include "whatif/what_if_rules_model.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace parasight::gui {

namespace {

// The delays a sweep starts with: NeuronaBox's Fig. 4 range, in 1 ms steps.
const QString default_delays = QStringLiteral("0..10ms+1ms");

struct ListText {
    const char* title;
    const char* help;
};

ListText list_text(WhatIfList list) {
    switch (list) {
    case WhatIfList::collective_delays:
        return {QT_TRANSLATE_NOOP("WhatIfPage", "Collective delays"),
                QT_TRANSLATE_NOOP("WhatIfPage", "Each matching communication starts this much later once all its "
                                                "members reach it. Layers count from 0; gradient buckets and "
                                                "pipeline sends belong to no layer.")};
    case WhatIfList::slow_devices:
        return {QT_TRANSLATE_NOOP("WhatIfPage", "Slow devices"),
                QT_TRANSLATE_NOOP("WhatIfPage", "These NPUs' computations take this many times as long: 1.25 is a "
                                                "device at 80% speed.")};
    case WhatIfList::degraded_links:
        return {QT_TRANSLATE_NOOP("WhatIfPage", "Degraded links"),
                QT_TRANSLATE_NOOP("WhatIfPage", "These links move data at this fraction of their bandwidth: of one "
                                                "dimension or every one, of the listed NPUs or every NPU.")};
    }
    return {};
}

}  // namespace

WhatIfPage::WhatIfPage(ScenarioDocument& document, QWidget* parent)
    : QWidget(parent), document_(document), runner_(std::make_unique<JobRunner>()) {
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    // Each side scrolls rather than hold the window larger than a small screen (640 × 400 with the dock).
    for (QWidget* side : {buildRules(), buildSweep()}) {
        auto* scroll = new QScrollArea(splitter);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(side);
        splitter->addWidget(scroll);
    }
    splitter->setChildrenCollapsible(false);
    splitter->setSizes({900, 1100});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(&document_, &ScenarioDocument::scenarioChanged, this, &WhatIfPage::onScenarioChanged);
    connect(runner_.get(), &JobRunner::progressed, this,
            [this](quint64, const QString&, double fraction) { progress_->setValue(static_cast<int>(fraction * 100.0)); });
    connect(runner_.get(), &JobRunner::failed, this, [this](quint64, const QString& what) { showSweepFailure(what); });
    connect(runner_.get(), &JobRunner::cancelled, this, [this] {
        showSweepError(tr("Sweep cancelled."));
        Q_EMIT sweepSettled();
    });
    connect(runner_.get(), &JobRunner::started, this, [this] {
        progress_->setValue(0);
        progress_->show();
        cancel_button_->show();
    });
    onScenarioChanged();
}

WhatIfPage::~WhatIfPage() = default;

QWidget* WhatIfPage::buildRules() {
    auto* box = new QGroupBox(tr("What-if rules of this scenario"), this);
    auto* layout = new QVBoxLayout(box);
    rules_status_ = new QLabel(box);
    layout->addWidget(rules_status_);
    for (const WhatIfList list : what_if_lists) {
        const auto at = static_cast<std::size_t>(list);
        const ListText text = list_text(list);
        auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(tr(text.title)), box);
        auto* add = new QPushButton(tr("Add"), box);
        auto* remove = new QPushButton(tr("Remove"), box);
        add->setAccessibleName(tr("Add to %1").arg(tr(text.title)));
        remove->setAccessibleName(tr("Remove from %1").arg(tr(text.title)));
        // What the rules do in the tooltips: a wrapped paragraph here would be squeezed in a small window.
        title->setToolTip(tr(text.help));
        layout->addWidget(title);

        auto* model = new WhatIfRulesModel(document_, list, this);
        auto* table = new QTableView(box);
        table->setModel(model);
        table->setItemDelegate(new RuleDelegate(table));
        table->setAccessibleName(tr(text.title));
        table->setAccessibleDescription(tr(text.help));
        table->setToolTip(tr(text.help));
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->setSelectionMode(QAbstractItemView::SingleSelection);
        table->setEditTriggers(QAbstractItemView::AllEditTriggers);
        table->setWordWrap(false);
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
        table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->setMinimumHeight(table->horizontalHeader()->sizeHint().height() * 2);
        // The tables share what height there is: their own wish (192 pixels each) would scroll the side.
        table->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
        layout->addWidget(table, 1);
        auto* buttons = new QHBoxLayout;
        buttons->addStretch(1);
        buttons->addWidget(add);
        buttons->addWidget(remove);
        layout->addLayout(buttons);
        models_[at] = model;
        tables_[at] = table;

        connect(add, &QPushButton::clicked, this, [this, model, table] {
            model->addRule();
            table->selectRow(model->rowCount() - 1);
        });
        connect(remove, &QPushButton::clicked, this, [model, table] {
            const QModelIndex current = table->currentIndex();
            model->removeRule(current.isValid() ? current.row() : model->rowCount() - 1);
        });
        const auto update_remove = [model, remove] { remove->setEnabled(model->rowCount() > 0); };
        connect(model, &QAbstractItemModel::modelReset, remove, update_remove);
        update_remove();
        connect(model, &WhatIfRulesModel::editRefused, this, &WhatIfPage::editRefused);
    }
    return box;
}

QWidget* WhatIfPage::buildSweep() {
    auto* box = new QGroupBox(tr("Delay sweep: how much delay does the overlap hide?"), this);
    group_ = new QComboBox(box);
    group_->addItems(QStringList{tr("any")} + enum_names(parallel_axis_names));
    group_->setCurrentText(QStringLiteral("dp"));
    operation_ = new QComboBox(box);
    operation_->addItems(QStringList{tr("any")} + enum_names(comm_operation_names));
    layers_ = new QLineEdit(box);
    layers_->setPlaceholderText(tr("every layer"));
    delays_ = new QLineEdit(default_delays, box);
    delays_->setToolTip(tr("A list (1ms, 2ms, 5ms) or a range: 0..10ms+1ms adds 1 ms at a time, 1..1024us x2 "
                           "doubles; at most %1 delays")
                            .arg(max_swept_delays));
    every_device_ = new QCheckBox(tr("Every device"), box);
    every_device_->setToolTip(tr("Simulate each device rather than one of each kind: slower"));
    sweep_button_ = new QPushButton(tr("Sweep"), box);
    sweep_button_->setDefault(true);
    cancel_button_ = new QPushButton(tr("Cancel"), box);
    cancel_button_->hide();
    progress_ = new QProgressBar(box);
    progress_->setRange(0, 100);
    progress_->setTextVisible(false);
    progress_->hide();

    // Two columns of labelled controls, so that each keeps its width in a narrow window.
    auto* controls = new QGridLayout;
    const std::pair<QString, QWidget*> labelled[] = {
        {tr("Group"), group_}, {tr("Operation"), operation_}, {tr("Layers"), layers_}, {tr("Delays"), delays_}};
    for (int i = 0; i < 4; ++i) {
        const auto& [label, editor] = labelled[i];
        auto* name = new QLabel(label, box);
        name->setBuddy(editor);
        editor->setAccessibleName(label);
        controls->addWidget(name, i / 2, (i % 2) * 2);
        controls->addWidget(editor, i / 2, (i % 2) * 2 + 1);
    }
    controls->setColumnStretch(1, 1);
    controls->setColumnStretch(3, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(every_device_);
    buttons->addStretch(1);
    buttons->addWidget(cancel_button_);
    buttons->addWidget(sweep_button_);
    chart_ = new QChart;
    QChartView* view = make_chart_view(chart_, box);
    view->setToolTip(tr("Iteration time against the delay added to each chosen communication: flat while the "
                        "overlap with computation hides the delay, then rising with every call nothing hides"));
    apply_chart_style(*chart_, palette());
    summary_ = new QLabel(tr("Choose the communications to delay and the delays, then Sweep: one simulation per "
                             "delay shows how much of it the overlap with computation hides."),
                          box);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(box);
    layout->addLayout(controls);
    layout->addLayout(buttons);
    layout->addWidget(progress_);
    layout->addWidget(view, 1);
    layout->addWidget(summary_);

    connect(sweep_button_, &QPushButton::clicked, this, [this] { (void)sweep(); });
    connect(delays_, &QLineEdit::returnPressed, this, [this] { (void)sweep(); });
    connect(layers_, &QLineEdit::returnPressed, this, [this] { (void)sweep(); });
    connect(cancel_button_, &QPushButton::clicked, runner_.get(), &JobRunner::cancel);
    return box;
}

WhatIfRulesModel* WhatIfPage::rulesModel(WhatIfList list) const { return models_[static_cast<std::size_t>(list)]; }

QTableView* WhatIfPage::rulesTable(WhatIfList list) const { return tables_[static_cast<std::size_t>(list)]; }

bool WhatIfPage::sweep() {
    const std::shared_ptr<const ValidatedScenario> scenario = document_.validated();
    if (!scenario) {
        showSweepError(tr("The scenario has problems (see the Problems panel): nothing is swept."));
        return false;
    }
    CollectiveDelay rule;
    // The first entry of each list is "any": the selector left out.
    if (group_->currentIndex() > 0) {
        rule.group = parallel_axis_names[static_cast<std::size_t>(group_->currentIndex() - 1)].value;
    }
    if (operation_->currentIndex() > 0) {
        rule.operation = comm_operation_names[static_cast<std::size_t>(operation_->currentIndex() - 1)].value;
    }
    if (const QString text = layers_->text().trimmed(); !text.isEmpty()) {
        const auto layers = parse_layer_range(text.toStdString());
        if (!layers) {
            showSweepError(tr("Layers: %1").arg(QString::fromStdString(layers.error())));
            return false;
        }
        rule.layers = *layers;
    }
    auto delays_s = parse_delays(delays_->text().trimmed().toStdString());
    if (!delays_s) {
        showSweepError(tr("Delays: %1").arg(QString::fromStdString(delays_s.error())));
        return false;
    }
    SimulateOptions options;
    options.all_devices = every_device_->isChecked();
    swept_rule_ = rule;
    swept_scenario_ = scenario;
    summary_->setText(tr("Sweeping the delay on %1…").arg(QString::fromStdString(delay_rule_words(rule))));
    using Outcome = Expected<DelaySweep, SimulationError>;
    runner_->start<Outcome>(
        [scenario, rule, delays = std::move(*delays_s), options](JobRunner::Context& context) mutable {
            options.progress = &context;
            return sweep_delay(*scenario, rule, delays, options);
        },
        [this](std::uint64_t, Outcome outcome) {
            if (!outcome) {
                showSweepFailure(QString::fromStdString(outcome.error().message));
                return;
            }
            sweep_ = std::make_shared<const DelaySweep>(std::move(outcome).value());
            showSweep();
            Q_EMIT sweepSettled();
        });
    return true;
}

void WhatIfPage::showSweepFailure(const QString& what) {
    showSweepError(tr("The sweep failed: %1").arg(what));
    Q_EMIT sweepSettled();
}

void WhatIfPage::showSweep() {
    progress_->hide();
    cancel_button_->hide();
    if (!sweep_) return;
    draw_delay_sweep(*chart_, *sweep_, palette());
    const DelaySweep& sweep = *sweep_;
    const double baseline_s = sweep.points.front().iteration_time_s;
    QString text = tr("<b>Delay on %1</b>: %2 delayed calls per iteration on the busiest simulated device; the "
                      "iteration takes %3 without the delay. ")
                       .arg(QString::fromStdString(delay_rule_words(swept_rule_)).toHtmlEscaped())
                       .arg(sweep.delayed_calls)
                       .arg(time_text(baseline_s));
    // The slopes are times per time: "ms per ms" reads at once where a bare 1.90 does not.
    text += tr("Below the knee the iteration grows %1 ms per ms of delay (the calls nothing hides). ")
                .arg(fixed_text(sweep.initial_slope, 2));
    const QString tolerance = time_text(hidden_delay_tolerance * baseline_s);
    if (sweep.hidden_beyond_range) {
        text += tr("Over the whole range the iteration stays within 1% (%1) of that slope: the knee, if any, lies "
                   "beyond %2.")
                    .arg(tolerance, time_text(sweep.points.back().delay_s));
    } else {
        text += tr("The overlap hides up to <b>%1</b> per call, within 1% (%2); past that knee the iteration grows "
                   "%3 ms per ms (the delayed calls on the critical path).")
                    .arg(time_text(sweep.hidden_delay_s), tolerance, fixed_text(sweep.slope, 2));
    }
    // Every delayed call on the critical path from the first delay on: nothing is hidden at all (the scenario's own
    // delays may have used the overlap up).
    if (delay_hides_nothing(sweep)) {
        text += tr(" Each of the %1 delayed calls adds its whole delay: the overlap hides none of it.")
                    .arg(sweep.delayed_calls);
    }
    summary_->setText(text);
    summary_->setEnabled(true);
    chart_->setOpacity(1.0);
}

void WhatIfPage::showSweepError(const QString& message) {
    progress_->hide();
    cancel_button_->hide();
    summary_->setText(QStringLiteral("<span style=\"color:#d0342c\">%1</span>").arg(message.toHtmlEscaped()));
}

void WhatIfPage::onScenarioChanged() {
    const WhatIfSpec& what_if = document_.scenario().what_if;
    const int rules = static_cast<int>(what_if.collective_delays.size() + what_if.slow_devices.size() +
                                       what_if.degraded_links.size());
    rules_status_->setText(rules == 0 ? tr("None: runs simulate the scenario as it is.")
                                      : tr("%1 in force in every run.")
                                            .arg(QString::fromStdString(count_phrase(rules, "rule"))));
    // A sweep of an older value stays, greyed, until the next one.
    if (sweep_ && swept_scenario_ != document_.validated()) {
        chart_->setOpacity(0.4);
        summary_->setEnabled(false);
    }
}

bool WhatIfPage::focusProblem(const std::string& path) {
    for (const WhatIfList list : what_if_lists) {
        const QModelIndex index = rulesModel(list)->indexOfPath(path);
        if (!index.isValid()) continue;
        QTableView* table = rulesTable(list);
        table->setCurrentIndex(index);
        table->scrollTo(index);
        table->setFocus();
        return true;
    }
    return false;
}

void WhatIfPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        if (sweep_) {
            draw_delay_sweep(*chart_, *sweep_, palette());
        } else {
            apply_chart_style(*chart_, palette());
        }
    }
    QWidget::changeEvent(event);
}


bool WhatIfPage::reveal(const Target& target) {
    // A what-if rule's values are edited in this tab's tables, not in the scenario form.
    return target.kind == TargetKind::field && target.name.rfind("what_if", 0) == 0 && focusProblem(target.name);
}

std::optional<TargetArea> WhatIfPage::areaOf(const Target& target) const {
    if (target.kind != TargetKind::field) return std::nullopt;
    for (const WhatIfList list : what_if_lists) {
        const QModelIndex index = rulesModel(list)->indexOfPath(target.name);
        if (!index.isValid()) continue;
        QTableView* table = rulesTable(list);
        return TargetArea{table->viewport(), table->visualRect(index)};
    }
    return std::nullopt;
}

}  // namespace parasight::gui

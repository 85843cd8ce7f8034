#include "summary/summary_bar.h"

#include "export/warning_text.h"
#include "style/activity_colors.h"
#include "style/quantity_text.h"

#include <QTextDocument>
#include <QVBoxLayout>

namespace parasight::gui {

namespace {


// Non-breaking spaces keep the items apart; the plain space after them is where a line may break.
const QString item_separator = QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; ");

QString unbroken(const QString& html) { return QStringLiteral("<span style=\"white-space:nowrap\">%1</span>").arg(html); }

}  // namespace

SummaryBar::SummaryBar(QWidget* parent) : QWidget(parent), label_(new QLabel(this)), warnings_(new QLabel(this)) {
    label_->setTextFormat(Qt::RichText);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setWordWrap(true);
    warnings_->setTextFormat(Qt::RichText);
    warnings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    warnings_->setWordWrap(true);
    warnings_->setObjectName(QStringLiteral("SummaryWarnings"));
    warnings_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(2);
    layout->addWidget(label_);
    layout->addWidget(warnings_);
    setAccessibleName(tr("Summary"));
    showMessage(tr("No result yet"));
}

void SummaryBar::showReport(const Report& report) {
    QString throughput = tr("<b>%1</b> samples/s").arg(fixed_text(report.samples_per_s, 2));
    if (report.tokens_per_s > 0.0) throughput += tr(" · <b>%1</b> tokens/s").arg(fixed_text(report.tokens_per_s, 0));
    QString memory = unbroken(tr("Peak memory <b>%1</b> of %2")
                                  .arg(bytes_text(report.peak_memory_bytes),
                                       bytes_text(report.memory_capacity_bytes)));
    if (report.out_of_memory) {
        memory = QStringLiteral("<span style=\"color:%1\">%2 — %3</span>")
                     .arg(over_capacity_color().name(), memory, tr("out of memory on NPU %1 (%2)")
                                      .arg(report.out_of_memory->npu)
                                      .arg(QString::fromStdString(report.out_of_memory->tensor).toHtmlEscaped()));
    }
    QStringList items{unbroken(tr("Iteration <b>%1</b>").arg(time_text(report.iteration_time_s))),
                      unbroken(throughput),
                      unbroken(tr("MFU <b>%1%</b> · HFU <b>%2%</b>")
                                   .arg(fixed_text(100.0 * report.mfu, 1), fixed_text(100.0 * report.hfu, 1))),
                      memory,
                      unbroken(tr("%1 events in %2").arg(QString::number(report.events), time_text(report.wall_s)))};
    const SteadyStateUse& steady = report.steady_state;
    const std::int64_t micro_batches = steady.simulated_micro_batches + steady.repeated_micro_batches;
    if (steady.used) {
        // The engine simulated a short run and repeated its steady period for the rest (docs/model.md §4). A
        // non-breaking hyphen keeps "micro-batches" whole when the bar wraps.
        items << unbroken(tr("%1 of %2 micro\u2011batches by repeating the steady period")
                              .arg(steady.repeated_micro_batches)
                              .arg(micro_batches));
        label_->setToolTip(tr("The engine simulated %1 micro-batches and repeated the schedule's steady period (%2, "
                              "%3) for the other %4: the same result at a fraction of the cost. "
                              "Simulation › Repeat the steady period turns it off.")
                               .arg(steady.simulated_micro_batches)
                               .arg(time_text(steady.period_s))
                               .arg(steady.period_micro_batches == 1
                                        ? tr("1 micro-batch")
                                        : tr("%1 micro-batches").arg(steady.period_micro_batches))
                               .arg(steady.repeated_micro_batches));
    } else {
        label_->setToolTip(tr("Every micro-batch simulated event by event: %1")
                               .arg(QString::fromStdString(steady.reason).toHtmlEscaped()));
    }
    label_->setMinimumHeight(0);
    numbers_shown_ = true;
    showItems(items);
    showWarnings(report);
    setStale(false);
}

void SummaryBar::showWarnings(const Report& report) {
    // Out of memory is the memory item's, in red; the others each a line of their own, as the report words them.
    warning_texts_.clear();
    for (const Warning& warning : report.warnings) {
        if (warning.code == WarningCode::out_of_memory) continue;
        warning_texts_ << QString::fromStdString(warning_text(warning));
    }
    QStringList lines;
    for (const QString& text : warning_texts_) lines << tr("\u26a0 Warning: %1").arg(text.toHtmlEscaped());
    warnings_->setText(lines.join(QStringLiteral("<br>")));
    warnings_->setVisible(!lines.isEmpty());
}

void SummaryBar::showMessage(const QString& message) {
    // A message (the scenario has problems, a failure) keeps the height the numbers had, so that the tabs below do
    // not move up under the pointer while one edits, and back down when the numbers return.
    if (numbers_shown_) label_->setMinimumHeight(label_->height());
    numbers_shown_ = false;
    label_->setToolTip(QString());
    showItems({message.toHtmlEscaped()});
    warning_texts_.clear();
    warnings_->clear();
    warnings_->hide();
    setStale(false);  // a message is about the scenario being edited
}

void SummaryBar::showItems(const QStringList& items) {
    label_->setText(items.join(item_separator));
}

void SummaryBar::setStale(bool stale) {
    // Older numbers stay readable but greyed while the new run is under way.
    label_->setEnabled(!stale);
    warnings_->setEnabled(!stale);
}

QStringList SummaryBar::warningTexts() const { return warning_texts_; }

QStringList SummaryBar::texts() const {
    QStringList texts;
    for (const QString& item : label_->text().split(item_separator)) {
        QTextDocument document;
        document.setHtml(item);
        texts << document.toPlainText();
    }
    return texts;
}

void SummaryBar::showRun(const RunState& state) {
    switch (state.kind) {
        case RunState::Kind::none: return;
        case RunState::Kind::result:
            showReport(state.result->simulation.report);
            setStale(state.stale);
            return;
        case RunState::Kind::failure:
        case RunState::Kind::not_simulated: showMessage(state.message); return;
    }
}

}  // namespace parasight::gui

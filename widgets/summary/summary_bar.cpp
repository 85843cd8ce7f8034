#include "summary/summary_bar.h"

#include "units/quantity.h"

#include <QHBoxLayout>
#include <QTextDocument>

namespace parasight::gui {

namespace {

QString number_text(double value, int decimals) { return QString::fromStdString(units::format_fixed(value, decimals)); }

QString readable(double value, units::Dimension dimension, bool binary = false) {
    return QString::fromStdString(units::format_readable(value, dimension, 4, binary));
}

QLabel* make_value_label(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setTextFormat(Qt::RichText);
    return label;
}

}  // namespace

SummaryBar::SummaryBar(QWidget* parent)
    : QWidget(parent),
      iteration_(make_value_label(this)),
      throughput_(make_value_label(this)),
      utilization_(make_value_label(this)),
      memory_(make_value_label(this)),
      simulation_(make_value_label(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(24);
    for (QLabel* label : {iteration_, throughput_, utilization_, memory_}) layout->addWidget(label);
    layout->addStretch(1);
    layout->addWidget(simulation_);
    setAccessibleName(tr("Summary"));
    showMessage(tr("No result yet"));
}

void SummaryBar::showReport(const Report& report) {
    using units::Dimension;
    iteration_->setText(tr("Iteration <b>%1</b>").arg(readable(report.iteration_time_s, Dimension::time)));
    QString throughput = tr("<b>%1</b> samples/s").arg(number_text(report.samples_per_s, 2));
    if (report.tokens_per_s > 0.0) throughput += tr(" · <b>%1</b> tokens/s").arg(number_text(report.tokens_per_s, 0));
    throughput_->setText(throughput);
    utilization_->setText(tr("MFU <b>%1%</b> · HFU <b>%2%</b>")
                              .arg(number_text(100.0 * report.mfu, 1), number_text(100.0 * report.hfu, 1)));
    const QString peak = tr("Peak memory <b>%1</b> of %2")
                             .arg(readable(report.peak_memory_bytes, Dimension::size, true),
                                  readable(report.memory_capacity_bytes, Dimension::size, true));
    if (report.out_of_memory) {
        memory_->setText(QStringLiteral("<span style=\"color:#d32f2f\">%1 — %2</span>")
                             .arg(peak, tr("out of memory on NPU %1 (%2)")
                                            .arg(report.out_of_memory->npu)
                                            .arg(QString::fromStdString(report.out_of_memory->tensor).toHtmlEscaped())));
    } else {
        memory_->setText(peak);
    }
    simulation_->setText(tr("%1 events in %2")
                             .arg(QString::number(report.events), readable(report.wall_s, Dimension::time)));
    setStale(false);
}

void SummaryBar::showMessage(const QString& message) {
    iteration_->setText(message.toHtmlEscaped());
    for (QLabel* label : {throughput_, utilization_, memory_, simulation_}) label->clear();
}

void SummaryBar::setStale(bool stale) {
    // Older numbers stay readable but greyed while the new run is under way.
    for (QLabel* label : {iteration_, throughput_, utilization_, memory_}) label->setEnabled(!stale);
}

QStringList SummaryBar::texts() const {
    QStringList texts;
    for (const QLabel* label : {iteration_, throughput_, utilization_, memory_, simulation_}) {
        QTextDocument document;
        document.setHtml(label->text());
        texts << document.toPlainText();
    }
    return texts;
}

}  // namespace parasight::gui

#include "topology/collective_probe_box.h"

#include "analysis/collective_probe.h"
#include "common/message_text.h"
#include "scenario/scenario_limits.h"
#include "units/quantity.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace parasight::gui {
namespace {

// A number and its unit kept on one line.
QString readable(double value, units::Dimension dimension, bool binary = false) {
    return QString::fromStdString(units::format_readable(value, dimension, 4, binary)).replace(u' ', QChar(0x00A0));
}

}  // namespace

CollectiveProbeBox::CollectiveProbeBox(QWidget* parent) : QGroupBox(tr("Time a collective"), parent) {
    setObjectName(QStringLiteral("CollectiveProbe"));
    auto* form = new QFormLayout(this);
    operation_ = new QComboBox(this);
    for (const std::string_view op : collective_probe_ops()) {
        operation_->addItem(QString::fromUtf8(op.data(), static_cast<qsizetype>(op.size())));
    }
    size_ = new QLineEdit(QStringLiteral("1 GiB"), this);
    size_->setToolTip(tr("One NPU's buffer, with a unit (the gathered output of an all-gather, the input of a "
                         "reduce-scatter)"));
    group_ = new QComboBox(this);
    result_ = new QLabel(this);
    result_->setObjectName(QStringLiteral("CollectiveProbeResult"));
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::PlainText);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Operation"), operation_);
    form->addRow(tr("Buffer"), size_);
    form->addRow(tr("Over"), group_);
    form->addRow(result_);
    connect(operation_, &QComboBox::currentIndexChanged, this, &CollectiveProbeBox::recompute);
    connect(group_, &QComboBox::currentIndexChanged, this, &CollectiveProbeBox::recompute);
    connect(size_, &QLineEdit::textChanged, this, &CollectiveProbeBox::recompute);
}

void CollectiveProbeBox::setScenario(std::shared_ptr<const Scenario> scenario) {
    scenario_ = std::move(scenario);
    refreshGroups();
    recompute();
}

QString CollectiveProbeBox::resultText() const { return result_->text(); }

void CollectiveProbeBox::refreshGroups() {
    // Each choice's data is the group as parasight-cli collective takes it; the one chosen stays when it still is one.
    const QString chosen = group_->currentData().toString();
    const QSignalBlocker quiet(group_);
    group_->clear();
    group_->addItem(tr("every NPU"), QStringLiteral("all"));
    for (const auto& [axis, name] : parallel_axis_names) {
        const int degree = scenario_->parallelism.degree(axis);
        if (degree > 1) {
            group_->addItem(tr("a %1 group (%2 NPUs)").arg(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())))
                                .arg(degree),
                            QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
        }
    }
    const auto& topology = scenario_->cluster.topology;
    if (topology.size() > 1) {
        for (std::size_t d = 0; d < topology.size(); ++d) {
            group_->addItem(tr("dimension %1 (%2 NPUs)").arg(d).arg(topology[d].size), QString::number(d));
        }
    }
    const int index = group_->findData(chosen);
    group_->setCurrentIndex(index >= 0 ? index : 0);
}

void CollectiveProbeBox::recompute() {
    const auto size = units::parse_quantity(size_->text().toStdString(), units::Dimension::size);
    if (!size) {
        result_->setText(tr("Buffer: %1").arg(QString::fromStdString(size.error())));
        return;
    }
    if (const auto problem = quantity_range_problem("the buffer", *size, size_->text().toStdString(),
                                                    units::Dimension::size, limits::collective_buffer)) {
        result_->setText(QString::fromStdString(*problem));
        return;
    }
    const auto probe = probe_collective(*scenario_, operation_->currentText().toStdString(), *size,
                                        group_->currentData().toString().toStdString(),
                                        scenario_->simulation.collective_chunks);
    if (!probe) {
        result_->setText(QString::fromStdString(probe.error()));
        return;
    }
    if (probe->ranks <= 1) {
        result_->setText(tr("A group of one NPU exchanges nothing."));
        return;
    }
    QString text = tr("%1 over %2 NPUs: %3\nbusbw %4 · algbw %5")
                       .arg(readable(probe->size_bytes, units::Dimension::size, true))
                       .arg(probe->ranks)
                       .arg(readable(probe->time_s, units::Dimension::time),
                            readable(probe->busbw_Bps, units::Dimension::bandwidth),
                            readable(probe->algbw_Bps, units::Dimension::bandwidth));
    for (const CollectiveProbeDimension& dimension : probe->per_dim) {
        text += tr("\ndimension %1: %2 of %3, %4 sent, %5 alone")
                    .arg(dimension.dimension)
                    .arg(QString::fromStdString(dimension.algorithm))
                    .arg(dimension.members)
                    .arg(readable(dimension.bytes_sent, units::Dimension::size, true),
                         readable(dimension.time_s, units::Dimension::time));
    }
    result_->setText(text);
}

}  // namespace parasight::gui

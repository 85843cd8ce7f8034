#include "timeline/event_text.h"

#include "style/quantity_text.h"

#include <QCoreApplication>
#include <QStringList>

namespace parasight::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TimelineView", text); }

QString stream_description(Stream stream) {
    switch (stream) {
    case Stream::compute: return tr("compute stream");
    case Stream::feature_comm: return tr("feature communication stream");
    case Stream::gradient_comm: return tr("gradient communication stream");
    case Stream::memory_in: return tr("memory stream in (loads)");
    case Stream::memory_out: return tr("memory stream out (stores)");
    }
    return {};
}

QString flops_text(double flops) {
    QString text = quantity_text(flops, units::Dimension::flop_rate);  // "1.2 TFLOP/s" without its "/s"
    if (text.endsWith(QStringLiteral("/s"))) text.chop(2);
    return text;
}

}  // namespace

QString task_kind_label(TaskKind kind) {
    switch (kind) {
    case TaskKind::forward: return tr("Forward");
    case TaskKind::backward: return tr("Backward");
    case TaskKind::weight_gradient: return tr("Weight gradients (W)");
    case TaskKind::recompute: return tr("Recompute");
    case TaskKind::optimizer: return tr("Optimizer");
    case TaskKind::tp_comm: return QStringLiteral("TP");
    case TaskKind::cp_comm: return QStringLiteral("CP");
    case TaskKind::ep_comm: return QStringLiteral("EP");
    case TaskKind::pp_comm: return QStringLiteral("PP");
    case TaskKind::dp_comm: return QStringLiteral("DP");
    case TaskKind::injected_delay: return tr("Injected delay");
    case TaskKind::memory_load: return tr("Memory load");
    case TaskKind::memory_store: return tr("Memory store");
    case TaskKind::host_optimizer: return tr("Optimizer on the host");
    }
    return {};
}

QString event_name(const Timeline& timeline, EventId id) {
    const TimelineEvent event = timeline.event(id);
    QString name = QString::fromUtf8(event.operation.data(), static_cast<qsizetype>(event.operation.size()));
    if (event.micro_batch >= 0) {
        name += tr(" · micro-batch %1").arg(event.micro_batch);
    }
    return tr("%1 on NPU %2")
        .arg(name)
        .arg(timeline.devices().at(event.device).npu);
}

QString box_description(const Timeline& timeline, const LaneBox& box, double min_width_px) {
    if (box.count > 1) {
        return tr("<b>%1 events</b>, each narrower than %2 pixels here<br>%3 to %4 — zoom in to see them apart")
            .arg(box.count)
            .arg(min_width_px, 0, 'f', 0)
            .arg(time_text(box.start_s), time_text(box.end_s));
    }
    const TimelineEvent event = timeline.event(box.representative);
    QStringList where;
    if (event.layer >= 0) where << tr("layer %1").arg(event.layer);
    if (event.micro_batch >= 0) where << tr("micro-batch %1").arg(event.micro_batch);
    where << stream_description(event.stream);
    const double duration_s = event.end_s - event.start_s;
    QStringList lines;
    const QString operation = QString::fromUtf8(event.operation.data(), static_cast<qsizetype>(event.operation.size()));
    lines << QStringLiteral("<b>%1</b>").arg(operation.toHtmlEscaped());
    lines << where.join(QStringLiteral(" · "));
    lines << tr("start %1 · duration %2").arg(time_text(event.start_s), time_text(duration_s));
    if (event.bytes > 0.0) {
        // A transfer's bytes are its buffer: buffer ÷ duration is the algorithm bandwidth (nccl-tests' algbw), which
        // for a collective differs from what each link carries; the optimizer's bytes are memory it streamed.
        const bool transfer = is_communication(event.kind);
        QString line = (transfer ? tr("%1 buffer") : tr("%1 streamed")).arg(bytes_text(event.bytes));
        if (duration_s > 0.0) {
            const QString rate = quantity_text(event.bytes / duration_s, units::Dimension::bandwidth);
            line += (transfer ? tr(" · %1 algorithm bandwidth (buffer ÷ duration)") : tr(" · %1 achieved")).arg(rate);
        }
        lines << line;
    }
    if (event.flops > 0.0) {
        QString line = tr("%1 FLOPs").arg(flops_text(event.flops));
        if (duration_s > 0.0) {
            const QString rate = quantity_text(event.flops / duration_s, units::Dimension::flop_rate);
            line += tr(" · %1 achieved").arg(rate);
        }
        lines << line;
    }
    if (event.memory_bound_share > 0.0 && duration_s > 0.0) {
        lines << tr("%1 of it waiting on device memory (exposed local memory, %2%)")
                     .arg(time_text(duration_s * event.memory_bound_share))
                     .arg(100.0 * event.memory_bound_share, 0, 'f', 1);
    }
    return lines.join(QStringLiteral("<br>"));
}

}  // namespace parasight::gui

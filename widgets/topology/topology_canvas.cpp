#include "topology/topology_canvas.h"

#include "style/activity_colors.h"
#include "style/quantity_text.h"
#include "topology/dimension_palette_button.h"

#include <QCoreApplication>
#include <QGraphicsEllipseItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace parasight::gui {

namespace {

constexpr double wheel_zoom_per_notch = 1.2;
constexpr std::size_t max_antialiased_links = 1000;
constexpr int npu_data_key = 0;        // QGraphicsItem::data: the NPU id of an NPU's circle
constexpr int dimension_data_key = 1;  // the dimension of a frame

// "Dim 1 · ring of 4 · 25 GB/s · 5 µs"; folded, "▸ Dim 1 · switch ×128, 1 shown · 25 GB/s · 5 µs".
QString block_label(const Dimension& dimension, const DrawnBlock& block) {
    const QString members =
        block.shown < block.members
            ? QCoreApplication::translate("TopologyCanvas", "%1 ×%2, 1 shown").arg(dimension_kind_text(dimension.kind)).arg(block.members)
            : QCoreApplication::translate("TopologyCanvas", "%1 of %2").arg(dimension_kind_text(dimension.kind)).arg(block.members);
    const QString text = QCoreApplication::translate("TopologyCanvas", "Dim %1 · %2 · %3 · %4")
                             .arg(block.dimension)
                             .arg(members, quantity_text(dimension.bandwidth_Bps, units::Dimension::bandwidth),
                                  quantity_text(dimension.latency_s, units::Dimension::time));
    return block.shown < block.members ? QStringLiteral("▸ ") + text : text;
}

}  // namespace

QString dimension_kind_text(DimensionKind kind) {
    switch (kind) {
    case DimensionKind::ring: return QCoreApplication::translate("TopologyCanvas", "ring");
    case DimensionKind::fully_connected: return QCoreApplication::translate("TopologyCanvas", "fully connected");
    case DimensionKind::switch_fabric: return QCoreApplication::translate("TopologyCanvas", "switch");
    }
    return {};
}

TopologyCanvas::TopologyCanvas(QWidget* parent) : QGraphicsView(parent) {
    setObjectName(QStringLiteral("TopologyCanvas"));
    setScene(new QGraphicsScene(this));
    // The picture is rebuilt whole on every change and its long crossing lines defeat a BSP index: none is kept.
    scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setAcceptDrops(true);
}

void TopologyCanvas::showTopology(const std::vector<Dimension>& dimensions, const MemorySystemSpec& memory_system) {
    memory_system_ = memory_system;
    const bool same_shape =
        dimensions.size() == dimensions_.size() &&
        std::equal(dimensions.begin(), dimensions.end(), dimensions_.begin(),
                   [](const Dimension& a, const Dimension& b) { return a.size == b.size && a.kind == b.kind; });
    const bool first = dimensions_.empty();
    if (!same_shape) unfolded_ = default_unfolded(dimensions);
    if (dimensions != dimensions_) traffic_.reset();  // a run of the old topology says nothing of the new one
    dimensions_ = dimensions;
    if (selected_dimension_ && *selected_dimension_ >= dimensions_.size()) selected_dimension_.reset();
    rebuild();
    if (first || !same_shape) fit();
}

bool TopologyCanvas::setUnfolded(std::size_t dimension, bool unfolded) {
    if (dimension >= unfolded_.size()) return false;
    std::vector<bool> next = unfolded_;
    next[dimension] = unfolded;
    if (!within_drawing_limits(dimensions_, next)) return false;
    if (next == unfolded_) return true;
    unfolded_ = std::move(next);
    rebuild();
    fit();
    Q_EMIT foldToggled(static_cast<int>(dimension), unfolded);
    return true;
}

void TopologyCanvas::setSelectedDimension(std::optional<std::size_t> dimension) {
    if (selected_dimension_ == dimension) return;
    selected_dimension_ = dimension;
    rebuild();
}

void TopologyCanvas::setTraffic(std::optional<TrafficReport> traffic) {
    if (traffic && traffic->dimensions.size() != dimensions_.size()) traffic.reset();  // another topology's
    traffic_ = std::move(traffic);
    rebuild();
}

QColor TopologyCanvas::linkColor(std::size_t dimension) const {
    // Idle: halfway between the text and the background, so that it reads on light and dark palettes alike.
    const QColor text = palette().color(QPalette::Text);
    const QColor base = palette().color(QPalette::Base);
    const QColor idle = QColor::fromRgbF((text.redF() + base.redF()) / 2.0F, (text.greenF() + base.greenF()) / 2.0F,
                                         (text.blueF() + base.blueF()) / 2.0F);
    if (!traffic_ || dimension >= traffic_->dimensions.size()) return idle;
    const QColor busy = over_capacity_color();
    const double f = std::clamp(traffic_->dimensions[dimension].busy_fraction, 0.0, 1.0);
    return QColor::fromRgbF(static_cast<float>(idle.redF() + (busy.redF() - idle.redF()) * f),
                            static_cast<float>(idle.greenF() + (busy.greenF() - idle.greenF()) * f),
                            static_cast<float>(idle.blueF() + (busy.blueF() - idle.blueF()) * f));
}

void TopologyCanvas::setGroups(std::optional<NpuGroups> groups) {
    groups_ = std::move(groups);
    recolour();
}

QColor TopologyCanvas::npuFill(std::int64_t npu) const {
    const auto item = npu_items_.find(npu);
    return item == npu_items_.end() ? QColor() : item->second->brush().color();
}

void TopologyCanvas::rebuild() {
    QGraphicsScene& canvas = *scene();
    canvas.clear();
    npu_items_.clear();
    QFont label_font = font();
    label_font.setPointSizeF(label_font.pointSizeF() * 0.85);
    const QFontMetricsF label_metrics(label_font);
    // Each frame as wide as its label: every block of a dimension has the same one.
    std::vector<double> label_widths;
    for (std::size_t d = 0; d < dimensions_.size() && d < unfolded_.size(); ++d) {
        const int members = std::max(1, dimensions_[d].size);
        const DrawnBlock block{d, 0, {}, members, unfolded_[d] ? members : 1};
        label_widths.push_back(label_metrics.horizontalAdvance(block_label(dimensions_[d], block)));
    }
    drawing_ = draw_topology(dimensions_, unfolded_, label_widths);
    if (drawing_.npus.empty()) return;  // not drawable: the page says why
    const QPalette colours = palette();
    const QColor text = colours.color(QPalette::Text);
    const QColor highlight = colours.color(QPalette::Highlight);
    QColor frame_fill = colours.color(QPalette::AlternateBase);

    // Line widths by bandwidth, 1 to 5 px on a log scale across the dimensions.
    double low_Bps = 0.0;
    double high_Bps = 0.0;
    for (const Dimension& dimension : dimensions_) {
        if (dimension.bandwidth_Bps <= 0.0) continue;
        low_Bps = low_Bps == 0.0 ? dimension.bandwidth_Bps : std::min(low_Bps, dimension.bandwidth_Bps);
        high_Bps = std::max(high_Bps, dimension.bandwidth_Bps);
    }
    const auto width_of = [&](std::size_t d) {
        const double bandwidth = dimensions_[d].bandwidth_Bps;
        if (!(bandwidth > 0.0) || high_Bps <= low_Bps) return 2.5;
        return 1.0 + 4.0 * std::log(bandwidth / low_Bps) / std::log(high_Bps / low_Bps);
    };

    // Outer frames first, so that inner ones are drawn over them.
    std::vector<const DrawnBlock*> blocks;
    for (const DrawnBlock& block : drawing_.blocks) blocks.push_back(&block);
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const DrawnBlock* a, const DrawnBlock* b) { return a->dimension > b->dimension; });
    for (const DrawnBlock* block : blocks) {
        const bool chosen = selected_dimension_ == block->dimension;
        auto* frame = canvas.addRect(block->rect, QPen(chosen ? highlight : colours.color(QPalette::Mid), chosen ? 2.0 : 1.0),
                                     frame_fill);
        frame->setData(dimension_data_key, static_cast<qulonglong>(block->dimension));
        frame->setToolTip(tr("Dimension %1: click to choose it, double-click to %2")
                              .arg(block->dimension)
                              .arg(block->shown < block->members ? tr("draw every member") : tr("draw one member")));
        auto* label = canvas.addSimpleText(block_label(dimensions_[block->dimension], *block), label_font);
        label->setBrush(chosen ? highlight : text);
        label->setPos(block->rect.topLeft() + QPointF(label_inset, 2.0));
        label->setData(dimension_data_key, static_cast<qulonglong>(block->dimension));
        // Frames are made as wide as their labels; should one still be narrower, it shows what fits (the tooltip says
        // all).
        const double room = block->rect.width() - 2.0 * label_inset;
        if (label->boundingRect().width() > room && room > 0.0) {
            label->setText(QFontMetricsF(label_font).elidedText(label->text(), Qt::ElideRight, room));
        }
        label->setToolTip(block_label(dimensions_[block->dimension], *block));
    }
    for (const DrawnLink& link : drawing_.links) {
        const bool chosen = selected_dimension_ == link.dimension;
        // Widths on the screen, whatever the zoom (a cosmetic pen is also far cheaper to stroke than a scaled one).
        QPen pen(chosen ? highlight : linkColor(link.dimension), width_of(link.dimension));
        pen.setCosmetic(true);
        pen.setCapStyle(Qt::FlatCap);
        auto* line = canvas.addLine(QLineF(link.from, link.to), pen);
        QString tip = link.links == 1 ? tr("Dimension %1: one link").arg(link.dimension)
                                      : tr("Dimension %1: %2 links, one per NPU of each block")
                                            .arg(link.dimension)
                                            .arg(link.links);
        if (traffic_) {
            const DimensionTraffic& carried = traffic_->dimensions[link.dimension];
            tip += tr("\nIn the iteration each NPU sent %1 on this dimension, which was busy %2 of the time")
                       .arg(bytes_text(carried.bytes_per_npu), percent_text(100.0 * carried.busy_fraction));
        }
        line->setToolTip(tip);
    }
    for (const DrawnSwitch& box : drawing_.switches) {
        const bool chosen = selected_dimension_ == box.dimension;
        auto* item = canvas.addRect(box.rect, QPen(chosen ? highlight : text, 1.5), colours.color(QPalette::Button));
        item->setData(dimension_data_key, static_cast<qulonglong>(box.dimension));
        item->setToolTip(tr("Dimension %1's switch: %2 ports").arg(box.dimension).arg(dimensions_[box.dimension].size));
        auto* name = canvas.addSimpleText(tr("switch"), label_font);
        name->setBrush(colours.color(QPalette::ButtonText));
        name->setPos(box.rect.center() - name->boundingRect().center());
    }
    QFont number_font = font();
    number_font.setPointSizeF(6.5);
    for (const DrawnNpu& npu : drawing_.npus) {
        const QRectF circle(npu.center - QPointF(npu_radius, npu_radius), QSizeF(2 * npu_radius, 2 * npu_radius));
        auto* item = canvas.addEllipse(circle, QPen(text, 1.2), colours.color(QPalette::Base));
        item->setData(npu_data_key, static_cast<qlonglong>(npu.npu));
        item->setToolTip(tr("NPU %1: click to colour its parallel groups").arg(npu.npu));
        auto* number = new QGraphicsSimpleTextItem(QString::number(npu.npu), item);
        number->setFont(number_font);
        const QRectF bounds = number->boundingRect();
        const double fit = std::min(1.0, (2 * npu_radius - 3.0) / bounds.width());
        number->setScale(fit);
        number->setPos(npu.center - QPointF(bounds.width() * fit / 2.0, bounds.height() * fit / 2.0));
        npu_items_[npu.npu] = item;
    }
    drawMemorySystem(label_font);
    canvas.setSceneRect(canvas.itemsBoundingRect().united(drawing_.bounds).adjusted(-20, -20, 20, 20));
    // Thousands of crossing lines (a large fully connected dimension) paint an order of magnitude faster without
    // antialiasing, and look the same: a mesh.
    setRenderHint(QPainter::Antialiasing, drawing_.links.size() <= max_antialiased_links);
    recolour();
}

QStringList TopologyCanvas::memoryTierTexts() const { return memory_tier_texts_; }

void TopologyCanvas::drawMemorySystem(const QFont& font) {
    memory_tier_texts_.clear();
    const MemorySystemSpec& memory = memory_system_;
    if (!memory.host && !memory.nvme && !memory.pool) return;
    QGraphicsScene& canvas = *scene();
    const QPalette colours = palette();
    const auto bandwidth = [](double Bps) { return quantity_text(Bps, units::Dimension::bandwidth); };
    // Capacities as a scenario writes them ("1 TiB", "15 TB"), not rounded to another family of units.
    const auto size = [](double bytes) {
        return QString::fromStdString(units::format_quantity(bytes, units::Dimension::size));
    };
    // Each tier a box of two lines, side by side under the topology; the pool's groups under its switches.
    struct TierBox {
        QString title;
        QString detail;
        QString tip;
        int row = 0;
    };
    std::vector<TierBox> boxes;
    if (memory.host) {
        QString detail = tr("%1 a GPU's link").arg(bandwidth(memory.host->link_bandwidth_Bps));
        if (memory.host->memory_bandwidth_Bps > 0.0) {
            detail += tr(" · %1 CPU memory").arg(bandwidth(memory.host->memory_bandwidth_Bps));
        }
        boxes.push_back({tr("Host memory · %1 a node").arg(size(memory.host->capacity_bytes)), detail,
                         tr("Each node's CPU memory, which each GPU reaches over its own link (PCIe or CXL), and the "
                            "bandwidth of the memory itself, which an optimizer step on the host streams at"),
                         0});
    }
    if (memory.nvme) {
        boxes.push_back({tr("NVMe · %1 a node").arg(size(memory.nvme->capacity_bytes)),
                         tr("%1 a node, shared by its GPUs").arg(bandwidth(memory.nvme->bandwidth_Bps)),
                         tr("Each node's NVMe drives, their bandwidth shared by the node's GPUs"), 0});
    }
    if (memory.pool) {
        const MemoryPool& pool = *memory.pool;
        boxes.push_back({pool.in_switch_collectives
                             ? tr("Out-node switches ×%1 · in-switch collectives").arg(pool.out_node_switches)
                             : tr("Out-node switches ×%1").arg(pool.out_node_switches),
                         tr("in-node fabric %1 a GPU · %2 a node link")
                             .arg(bandwidth(pool.in_node_bandwidth_Bps), bandwidth(pool.node_link_bandwidth_Bps)),
                         pool.in_switch_collectives
                             ? tr("The memory pool's switches, linked to every node; they gather parameters while "
                                  "they are loaded and reduce-scatter gradients while they are stored")
                             : tr("The memory pool's switches, linked to every node and every remote memory group"),
                         0});
        boxes.push_back({tr("Remote memory groups ×%1").arg(pool.remote_groups),
                         tr("%1 · %2 each").arg(bandwidth(pool.remote_group_bandwidth_Bps), size(pool.group_capacity_bytes)),
                         tr("The pool's memory, every group linked to every out-node switch; chunks of %1 move "
                            "through the three stages as a pipeline")
                             .arg(size(pool.chunk_bytes)),
                         1});
    }
    const QFontMetricsF metrics(font);
    const double line_height = metrics.height();
    const double box_height = 2.0 * line_height + 10.0;
    const double gap = 24.0;
    const QPointF anchor(drawing_.bounds.center().x(), drawing_.bounds.bottom());
    const double top = drawing_.bounds.bottom() + 36.0;
    const auto width_of = [&](const TierBox& box) {
        return std::max(metrics.horizontalAdvance(box.title), metrics.horizontalAdvance(box.detail)) + 16.0;
    };
    // The first row centred under the topology.
    double row_width = -gap;
    for (const TierBox& box : boxes) row_width += box.row == 0 ? width_of(box) + gap : 0.0;
    double x = drawing_.bounds.center().x() - row_width / 2.0;
    QRectF switches;
    for (const TierBox& box : boxes) {
        const double width = width_of(box);
        QRectF rect;
        if (box.row == 0) {
            rect = QRectF(x, top, width, box_height);
            x += width + gap;
            switches = rect;
        } else {
            rect = QRectF(switches.left(), switches.bottom() + 28.0, width, box_height);
        }
        QPen dashed(colours.color(QPalette::Mid), 1.2, Qt::DashLine);
        dashed.setCosmetic(true);
        const QPointF from = box.row == 0 ? anchor : QPointF(switches.center().x(), switches.bottom());
        auto* line = canvas.addLine(QLineF(from, QPointF(rect.center().x(), rect.top())), dashed);
        line->setToolTip(box.tip);
        auto* frame = canvas.addRect(rect, QPen(colours.color(QPalette::Text), 1.2), colours.color(QPalette::Button));
        frame->setToolTip(box.tip);
        auto* title = canvas.addSimpleText(box.title, font);
        title->setBrush(colours.color(QPalette::ButtonText));
        title->setPos(rect.topLeft() + QPointF(8.0, 5.0));
        auto* detail = canvas.addSimpleText(box.detail, font);
        detail->setBrush(colours.color(QPalette::ButtonText));
        detail->setPos(rect.topLeft() + QPointF(8.0, 5.0 + line_height));
        memory_tier_texts_ << box.title + QStringLiteral(" — ") + box.detail;
    }
}

void TopologyCanvas::recolour() {
    const QPalette colours = palette();
    for (auto& [npu, item] : npu_items_) {
        QColor fill = colours.color(QPalette::Base);
        QPen pen(colours.color(QPalette::Text), 1.2);
        if (groups_) {
            if (npu == groups_->npu) {
                fill = colours.color(QPalette::Highlight);
                pen = QPen(colours.color(QPalette::Text), 3.0);
            } else if (const auto member = groups_->members.find(npu); member != groups_->members.end()) {
                fill = parallel_axis_color(member->second);
            }
        }
        item->setBrush(fill);
        item->setPen(pen);
        // The number stays readable on the fill.
        if (auto* number = dynamic_cast<QGraphicsSimpleTextItem*>(item->childItems().value(0))) {
            number->setBrush(text_color_on(fill));
        }
    }
}

void TopologyCanvas::fit() {
    fitted_ = true;
    if (scene()->items().isEmpty()) return;
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    // Never larger than life: a node of 8 stays its own size on a big screen.
    if (transform().m11() > 1.5) setTransform(QTransform::fromScale(1.5, 1.5));
}

QSize TopologyCanvas::pictureSize() const { return scene()->sceneRect().size().toSize(); }

void TopologyCanvas::paintPicture(QPainter& painter) {
    const QRectF source = scene()->sceneRect();
    scene()->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
}

std::optional<std::int64_t> TopologyCanvas::npuAt(const QPoint& point) const {
    for (QGraphicsItem* item : items(point)) {
        for (QGraphicsItem* at = item; at != nullptr; at = at->parentItem()) {
            if (at->data(npu_data_key).isValid()) return at->data(npu_data_key).toLongLong();
        }
    }
    return std::nullopt;
}

std::optional<std::size_t> TopologyCanvas::dimensionAt(const QPoint& point) const {
    for (QGraphicsItem* item : items(point)) {  // topmost first: the innermost frame
        if (item->data(dimension_data_key).isValid()) return item->data(dimension_data_key).toULongLong();
    }
    return std::nullopt;
}

void TopologyCanvas::wheelEvent(QWheelEvent* event) {
    const double notches = event->angleDelta().y() / 120.0;
    const double factor = std::pow(wheel_zoom_per_notch, notches);
    scale(factor, factor);  // about the pointer (AnchorUnderMouse)
    fitted_ = false;
    event->accept();
}

void TopologyCanvas::mousePressEvent(QMouseEvent* event) {
    press_at_ = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void TopologyCanvas::mouseReleaseEvent(QMouseEvent* event) {
    QGraphicsView::mouseReleaseEvent(event);
    const QPoint point = event->position().toPoint();
    if (event->button() != Qt::LeftButton || (point - press_at_).manhattanLength() > 3) return;  // a drag pans
    if (const auto npu = npuAt(point)) {
        Q_EMIT npuClicked(*npu);
    } else if (const auto dimension = dimensionAt(point)) {
        Q_EMIT dimensionClicked(static_cast<int>(*dimension));
    }
}

void TopologyCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPoint point = event->position().toPoint();
    if (npuAt(point)) return;
    if (const auto dimension = dimensionAt(point)) setUnfolded(*dimension, !unfolded_[*dimension]);
}

void TopologyCanvas::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (fitted_) fit();
}

void TopologyCanvas::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasFormat(QString::fromLatin1(dimension_mime_type))) event->acceptProposedAction();
}

void TopologyCanvas::dragMoveEvent(QDragMoveEvent* event) {
    if (event->mimeData()->hasFormat(QString::fromLatin1(dimension_mime_type))) event->acceptProposedAction();
}

void TopologyCanvas::dropEvent(QDropEvent* event) {
    const QByteArray name = event->mimeData()->data(QString::fromLatin1(dimension_mime_type));
    const auto kind = value_of(std::string_view(name.constData(), static_cast<std::size_t>(name.size())),
                               dimension_kind_names);
    if (!kind) return;
    event->acceptProposedAction();
    Q_EMIT dimensionDropped(*kind);
}

void TopologyCanvas::changeEvent(QEvent* event) {
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) rebuild();
}


std::optional<QRect> TopologyCanvas::npuRect(std::int64_t npu) const {
    const auto item = npu_items_.find(npu);
    if (item == npu_items_.end()) return std::nullopt;
    return mapFromScene(item->second->sceneBoundingRect()).boundingRect();
}

}  // namespace parasight::gui

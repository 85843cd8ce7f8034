#pragma once
// The Topology tab's canvas: a QGraphicsView of topology_drawing.h's picture — NPUs as numbered circles, each
// dimension's instances framed and labelled with kind, size, bandwidth and latency, links as lines as wide as their
// dimension's bandwidth (log scale), switches as boxes with a line per port. The wheel zooms at the pointer, dragging
// pans, fit() shows it all. A click on an NPU says so (npuClicked); a click on a frame chooses its dimension
// (dimensionClicked), which is then drawn highlighted; a double-click on a frame folds or unfolds its dimension.
// NPUs can be coloured by the parallel group they share with a chosen NPU (setGroups).

#include "topology/topology_drawing.h"
#include "analysis/dimension_traffic.h"
#include "scenario/memory_system.h"
#include "topology/parallel_layout.h"

#include <QGraphicsView>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

class QGraphicsEllipseItem;

namespace parasight::gui {

// "ring", "fully connected", "switch", as the views name a dimension's kind.
[[nodiscard]] QString dimension_kind_text(DimensionKind kind);

// A chosen NPU and, for every other NPU in one of its groups, which axis that group is on.
struct NpuGroups {
    std::int64_t npu = 0;
    std::map<std::int64_t, ParallelAxis> members;
};

class TopologyCanvas : public QGraphicsView {
    Q_OBJECT

public:
    explicit TopologyCanvas(QWidget* parent = nullptr);
    // Where NPU `npu` is drawn in the viewport, if it is.
    [[nodiscard]] std::optional<QRect> npuRect(std::int64_t npu) const;


    // Draws `dimensions`, and under them the memory beyond the devices a cluster's memory_system describes (host
    // memory and NVMe per node, the pool's out-node switches and remote memory groups), joined by dashed lines; the
    // folds are kept when only bandwidths or latencies changed, else start as default_unfolded().
    void showTopology(const std::vector<Dimension>& dimensions, const MemorySystemSpec& memory_system = {});
    // The texts of the memory-system boxes drawn, in order (for tests).
    [[nodiscard]] QStringList memoryTierTexts() const;
    [[nodiscard]] const std::vector<bool>& unfolded() const noexcept { return unfolded_; }
    // Unfolds or folds a dimension; false (and nothing changes) when unfolding would draw more than max_drawn_npus
    // NPUs or max_drawn_lines lines.
    bool setUnfolded(std::size_t dimension, bool unfolded);
    void setSelectedDimension(std::optional<std::size_t> dimension);
    void setGroups(std::optional<NpuGroups> groups);
    // After a run of this topology: links shaded from grey (idle) to red (busy the whole iteration) by how busy their
    // dimension was, their tooltips saying the bytes each NPU sent there; none: plain.
    void setTraffic(std::optional<TrafficReport> traffic);
    [[nodiscard]] const std::optional<TrafficReport>& traffic() const noexcept { return traffic_; }
    // The colour a dimension's links are drawn in.
    [[nodiscard]] QColor linkColor(std::size_t dimension) const;
    [[nodiscard]] const TopologyDrawing& drawing() const noexcept { return drawing_; }
    // The colour NPU `npu` is filled with (for tests and the legend's checks); invalid when it is not drawn.
    [[nodiscard]] QColor npuFill(std::int64_t npu) const;

    // Shows the whole picture, and keeps doing so as the view resizes until the user zooms.
    void fit();
    // The whole picture at its own size, as exports draw it.
    void paintPicture(QPainter& painter);
    [[nodiscard]] QSize pictureSize() const;

Q_SIGNALS:
    void npuClicked(qint64 npu);
    void dimensionClicked(int dimension);
    void foldToggled(int dimension, bool unfolded);
    // A palette button (dimension_palette_button.h) was dropped on the canvas.
    void dimensionDropped(parasight::DimensionKind kind);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void rebuild();
    void drawMemorySystem(const QFont& font);
    void recolour();
    // The NPU or the frame under a point of the viewport.
    [[nodiscard]] std::optional<std::int64_t> npuAt(const QPoint& point) const;
    [[nodiscard]] std::optional<std::size_t> dimensionAt(const QPoint& point) const;

    std::vector<Dimension> dimensions_;
    MemorySystemSpec memory_system_;
    QStringList memory_tier_texts_;
    std::vector<bool> unfolded_;
    TopologyDrawing drawing_;
    std::optional<std::size_t> selected_dimension_;
    std::optional<NpuGroups> groups_;
    std::optional<TrafficReport> traffic_;
    std::map<std::int64_t, QGraphicsEllipseItem*> npu_items_;
    QPoint press_at_;
    bool fitted_ = true;  // the picture follows the view's size until the user zooms
};

}  // namespace parasight::gui

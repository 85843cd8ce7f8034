#include "topology/topology_drawing.h"

#include "scenario/scenario_limits.h"

#include <QLineF>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace parasight::gui {

namespace {

constexpr double block_padding = 12.0;
constexpr double block_header = 18.0;  // room for the block's label above its members
constexpr double switch_width = 48.0;
constexpr double switch_height = 24.0;

// A drawn block or NPU in its own coordinates, (0, 0) its top left.
struct Piece {
    TopologyDrawing items;
    QSizeF size;
    bool is_npu = false;
};

void translate(TopologyDrawing& items, const QPointF& by) {
    for (DrawnNpu& npu : items.npus) npu.center += by;
    for (DrawnBlock& block : items.blocks) block.rect.translate(by);
    for (DrawnSwitch& box : items.switches) box.rect.translate(by);
    for (DrawnLink& link : items.links) {
        link.from += by;
        link.to += by;
    }
}

void append(TopologyDrawing& into, TopologyDrawing&& items) {
    into.npus.insert(into.npus.end(), items.npus.begin(), items.npus.end());
    into.blocks.insert(into.blocks.end(), items.blocks.begin(), items.blocks.end());
    into.switches.insert(into.switches.end(), items.switches.begin(), items.switches.end());
    into.links.insert(into.links.end(), items.links.begin(), items.links.end());
}

// Where a line from a member's centre towards `toward` leaves its outline (a circle for an NPU, else its frame).
QPointF outline_point(const QPointF& center, const QSizeF& size, bool is_npu, const QPointF& toward) {
    const QPointF direction = toward - center;
    const double length = std::hypot(direction.x(), direction.y());
    if (length <= 0.0) return center;
    if (is_npu) return center + direction * (npu_radius / length);
    const double scale_x = direction.x() == 0.0 ? 1e300 : (size.width() / 2.0) / std::abs(direction.x());
    const double scale_y = direction.y() == 0.0 ? 1e300 : (size.height() / 2.0) / std::abs(direction.y());
    return center + direction * std::min({scale_x, scale_y, 1.0});
}

Piece draw_npu(std::int64_t npu) {
    Piece piece;
    piece.is_npu = true;
    piece.size = QSizeF(2.0 * npu_radius, 2.0 * npu_radius);
    piece.items.npus.push_back(DrawnNpu{npu, QPointF(npu_radius, npu_radius)});
    return piece;
}

Piece draw_block(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded,
                 const std::vector<double>& label_widths, const std::vector<std::int64_t>& place_values, int dimension,
                 std::int64_t first_npu) {
    if (dimension < 0) return draw_npu(first_npu);
    const auto d = static_cast<std::size_t>(dimension);
    const Dimension& spec = dimensions[d];
    const int members = std::max(1, spec.size);
    const int shown = unfolded[d] ? members : 1;
    std::vector<Piece> children;
    children.reserve(static_cast<std::size_t>(shown));
    for (int i = 0; i < shown; ++i) {
        children.push_back(draw_block(dimensions, unfolded, label_widths, place_values, dimension - 1,
                                      first_npu + i * place_values[d]));
    }
    const QSizeF child = children.front().size;
    const double extent = std::max(child.width(), child.height());
    const double gap = 0.25 * extent + 10.0;
    const bool is_switch = spec.kind == DimensionKind::switch_fabric;
    const bool star = shown >= 3;

    // Members' centres around (0, 0).
    std::vector<QPointF> centers;
    QPointF switch_center;
    if (star) {
        double radius = (extent + gap) / (2.0 * std::sin(std::numbers::pi / shown));
        if (is_switch) radius = std::max(radius, extent / std::numbers::sqrt2 + switch_width + gap);
        for (int i = 0; i < shown; ++i) {
            // The first member at the top, the rest clockwise.
            const double angle = -std::numbers::pi / 2.0 + 2.0 * std::numbers::pi * i / shown;
            centers.emplace_back(radius * std::cos(angle), radius * std::sin(angle));
        }
    } else {
        for (int i = 0; i < shown; ++i) centers.emplace_back((i - (shown - 1) / 2.0) * (child.width() + gap), 0.0);
        switch_center = QPointF(0.0, child.height() / 2.0 + gap + switch_height / 2.0);
    }

    Piece piece;
    const std::int64_t links_per_line = place_values[d];  // one per NPU of a member
    const auto member_point = [&](int i, const QPointF& toward) {
        return outline_point(centers[static_cast<std::size_t>(i)], child, children.front().is_npu, toward);
    };
    const auto join = [&](int a, int b) {
        const QPointF from = member_point(a, centers[static_cast<std::size_t>(b)]);
        const QPointF to = member_point(b, centers[static_cast<std::size_t>(a)]);
        piece.items.links.push_back(DrawnLink{d, from, to, links_per_line});
    };
    if (is_switch) {
        const QRectF box(switch_center - QPointF(switch_width / 2.0, switch_height / 2.0),
                         QSizeF(switch_width, switch_height));
        for (int i = 0; i < shown; ++i) {
            const QPointF from = member_point(i, switch_center);
            const QPointF to = outline_point(switch_center, box.size(), false, centers[static_cast<std::size_t>(i)]);
            piece.items.links.push_back(DrawnLink{d, from, to, links_per_line});
        }
        piece.items.switches.push_back(DrawnSwitch{d, box, shown});
    } else if (shown == members && shown >= 2) {  // a folded ring or mesh shows no neighbour to join
        if (spec.kind == DimensionKind::ring) {
            // A ring of two is one link; of n ≥ 3, n.
            for (int i = 0; i < (shown == 2 ? 1 : shown); ++i) join(i, (i + 1) % shown);
        } else {
            for (int a = 0; a < shown; ++a) {
                for (int b = a + 1; b < shown; ++b) join(a, b);
            }
        }
    }
    for (int i = 0; i < shown; ++i) {
        Piece& member = children[static_cast<std::size_t>(i)];
        translate(member.items, centers[static_cast<std::size_t>(i)] - QPointF(child.width() / 2.0, child.height() / 2.0));
        append(piece.items, std::move(member.items));
    }

    // The frame: everything drawn so far, padded, with room for the label above.
    QRectF content;
    for (const QPointF& center : centers) content |= QRectF(center - QPointF(child.width() / 2.0, child.height() / 2.0), child);
    for (const DrawnSwitch& box : piece.items.switches) content |= box.rect;
    QRectF frame = content.adjusted(-block_padding, -block_padding - block_header, block_padding, block_padding);
    // As wide as its label, the members centred: a folded dimension's one member left its label cut off.
    if (d < label_widths.size() && frame.width() < label_widths[d] + 2.0 * label_inset) {
        const double grow = (label_widths[d] + 2.0 * label_inset - frame.width()) / 2.0;
        frame.adjust(-grow, 0.0, grow, 0.0);
    }
    piece.items.blocks.push_back(DrawnBlock{d, first_npu, frame, members, shown});
    translate(piece.items, -frame.topLeft());
    piece.size = frame.size();
    return piece;
}

}  // namespace

bool is_drawable(const std::vector<Dimension>& dimensions) {
    if (dimensions.empty()) return false;
    std::int64_t count = 1;
    for (const Dimension& dimension : dimensions) {
        if (dimension.size < 1 || dimension.size > limits::max_devices) return false;
        count *= dimension.size;  // both at most 10^7 here: no overflow
        if (count > limits::max_devices) return false;
    }
    return true;
}

std::int64_t drawn_npu_count(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded) {
    std::int64_t count = 1;
    for (std::size_t d = 0; d < dimensions.size(); ++d) {
        if (d < unfolded.size() && unfolded[d]) count *= std::max(1, dimensions[d].size);
    }
    return count;
}

std::int64_t drawn_line_count(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded) {
    // Instances of dimension d drawn: the members shown of every dimension around it.
    std::int64_t lines = 0;
    std::int64_t instances = 1;
    for (std::size_t d = dimensions.size(); d-- > 0;) {
        const std::int64_t members = std::max(1, dimensions[d].size);
        const bool all = d < unfolded.size() && unfolded[d];
        std::int64_t per_instance = 0;
        switch (dimensions[d].kind) {
        case DimensionKind::switch_fabric: per_instance = all ? members : 1; break;
        case DimensionKind::ring: per_instance = !all || members < 2 ? 0 : members == 2 ? 1 : members; break;
        case DimensionKind::fully_connected: per_instance = all ? members * (members - 1) / 2 : 0; break;
        }
        lines += instances * per_instance;
        if (all) instances *= members;
    }
    return lines;
}

bool within_drawing_limits(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded) {
    return drawn_npu_count(dimensions, unfolded) <= max_drawn_npus &&
           drawn_line_count(dimensions, unfolded) <= max_drawn_lines;
}

std::vector<bool> default_unfolded(const std::vector<Dimension>& dimensions, std::int64_t npu_limit,
                                   std::int64_t line_limit) {
    std::vector<bool> unfolded(dimensions.size(), false);
    for (std::size_t d = 0; d < dimensions.size(); ++d) {
        unfolded[d] = true;
        if (drawn_npu_count(dimensions, unfolded) > npu_limit || drawn_line_count(dimensions, unfolded) > line_limit) {
            unfolded[d] = false;
            break;
        }
    }
    return unfolded;
}

TopologyDrawing draw_topology(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded,
                              const std::vector<double>& label_widths) {
    if (!is_drawable(dimensions) || unfolded.size() != dimensions.size()) return {};
    std::vector<std::int64_t> place_values;
    std::int64_t place = 1;
    for (const Dimension& dimension : dimensions) {
        place_values.push_back(place);
        place *= std::max(1, dimension.size);
    }
    Piece root =
        draw_block(dimensions, unfolded, label_widths, place_values, static_cast<int>(dimensions.size()) - 1, 0);
    root.items.bounds = QRectF(QPointF(0.0, 0.0), root.size);
    return std::move(root.items);
}

}  // namespace parasight::gui

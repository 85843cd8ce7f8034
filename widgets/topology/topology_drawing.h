#pragma once
// Where the Topology tab draws a topology's NPUs, switches and links (ASTRA-sim 2.0's building blocks, seed 001 §III):
// dimension 0's members are NPUs, a higher dimension's members are blocks of the one inside it (nodes in a rack, racks
// on a spine), each block framed. A ring's members sit on a circle joined to their neighbours, a fully connected
// dimension's on a circle joined pairwise, a switch's around (or, for one or two, above) a switch box joined to it by
// one line per port. Between blocks one line stands for the links of all their NPUs (one per NPU of a block).
//
// A dimension is drawn unfolded (every member) or folded (its first member, standing for all): by default every
// dimension is unfolded up to 256 NPUs drawn, the innermost first, and the rest folded, so a 16 384-NPU cluster
// draws as fast as a node; a user unfolds a level at a time up to max_drawn_npus NPUs. Lines are held to
// max_drawn_lines throughout (a fully connected dimension of n members draws n(n-1)/2 lines per instance; 8 000
// lines take the whole 50 ms a repaint may).

#include "topology/dimension.h"

#include <QPointF>
#include <QRectF>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace parasight::gui {

struct DrawnNpu {
    std::int64_t npu = 0;
    QPointF center;
};

// One instance of a dimension: the frame around its members.
struct DrawnBlock {
    std::size_t dimension = 0;
    std::int64_t first_npu = 0;
    QRectF rect;
    int members = 1;  // the dimension's size
    int shown = 1;    // members drawn: all, or 1 when the dimension is folded
};

struct DrawnSwitch {
    std::size_t dimension = 0;
    QRectF rect;
    int ports = 0;  // lines drawn to it
};

struct DrawnLink {
    std::size_t dimension = 0;
    QPointF from;
    QPointF to;
    std::int64_t links = 1;  // physical links it stands for: one per NPU of the blocks it joins
};

struct TopologyDrawing {
    std::vector<DrawnNpu> npus;
    std::vector<DrawnBlock> blocks;
    std::vector<DrawnSwitch> switches;
    std::vector<DrawnLink> links;
    QRectF bounds;
};

inline constexpr std::int64_t default_drawn_npus = 256;
inline constexpr std::int64_t max_drawn_npus = 1024;
inline constexpr std::int64_t max_drawn_lines = 4096;
inline constexpr double npu_radius = 11.0;

// Whether `dimensions` can be drawn: at least one, every size at least 1 and at most limits::max_devices NPUs in all
// (an edit in progress may hold a size of 0 or a runaway one: the canvas then waits for the loader's message to
// be acted on).
[[nodiscard]] bool is_drawable(const std::vector<Dimension>& dimensions);

// NPUs drawn when the dimensions marked in `unfolded` are (the others show one member).
[[nodiscard]] std::int64_t drawn_npu_count(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded);

// Lines drawn when the dimensions marked in `unfolded` are.
[[nodiscard]] std::int64_t drawn_line_count(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded);

// Whether so much can be drawn when the user asks: at most max_drawn_npus NPUs and max_drawn_lines lines.
[[nodiscard]] bool within_drawing_limits(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded);

// Every dimension unfolded, innermost first, while at most `npu_limit` NPUs and `line_limit` lines are drawn; the
// rest folded.
[[nodiscard]] std::vector<bool> default_unfolded(const std::vector<Dimension>& dimensions,
                                                 std::int64_t npu_limit = default_drawn_npus,
                                                 std::int64_t line_limit = max_drawn_lines);

// The room a frame keeps between its edges and its label, on each side.
inline constexpr double label_inset = 6.0;

// `unfolded` has an entry per dimension; nothing is drawn unless is_drawable(dimensions). `label_widths` (px, by
// dimension; may be empty) makes each frame at least as wide as its label and its insets.
[[nodiscard]] TopologyDrawing draw_topology(const std::vector<Dimension>& dimensions, const std::vector<bool>& unfolded,
                                            const std::vector<double>& label_widths = {});

}  // namespace parasight::gui

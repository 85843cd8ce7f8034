#include "style/activity_colors.h"

namespace parasight::gui {

namespace {
// Tableau 10.
const QColor blue(0x4e, 0x79, 0xa7);
const QColor orange(0xf2, 0x8e, 0x2b);
const QColor red(0xe1, 0x57, 0x59);
const QColor teal(0x76, 0xb7, 0xb2);
const QColor green(0x59, 0xa1, 0x4f);
const QColor yellow(0xed, 0xc9, 0x48);
const QColor purple(0xb0, 0x7a, 0xa1);
const QColor pink(0xff, 0x9d, 0xa7);
const QColor brown(0x9c, 0x75, 0x5f);
const QColor grey(0xba, 0xb0, 0xac);
}  // namespace

QColor compute_color() { return blue; }

QColor exposed_comm_color(CommGroup group) {
    switch (group) {
    case CommGroup::tp: return orange;
    case CommGroup::cp: return pink;
    case CommGroup::ep: return purple;
    case CommGroup::pp: return green;
    case CommGroup::dp: return yellow;
    }
    return grey;
}

QColor parallel_axis_color(ParallelAxis axis) { return exposed_comm_color(comm_group_of(axis)); }

// Tableau's teal, between compute's blue and remote memory's cyan: computation that waits on the device's memory.
QColor exposed_local_memory_color() { return teal; }

// Outside Tableau 10 (its brown is the optimizer's): D3's category-10 cyan, for moving tensors to and from memory
// beyond the device, which reads on light and dark backgrounds alike.
QColor exposed_remote_memory_color() { return QColor(0x17, 0xbe, 0xcf); }

QColor text_color_on(const QColor& background) {
    return background.lightnessF() > 0.6 ? QColor(Qt::black) : QColor(Qt::white);
}

QColor bubble_color() { return grey; }

QColor oracle_strategy_color(OracleStrategy strategy) {
    switch (strategy) {
    case OracleStrategy::serial: return grey;
    case OracleStrategy::data: return blue;
    case OracleStrategy::spatial: return orange;
    case OracleStrategy::layer: return green;
    case OracleStrategy::filter: return red;
    case OracleStrategy::channel: return purple;
    case OracleStrategy::data_filter: return teal;
    case OracleStrategy::data_spatial: return brown;
    case OracleStrategy::data_layer: return pink;
    }
    return grey;
}

// Idle that is not a bubble: a darker grey than the bubble's, lighter than most dark backgrounds.
QColor idle_color() { return QColor(0x8a, 0x82, 0x7e); }

QColor memory_category_color(MemoryCategory category) {
    switch (category) {
    case MemoryCategory::weights: return blue;
    case MemoryCategory::gradients: return orange;
    case MemoryCategory::optimizer: return green;
    case MemoryCategory::activations: return teal;
    case MemoryCategory::buffers: return purple;
    case MemoryCategory::runtime: return brown;
    }
    return grey;
}

QColor task_kind_color(TaskKind kind) {
    switch (kind) {
    case TaskKind::forward: return blue;
    case TaskKind::backward: return QColor(0x2c, 0x4f, 0x78);  // Tableau's blue, darker: the same work, reversed
    // Tableau 20's light blue: the rest of the backward's work, deferred (ZB-H1's W), apart from B and F.
    case TaskKind::weight_gradient: return QColor(0xa0, 0xcb, 0xe8);
    case TaskKind::recompute: return red;
    case TaskKind::optimizer: return brown;
    case TaskKind::tp_comm: return exposed_comm_color(CommGroup::tp);
    case TaskKind::cp_comm: return exposed_comm_color(CommGroup::cp);
    case TaskKind::ep_comm: return exposed_comm_color(CommGroup::ep);
    case TaskKind::pp_comm: return exposed_comm_color(CommGroup::pp);
    case TaskKind::dp_comm: return exposed_comm_color(CommGroup::dp);
    // Outside Tableau 10, whose ten colours are taken: ColorBrewer PiYG's magenta, which no other kind resembles
    // and which reads on light and dark backgrounds alike.
    case TaskKind::injected_delay: return QColor(0xc5, 0x1b, 0x7d);
    case TaskKind::memory_load: return exposed_remote_memory_color();
    case TaskKind::memory_store: return exposed_remote_memory_color().darker(140);  // the same tier, the other way
    case TaskKind::host_optimizer: return QColor(0xc4, 0x9c, 0x94);  // Tableau 20's light brown: the optimizer's, away
    }
    return grey;
}

QColor over_capacity_color() { return red; }

}  // namespace parasight::gui

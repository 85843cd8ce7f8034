#include "style/breakdown_parts.h"

#include "style/activity_colors.h"

#include <QCoreApplication>

namespace parasight::gui {
namespace {

constexpr int local_memory_part = 1;
constexpr int first_comm_part = 2;
constexpr int remote_memory_part = first_comm_part + static_cast<int>(comm_group_count);
constexpr int bubble_part = remote_memory_part + 1;
constexpr int idle_part = bubble_part + 1;
static_assert(idle_part + 1 == breakdown_part_count);

QString tr(const char* text) { return QCoreApplication::translate("BreakdownParts", text); }

}  // namespace

std::array<double, breakdown_part_count> breakdown_parts_s(const TimeBreakdown& breakdown) {
    std::array<double, breakdown_part_count> parts{};
    parts[0] = breakdown.compute_s;
    parts[local_memory_part] = breakdown.exposed_local_memory_s;
    for (std::size_t g = 0; g < comm_group_count; ++g) parts[first_comm_part + g] = breakdown.exposed_comm_s[g];
    parts[remote_memory_part] = breakdown.exposed_remote_memory_s;
    parts[bubble_part] = breakdown.bubble_s;
    parts[idle_part] = breakdown.idle_s;
    return parts;
}

QString breakdown_part_name(int part) {
    if (part == 0) return tr("Compute");
    if (part == local_memory_part) return tr("Local memory exposed");
    if (part >= first_comm_part && part < remote_memory_part) {
        const std::string_view group = name_of(static_cast<CommGroup>(part - first_comm_part), comm_group_names);
        return tr("%1 exposed").arg(QString::fromLatin1(group.data(), static_cast<qsizetype>(group.size())).toUpper());
    }
    if (part == remote_memory_part) return tr("Remote memory exposed");
    if (part == bubble_part) return tr("Bubble");
    return tr("Idle");
}

QString breakdown_part_meaning(int part) {
    if (part == 0) return tr("Time the device computes (forward, backward, recompute, optimizer)");
    if (part == local_memory_part) {
        return tr("Time the device's kernels wait on its own memory: the part of each kernel's time that streaming "
                  "its bytes takes beyond its arithmetic (norms, activations, the optimizer step, small matmuls)");
    }
    if (part >= first_comm_part && part < remote_memory_part) {
        return tr("Exposed communication: time the device waits on this group's transfers with nothing to compute "
                  "(communication that runs beside computation is hidden and not counted)");
    }
    if (part == remote_memory_part) {
        return tr("Time the device waits on loads and stores of offloaded states (host memory, NVMe, a memory pool) "
                  "with nothing to compute");
    }
    if (part == bubble_part) {
        return tr("Pipeline bubble: idle time waiting for the pipeline to fill (before a stage's first micro-batch "
                  "arrives) or drain (after its last leaves)");
    }
    return tr("Any other time the device waits (for another device, in the middle of the run)");
}

QColor breakdown_part_color(int part) {
    if (part == 0) return compute_color();
    if (part == local_memory_part) return exposed_local_memory_color();
    if (part >= first_comm_part && part < remote_memory_part) {
        return exposed_comm_color(static_cast<CommGroup>(part - first_comm_part));
    }
    if (part == remote_memory_part) return exposed_remote_memory_color();
    if (part == bubble_part) return bubble_color();
    return idle_color();
}

}  // namespace parasight::gui

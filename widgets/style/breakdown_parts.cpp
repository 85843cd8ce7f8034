#include "style/breakdown_parts.h"

#include "style/activity_colors.h"

#include <QCoreApplication>

namespace parasight::gui {
namespace {

constexpr int first_comm_part = 1;
constexpr int memory_part = first_comm_part + static_cast<int>(comm_group_count);
constexpr int bubble_part = memory_part + 1;
constexpr int idle_part = bubble_part + 1;
static_assert(idle_part + 1 == breakdown_part_count);

QString tr(const char* text) { return QCoreApplication::translate("BreakdownParts", text); }

}  // namespace

std::array<double, breakdown_part_count> breakdown_parts_s(const TimeBreakdown& breakdown) {
    std::array<double, breakdown_part_count> parts{};
    parts[0] = breakdown.compute_s;
    for (std::size_t g = 0; g < comm_group_count; ++g) parts[first_comm_part + g] = breakdown.exposed_comm_s[g];
    parts[memory_part] = breakdown.exposed_memory_s;
    parts[bubble_part] = breakdown.bubble_s;
    parts[idle_part] = breakdown.idle_s;
    return parts;
}

QString breakdown_part_name(int part) {
    if (part == 0) return tr("Compute");
    if (part >= first_comm_part && part < memory_part) {
        const std::string_view group = name_of(static_cast<CommGroup>(part - first_comm_part), comm_group_names);
        return tr("%1 exposed").arg(QString::fromLatin1(group.data(), static_cast<qsizetype>(group.size())).toUpper());
    }
    if (part == memory_part) return tr("Memory exposed");
    if (part == bubble_part) return tr("Bubble");
    return tr("Idle");
}

QString breakdown_part_meaning(int part) {
    if (part == 0) return tr("Time the device computes (forward, backward, recompute, optimizer)");
    if (part >= first_comm_part && part < memory_part) {
        return tr("Exposed communication: time the device waits on this group's transfers with nothing to compute "
                  "(communication that runs beside computation is hidden and not counted)");
    }
    if (part == memory_part) return tr("Time the device waits on memory transfers with nothing to compute");
    if (part == bubble_part) {
        return tr("Pipeline bubble: idle time waiting for the pipeline to fill (before a stage's first micro-batch "
                  "arrives) or drain (after its last leaves)");
    }
    return tr("Any other time the device waits (for another device, in the middle of the run)");
}

QColor breakdown_part_color(int part) {
    if (part == 0) return compute_color();
    if (part >= first_comm_part && part < memory_part) {
        return exposed_comm_color(static_cast<CommGroup>(part - first_comm_part));
    }
    if (part == memory_part) return exposed_memory_color();
    if (part == bubble_part) return bubble_color();
    return idle_color();
}

}  // namespace parasight::gui

#pragma once
// What each field of the Scenario form means, for its tooltip: the meaning docs/scenario-reference.md gives the key,
// in a sentence or two, with the term a user may not know spelled out (γ, efficiency, step latency, flat_ring,
// TP overlap). A field a problem is about shows the problem first, then this.

#include <QString>

namespace parasight::gui {

// The help for the field at `path` ("training.micro_batch", "cluster.topology[1].bandwidth"); empty for none.
[[nodiscard]] QString field_help(const QString& path);

}  // namespace parasight::gui

#pragma once
// The "Per stage / Per device" choice the result views share. Per device is offered only when the report has few
// enough simulated devices to read (max_listed_devices); otherwise it says why in its tooltip.

#include "analysis/report.h"
#include "results/device_rows.h"

class QComboBox;
class QWidget;

namespace parasight::gui {

[[nodiscard]] QComboBox* make_grouping_box(QWidget* parent);
// Enables or disables "Per device" for `report`, falling back to stages when it is no longer offered.
void offer_device_grouping(QComboBox& box, const Report& report);
[[nodiscard]] DeviceGrouping chosen_grouping(const QComboBox& box);

}  // namespace parasight::gui

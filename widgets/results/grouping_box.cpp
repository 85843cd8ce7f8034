#include "results/grouping_box.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QStandardItemModel>

namespace parasight::gui {

namespace {
constexpr int device_item = 1;
}

QComboBox* make_grouping_box(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->addItem(QCoreApplication::translate("GroupingBox", "Per stage"), static_cast<int>(DeviceGrouping::stage));
    box->addItem(QCoreApplication::translate("GroupingBox", "Per device"), static_cast<int>(DeviceGrouping::device));
    box->setAccessibleName(QCoreApplication::translate("GroupingBox", "Rows"));
    return box;
}

void offer_device_grouping(QComboBox& box, const Report& report) {
    auto* items = qobject_cast<QStandardItemModel*>(box.model());
    if (items == nullptr) return;
    QStandardItem* item = items->item(device_item);
    const bool offered = report.per_device.size() <= max_listed_devices;
    item->setEnabled(offered);
    item->setToolTip(offered ? QString()
                             : QCoreApplication::translate("GroupingBox",
                                                           "%1 simulated devices are more than a chart can show "
                                                           "apart (at most %2)")
                                   .arg(report.per_device.size())
                                   .arg(max_listed_devices));
    if (!offered && box.currentIndex() == device_item) box.setCurrentIndex(0);
}

DeviceGrouping chosen_grouping(const QComboBox& box) { return static_cast<DeviceGrouping>(box.currentData().toInt()); }

}  // namespace parasight::gui

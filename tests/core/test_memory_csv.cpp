// The Memory tab's CSV (export/memory_csv.h): one row per simulated device, its memory at its peak by category, its
// peak and the capacity, numbers as the shortest text that reads back exactly.

#include "export/memory_csv.h"

#include <QtTest>

#include <sstream>

using namespace parasight;

class TestMemoryCsv : public QObject {
    Q_OBJECT
private slots:
    void oneRowPerSimulatedDevice();
};

void TestMemoryCsv::oneRowPerSimulatedDevice() {
    Report report;
    report.memory_capacity_bytes = 85899345920.0;  // 80 GiB
    DeviceReport first;
    first.npu = 0;
    first.stage = 0;
    first.weight = 4.0;  // stands for the 4 devices of its stage
    first.memory_at_peak_bytes = {1024.0, 2048.0, 4096.0, 1.5e9, 0.0, 1649410048.0};  // runtime: 1573 MiB
    first.peak_memory_bytes = 1024.0 + 2048.0 + 4096.0 + 1.5e9 + 1649410048.0;  // 3 149 417 216
    DeviceReport second;
    second.npu = 4;
    second.stage = 1;
    second.weight = 4.0;
    second.memory_at_peak_bytes = {1024.0, 2048.0, 4096.0, 0.5e9, 256.0, 1649410048.0};
    second.peak_memory_bytes = 1024.0 + 2048.0 + 4096.0 + 0.5e9 + 256.0 + 1649410048.0;  // 2 149 417 472
    report.per_device = {first, second};
    std::ostringstream out;
    write_memory_csv(out, report);
    QCOMPARE(QString::fromStdString(out.str()),
             QStringLiteral("npu,stage,stands_for,weights_bytes,gradients_bytes,optimizer_bytes,activations_bytes,"
                            "buffers_bytes,runtime_bytes,peak_bytes,capacity_bytes\n"
                            "0,0,4,1024,2048,4096,1.5e+09,0,1649410048,3149417216,85899345920\n"
                            "4,1,4,1024,2048,4096,5e+08,256,1649410048,2149417472,85899345920\n"));
}

QTEST_GUILESS_MAIN(TestMemoryCsv)
#include "test_memory_csv.moc"

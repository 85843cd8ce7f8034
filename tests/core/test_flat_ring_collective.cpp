// One ring through every member of a group spanning several dimensions, as NCCL runs it across nodes
// (collective/flat_ring_collective.h), worked by hand on a two-level topology.
//
// Topology: fully connected 4 at 100 GB/s, 1 us per hop, then a switch of 8 at 10 GB/s, 2 us per hop (4 us per
// step: two hops). 32 members, S = 32e6 bytes. The ring's 32 edges: (4−1) · 8 = 24 on the fully connected dimension,
// (8−1) + 1 = 8 on the switch (its chain edges and the one closing the ring).

#include "collective/flat_ring_collective.h"
#include "collective/group_collective.h"
#include "collective/hierarchical_collective.h"

#include "test_dimension.h"

#include <QTest>

using parasight::CollectiveAlgorithm;
using parasight::CollectiveCost;
using parasight::CollectiveOp;
using parasight::CollectivePlan;
using parasight::DimensionKind;
using parasight::DimensionSpan;
using parasight::MultiDimensionCollectives;
using parasight::Topology;
using parasight::testing::make_dimension;

Q_DECLARE_METATYPE(parasight::CollectiveOp)

namespace {

constexpr double us = 1e-6;
constexpr double kData = 32e6;

Topology two_level_topology() {
    return Topology({make_dimension(DimensionKind::fully_connected, 4, 100e9, 1 * us),
                     make_dimension(DimensionKind::switch_fabric, 8, 10e9, 2 * us)});
}

}  // namespace

class TestFlatRingCollective : public QObject {
    Q_OBJECT

private slots:
    void perDimensionTraffic_data();
    void perDimensionTraffic();
    void networkBoundBusBandwidth();
    void singleDimensionIsTheDimensionsAlgorithm();
    void oneMemberCostsNothing();
};

void TestFlatRingCollective::perDimensionTraffic_data() {
    QTest::addColumn<CollectiveOp>("op");
    QTest::addColumn<double>("dim0_bytes");
    QTest::addColumn<double>("dim1_bytes");
    QTest::addColumn<double>("dim0_time_s");
    QTest::addColumn<double>("dim1_time_s");
    QTest::addColumn<double>("time_s");
    // AR: each edge carries 2 · 31/32 · 32e6 = 62e6; an NPU's share of the edges: 24/32 on FC = 46.5e6 (465 us),
    // 8/32 on the switch = 15.5e6 (1550 us). Steps 2 · 24 = 48 of 1 us on FC, 2 · 7 = 14 of 4 us on the switch:
    // FC alone 465 + 48 = 513 us, switch alone 1550 + 56 = 1606 us; together max(465, 1550) + 48 + 56 = 1654 us.
    QTest::newRow("all-reduce") << CollectiveOp::all_reduce << 46.5e6 << 15.5e6 << 513 * us << 1606 * us
                                << 1654 * us;
    // RS and AG: half the passes: 23.25e6 (232.5 us) + 24 steps; 7.75e6 (775 us) + 7 · 4 us: 775 + 24 + 28.
    QTest::newRow("reduce-scatter") << CollectiveOp::reduce_scatter << 23.25e6 << 7.75e6 << 256.5 * us << 803 * us
                                    << 827 * us;
    QTest::newRow("all-gather") << CollectiveOp::all_gather << 23.25e6 << 7.75e6 << 256.5 * us << 803 * us
                                << 827 * us;
    // Broadcast: a chain over 31 edges carrying 32e6 each; an NPU forwards over FC 24/32 · 32e6 = 24e6 (240 us,
    // 24 steps), over the switch 7/32 · 32e6 = 7e6 (700 us, 7 steps of 4 us): 700 + 24 + 28 = 752 us.
    QTest::newRow("broadcast") << CollectiveOp::broadcast << 24e6 << 7e6 << 264 * us << 728 * us << 752 * us;
    // A2A: 1e6 to each member; 3 differ only on FC (3e6, 30 us), 7 · 4 = 28 on the switch (28e6, 2800 us). One round:
    // the slower path's latency, 4 us: 2804 us.
    QTest::newRow("all-to-all") << CollectiveOp::all_to_all << 3e6 << 28e6 << 31 * us << 2804 * us << 2804 * us;
}

void TestFlatRingCollective::perDimensionTraffic() {
    QFETCH(CollectiveOp, op);
    QFETCH(double, dim0_bytes);
    QFETCH(double, dim1_bytes);
    QFETCH(double, dim0_time_s);
    QFETCH(double, dim1_time_s);
    QFETCH(double, time_s);
    const Topology topology = two_level_topology();
    const auto spans = parasight::whole_topology_spans(topology);
    const CollectiveCost cost = parasight::flat_ring_collective(op, kData, topology, spans);
    QCOMPARE(cost.ranks, 32LL);
    QCOMPARE(cost.per_dim.size(), std::size_t{2});
    QCOMPARE(cost.per_dim[0].members, 4);
    QCOMPARE(cost.per_dim[1].members, 8);
    QCOMPARE(cost.per_dim[1].kind, DimensionKind::switch_fabric);
    const auto expected_algorithm = op == CollectiveOp::all_to_all ? CollectiveAlgorithm::direct
                                                                   : CollectiveAlgorithm::ring;
    QCOMPARE(cost.per_dim[1].algorithm, expected_algorithm);
    QCOMPARE(cost.per_dim[0].bytes_sent, dim0_bytes);
    QCOMPARE(cost.per_dim[1].bytes_sent, dim1_bytes);
    QCOMPARE(cost.per_dim[0].time_s, dim0_time_s);
    QCOMPARE(cost.per_dim[1].time_s, dim1_time_s);
    QCOMPARE(cost.time_s, time_s);
    // The plan picks this composition for a group spanning both dimensions.
    const CollectiveCost planned = parasight::group_collective(
        op, kData, topology, spans, CollectivePlan{MultiDimensionCollectives::flat_ring, 64});
    QCOMPARE(planned.time_s, time_s);
}

void TestFlatRingCollective::networkBoundBusBandwidth() {
    // Without latency the all-reduce takes the switch's 15.5e6 / 10e9 = 1.55 ms: algbw 32e6 / 1.55e-3 = 20.645 GB/s,
    // busbw · 2 · 31/32 = 40 GB/s = 4 members' links on the switch (10 GB/s · 4): the network carries the ring.
    Topology topology({make_dimension(DimensionKind::fully_connected, 4, 100e9, 0.0),
                       make_dimension(DimensionKind::switch_fabric, 8, 10e9, 0.0)});
    const auto spans = parasight::whole_topology_spans(topology);
    const CollectiveCost cost = parasight::flat_ring_collective(CollectiveOp::all_reduce, kData, topology, spans);
    QCOMPARE(cost.time_s, 1.55e-3);
    QCOMPARE(cost.busbw_Bps, 40e9);
}

void TestFlatRingCollective::singleDimensionIsTheDimensionsAlgorithm() {
    // A group on one dimension has no ring across dimensions to build: the dimension's own phase runs (here the
    // switch's default, NCCL's choice: for 24 MB at 10 GB/s the ring's 2 · 7/8 of the buffer beats the tree's 2 at
    // 0.9 of the bandwidth), whatever the plan says.
    const Topology topology = two_level_topology();
    const std::vector<DimensionSpan> outer{{1, 1, 8}};
    const CollectiveCost flat = parasight::group_collective(
        CollectiveOp::all_reduce, kData, topology, outer, CollectivePlan{MultiDimensionCollectives::flat_ring, 64});
    const CollectiveCost hierarchical = parasight::hierarchical_collective(CollectiveOp::all_reduce, kData, topology,
                                                                           outer, 64);
    QCOMPARE(flat.per_dim.at(0).algorithm, CollectiveAlgorithm::ring);
    QCOMPARE(flat.time_s, hierarchical.time_s);
}

void TestFlatRingCollective::oneMemberCostsNothing() {
    const Topology topology = two_level_topology();
    const std::vector<DimensionSpan> single{{0, 1, 1}, {1, 4, 1}};
    const CollectiveCost cost = parasight::flat_ring_collective(CollectiveOp::all_reduce, kData, topology, single);
    QCOMPARE(cost.ranks, 1LL);
    QCOMPARE(cost.time_s, 0.0);
    QVERIFY(cost.per_dim.empty());
}

QTEST_APPLESS_MAIN(TestFlatRingCollective)
#include "test_flat_ring_collective.moc"

// Multi-dimensional topologies (NPU ids ↔ coordinates, dimension 0 fastest) and parallel axes laid onto them.
// docs/scenario-reference.md "cluster.topology" and "mapping: how groups are laid onto NPU ids".

#include "topology/dimension.h"
#include "topology/parallel_layout.h"
#include "topology/topology.h"

#include "numeric_compare.h"
#include "test_dimension.h"

#include <QTest>

#include <set>
#include <stdexcept>
#include <vector>

using parasight::AxisDegree;
using parasight::CollectiveAlgorithm;
using parasight::DimensionKind;
using parasight::DimensionSpan;
using parasight::ParallelAxis;
using parasight::ParallelLayout;
using parasight::Topology;
using parasight::testing::qs;

namespace {

parasight::Dimension dimension(DimensionKind kind, int size) {
    return parasight::testing::make_dimension(kind, size, 100e9, 1e-6);
}

// [2, 8, 8, 4]: Ring(2)_FC(8)_Ring(8)_Switch(4), the ASTRA-sim 2.0 Table III shape. 512 NPUs.
Topology astra_topology() {
    return Topology({dimension(DimensionKind::ring, 2), dimension(DimensionKind::fully_connected, 8),
                     dimension(DimensionKind::ring, 8), dimension(DimensionKind::switch_fabric, 4)});
}

Topology switches(std::vector<int> sizes) {
    std::vector<parasight::Dimension> dims;
    for (int size : sizes) dims.push_back(dimension(DimensionKind::switch_fabric, size));
    return Topology(std::move(dims));
}

std::vector<std::int64_t> ids(std::initializer_list<std::int64_t> list) { return list; }

}  // namespace

class TestTopology : public QObject {
    Q_OBJECT

private slots:
    void placeValuesAndDeviceCount();
    void idToCoordinates_data();
    void idToCoordinates();
    void everyIdRoundTrips();
    void outOfRangeThrows();
    void dimensionAlgorithms();
    void enumSpellings();

    void layoutGroupsOnTwoDimensions();
    void layoutRanksAndMembers_data();
    void layoutRanksAndMembers();
    void layoutStridedGroupWithinOneDimension();
    void layoutGroupAcrossPartsOfTwoDimensions();
    void layoutAbsentAxis();
    void layoutRejectsDegreeProductMismatch();
    void layoutRejectsUnevenCut_data();
    void layoutRejectsUnevenCut();
    void layoutRejectsDegreeBelowOne_data();
    void layoutRejectsDegreeBelowOne();
};

void TestTopology::placeValuesAndDeviceCount() {
    const Topology topology = astra_topology();
    QCOMPARE(topology.dimension_count(), std::size_t{4});
    QCOMPARE(topology.device_count(), std::int64_t{512});  // 2 · 8 · 8 · 4
    // Place value = product of the sizes inside: 1, 2, 2·8 = 16, 2·8·8 = 128.
    QCOMPARE(topology.place_value(0), std::int64_t{1});
    QCOMPARE(topology.place_value(1), std::int64_t{2});
    QCOMPARE(topology.place_value(2), std::int64_t{16});
    QCOMPARE(topology.place_value(3), std::int64_t{128});
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, static_cast<void>(topology.place_value(4)));

    const Topology empty;
    QCOMPARE(empty.device_count(), std::int64_t{1});
    QCOMPARE(empty.dimension_count(), std::size_t{0});
}

void TestTopology::idToCoordinates_data() {
    QTest::addColumn<qint64>("id");
    QTest::addColumn<QList<int>>("coordinates");
    // id = c0 + 2·c1 + 16·c2 + 128·c3 on [2, 8, 8, 4].
    QTest::newRow("0") << qint64{0} << QList<int>{0, 0, 0, 0};
    QTest::newRow("1: dimension 0 is fastest") << qint64{1} << QList<int>{1, 0, 0, 0};
    QTest::newRow("2") << qint64{2} << QList<int>{0, 1, 0, 0};
    QTest::newRow("15 = 1 + 2·7") << qint64{15} << QList<int>{1, 7, 0, 0};
    QTest::newRow("16") << qint64{16} << QList<int>{0, 0, 1, 0};
    QTest::newRow("128") << qint64{128} << QList<int>{0, 0, 0, 1};
    QTest::newRow("343 = 1 + 2·3 + 16·5 + 128·2") << qint64{343} << QList<int>{1, 3, 5, 2};
    QTest::newRow("511, the last") << qint64{511} << QList<int>{1, 7, 7, 3};
}

void TestTopology::idToCoordinates() {
    QFETCH(qint64, id);
    QFETCH(QList<int>, coordinates);
    const Topology topology = astra_topology();
    const std::vector<int> expected(coordinates.begin(), coordinates.end());
    QCOMPARE(topology.coordinates(id), expected);
    for (std::size_t d = 0; d < expected.size(); ++d) QCOMPARE(topology.coordinate(id, d), expected[d]);
    QCOMPARE(topology.npu_id(expected), id);
}

void TestTopology::everyIdRoundTrips() {
    const Topology topology = astra_topology();
    std::set<std::vector<int>> seen;
    for (std::int64_t id = 0; id < topology.device_count(); ++id) {
        const std::vector<int> c = topology.coordinates(id);
        QCOMPARE(topology.npu_id(c), id);
        seen.insert(c);
    }
    QCOMPARE(seen.size(), std::size_t{512});  // a bijection: no two ids share coordinates
}

void TestTopology::outOfRangeThrows() {
    const Topology topology = astra_topology();
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, static_cast<void>(topology.coordinates(512)));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, static_cast<void>(topology.coordinates(-1)));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, static_cast<void>(topology.coordinate(0, 4)));
    const std::vector<int> too_far{2, 0, 0, 0};  // dimension 0 has coordinates 0 and 1
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, static_cast<void>(topology.npu_id(too_far)));
    const std::vector<int> negative{0, 0, 0, -1};
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, static_cast<void>(topology.npu_id(negative)));
    const std::vector<int> too_few{0, 0, 0};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, static_cast<void>(topology.npu_id(too_few)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Topology({dimension(DimensionKind::ring, 0)}));
}

void TestTopology::dimensionAlgorithms() {
    using parasight::algorithm_fits;
    using parasight::default_algorithm;
    QCOMPARE(default_algorithm(DimensionKind::ring), CollectiveAlgorithm::ring);
    QCOMPARE(default_algorithm(DimensionKind::fully_connected), CollectiveAlgorithm::direct);
    QCOMPARE(default_algorithm(DimensionKind::switch_fabric), CollectiveAlgorithm::nccl);

    parasight::Dimension chosen = dimension(DimensionKind::switch_fabric, 8);
    QCOMPARE(parasight::effective_algorithm(chosen), CollectiveAlgorithm::nccl);
    chosen.algorithm = CollectiveAlgorithm::in_switch;
    QCOMPARE(parasight::effective_algorithm(chosen), CollectiveAlgorithm::in_switch);

    // A ring only runs the ring algorithm; in-switch needs a switch; a switch runs anything.
    QVERIFY(algorithm_fits(CollectiveAlgorithm::ring, DimensionKind::ring));
    QVERIFY(!algorithm_fits(CollectiveAlgorithm::direct, DimensionKind::ring));
    QVERIFY(!algorithm_fits(CollectiveAlgorithm::halving_doubling, DimensionKind::ring));
    QVERIFY(algorithm_fits(CollectiveAlgorithm::double_binary_tree, DimensionKind::fully_connected));
    QVERIFY(!algorithm_fits(CollectiveAlgorithm::in_switch, DimensionKind::fully_connected));
    QVERIFY(algorithm_fits(CollectiveAlgorithm::in_switch, DimensionKind::switch_fabric));
    QVERIFY(algorithm_fits(CollectiveAlgorithm::ring, DimensionKind::switch_fabric));
    // NCCL's choice runs where a ring, a tree or a switch can: anywhere but on a ring (which has only its ring).
    QVERIFY(!algorithm_fits(CollectiveAlgorithm::nccl, DimensionKind::ring));
    QVERIFY(algorithm_fits(CollectiveAlgorithm::nccl, DimensionKind::fully_connected));
    QVERIFY(algorithm_fits(CollectiveAlgorithm::nccl, DimensionKind::switch_fabric));
}

void TestTopology::enumSpellings() {
    QCOMPARE(qs(parasight::to_string(DimensionKind::switch_fabric)), QStringLiteral("switch"));
    QCOMPARE(qs(parasight::to_string(DimensionKind::fully_connected)), QStringLiteral("fully_connected"));
    QCOMPARE(qs(parasight::to_string(CollectiveAlgorithm::double_binary_tree)), QStringLiteral("double_binary_tree"));
    QCOMPARE(qs(parasight::to_string(ParallelAxis::pp)), QStringLiteral("pp"));
    QCOMPARE(parasight::value_of("switch", parasight::dimension_kind_names), DimensionKind::switch_fabric);
    QCOMPARE(parasight::value_of("in_switch", parasight::collective_algorithm_names), CollectiveAlgorithm::in_switch);
    QCOMPARE(parasight::value_of("ep", parasight::parallel_axis_names), ParallelAxis::ep);
    QVERIFY(!parasight::value_of("Switch", parasight::dimension_kind_names).has_value());  // spellings are exact
    const auto names = parasight::names_of(parasight::dimension_kind_names);
    QCOMPARE(names.size(), std::size_t{3});
    QCOMPARE(qs(names[1]), QStringLiteral("fully_connected"));
}

// [8, 128] (8 GPUs a node, 128 nodes) with mapping tp8, dp8, pp16: tp fills the node, dp the next 8 nodes, pp the rest.
void TestTopology::layoutGroupsOnTwoDimensions() {
    const auto layout = ParallelLayout::make(
        switches({8, 128}), {{ParallelAxis::tp, 8}, {ParallelAxis::dp, 8}, {ParallelAxis::pp, 16}});
    QVERIFY2(layout.has_value(), layout ? "" : layout.error().c_str());
    QCOMPARE(layout->degree(ParallelAxis::tp), 8);
    QCOMPARE(layout->degree(ParallelAxis::dp), 8);
    QCOMPARE(layout->degree(ParallelAxis::pp), 16);
    // Id strides: the product of the degrees laid before: 1, 8, 8·8 = 64.
    QCOMPARE(layout->id_stride(ParallelAxis::tp), std::int64_t{1});
    QCOMPARE(layout->id_stride(ParallelAxis::dp), std::int64_t{8});
    QCOMPARE(layout->id_stride(ParallelAxis::pp), std::int64_t{64});
    // tp: ids [0, 8) = all of dimension 0.
    QCOMPARE(layout->spans(ParallelAxis::tp), (std::vector<DimensionSpan>{{0, 1, 8}}));
    // dp: ids 8 apart, 8 of them = dimension 1 (place value 8), coordinate stride 8/8 = 1, 8 members.
    QCOMPARE(layout->spans(ParallelAxis::dp), (std::vector<DimensionSpan>{{1, 1, 8}}));
    // pp: ids 64 apart, 16 of them = dimension 1, coordinate stride 64/8 = 8, 16 members (8·16 = 128 nodes).
    QCOMPARE(layout->spans(ParallelAxis::pp), (std::vector<DimensionSpan>{{1, 8, 16}}));
}

void TestTopology::layoutRanksAndMembers_data() {
    QTest::addColumn<qint64>("npu");
    QTest::addColumn<int>("tp_rank");
    QTest::addColumn<int>("dp_rank");
    QTest::addColumn<int>("pp_rank");
    QTest::addColumn<qint64>("dp_first");  // id of dp rank 0 in npu's group; members follow 8 apart
    QTest::addColumn<qint64>("pp_first");  // id of pp rank 0; members follow 64 apart
    // npu = tp + 8·dp + 64·pp.
    QTest::newRow("0") << qint64{0} << 0 << 0 << 0 << qint64{0} << qint64{0};
    // 1000 = 0 + 8·5 + 64·15 → dp group 1000 − 5·8 = 960 …; pp group 1000 − 15·64 = 40 …
    QTest::newRow("1000") << qint64{1000} << 0 << 5 << 15 << qint64{960} << qint64{40};
    // 437 = 5 + 8·6 + 64·6 → dp group starts at 437 − 48 = 389; pp group at 437 − 384 = 53.
    QTest::newRow("437") << qint64{437} << 5 << 6 << 6 << qint64{389} << qint64{53};
    // 1023 = 7 + 8·7 + 64·15.
    QTest::newRow("1023") << qint64{1023} << 7 << 7 << 15 << qint64{967} << qint64{63};
}

void TestTopology::layoutRanksAndMembers() {
    QFETCH(qint64, npu);
    QFETCH(int, tp_rank);
    QFETCH(int, dp_rank);
    QFETCH(int, pp_rank);
    QFETCH(qint64, dp_first);
    QFETCH(qint64, pp_first);
    const auto layout = ParallelLayout::make(
        switches({8, 128}), {{ParallelAxis::tp, 8}, {ParallelAxis::dp, 8}, {ParallelAxis::pp, 16}});
    QVERIFY(layout.has_value());
    QCOMPARE(layout->rank_in_group(ParallelAxis::tp, npu), tp_rank);
    QCOMPARE(layout->rank_in_group(ParallelAxis::dp, npu), dp_rank);
    QCOMPARE(layout->rank_in_group(ParallelAxis::pp, npu), pp_rank);

    const std::int64_t tp_first = npu - tp_rank;
    std::vector<std::int64_t> tp_members, dp_members, pp_members;
    for (int k = 0; k < 8; ++k) tp_members.push_back(tp_first + k);
    for (int k = 0; k < 8; ++k) dp_members.push_back(dp_first + 8 * k);
    for (int k = 0; k < 16; ++k) pp_members.push_back(pp_first + 64 * k);
    QCOMPARE(layout->group_members(ParallelAxis::tp, npu), tp_members);
    QCOMPARE(layout->group_members(ParallelAxis::dp, npu), dp_members);
    QCOMPARE(layout->group_members(ParallelAxis::pp, npu), pp_members);
    // npu sits in its own groups at its rank.
    QCOMPARE(layout->group_members(ParallelAxis::pp, npu)[static_cast<std::size_t>(pp_rank)], npu);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, static_cast<void>(layout->rank_in_group(ParallelAxis::dp, 1024)));
}

void TestTopology::layoutStridedGroupWithinOneDimension() {
    // Ring(12) with tp2, dp3, pp2: dp members are 2 ids apart, 3 of them, all inside dimension 0 → {0, 2, 4}.
    const Topology ring12({dimension(DimensionKind::ring, 12)});
    const auto ring_layout =
        ParallelLayout::make(ring12, {{ParallelAxis::tp, 2}, {ParallelAxis::dp, 3}, {ParallelAxis::pp, 2}});
    QVERIFY2(ring_layout.has_value(), ring_layout ? "" : ring_layout.error().c_str());
    QCOMPARE(ring_layout->spans(ParallelAxis::tp), (std::vector<DimensionSpan>{{0, 1, 2}}));
    QCOMPARE(ring_layout->spans(ParallelAxis::dp), (std::vector<DimensionSpan>{{0, 2, 3}}));
    QCOMPARE(ring_layout->spans(ParallelAxis::pp), (std::vector<DimensionSpan>{{0, 6, 2}}));
    QCOMPARE(ring_layout->group_members(ParallelAxis::dp, 0), ids({0, 2, 4}));
    // 9 = 1 + 2·1 + 6·1 → dp rank 1, group 7, 9, 11.
    QCOMPARE(ring_layout->group_members(ParallelAxis::dp, 9), ids({7, 9, 11}));

    // [8, 4] with tp2, dp4, pp4: dp spans dimension 0 at coordinate stride 2, 4 members; pp is all of dimension 1.
    const auto layout =
        ParallelLayout::make(switches({8, 4}), {{ParallelAxis::tp, 2}, {ParallelAxis::dp, 4}, {ParallelAxis::pp, 4}});
    QVERIFY(layout.has_value());
    QCOMPARE(layout->spans(ParallelAxis::dp), (std::vector<DimensionSpan>{{0, 2, 4}}));
    QCOMPARE(layout->spans(ParallelAxis::pp), (std::vector<DimensionSpan>{{1, 1, 4}}));
    // 13 = coordinates (5, 1); dp rank (13 / 2) mod 4 = 2; group 13 − 2·2 = 9, 11, 13, 15 = x 1, 3, 5, 7 in row 1.
    QCOMPARE(layout->group_members(ParallelAxis::dp, 13), ids({9, 11, 13, 15}));
}

void TestTopology::layoutGroupAcrossPartsOfTwoDimensions() {
    // [4, 4] with tp2, dp4, pp2. dp ids are 2 apart, 4 of them: 0, 2, 4, 6 = (0,0), (2,0), (0,1), (2,1):
    // dimension 0 at stride 2 × 2 members, then dimension 1 at stride 1 × 2 members.
    const auto layout =
        ParallelLayout::make(switches({4, 4}), {{ParallelAxis::tp, 2}, {ParallelAxis::dp, 4}, {ParallelAxis::pp, 2}});
    QVERIFY2(layout.has_value(), layout ? "" : layout.error().c_str());
    QCOMPARE(layout->spans(ParallelAxis::tp), (std::vector<DimensionSpan>{{0, 1, 2}}));
    QCOMPARE(layout->spans(ParallelAxis::dp), (std::vector<DimensionSpan>{{0, 2, 2}, {1, 1, 2}}));
    // pp: ids 8 apart, 2 of them: dimension 1 (place value 4) at coordinate stride 8/4 = 2.
    QCOMPARE(layout->spans(ParallelAxis::pp), (std::vector<DimensionSpan>{{1, 2, 2}}));
    QCOMPARE(layout->group_members(ParallelAxis::dp, 0), ids({0, 2, 4, 6}));
    QCOMPARE(layout->group_members(ParallelAxis::dp, 11), ids({9, 11, 13, 15}));  // 11 = 1 + 2·1 + 8·1
    QCOMPARE(layout->group_members(ParallelAxis::pp, 6), ids({6, 14}));
}

void TestTopology::layoutAbsentAxis() {
    const auto layout = ParallelLayout::make(switches({8, 128}), {{ParallelAxis::tp, 8}, {ParallelAxis::dp, 128}});
    QVERIFY(layout.has_value());
    QCOMPARE(layout->degree(ParallelAxis::cp), 1);
    QVERIFY(layout->spans(ParallelAxis::cp).empty());
    QCOMPARE(layout->group_members(ParallelAxis::cp, 37), ids({37}));
    QCOMPARE(layout->rank_in_group(ParallelAxis::cp, 37), 0);
    QCOMPARE(layout->spans(ParallelAxis::dp), (std::vector<DimensionSpan>{{1, 1, 128}}));
}

void TestTopology::layoutRejectsDegreeProductMismatch() {
    // 8 · 8 · 8 = 512, but [8, 128] has 1024 devices.
    const auto layout = ParallelLayout::make(
        switches({8, 128}), {{ParallelAxis::tp, 8}, {ParallelAxis::dp, 8}, {ParallelAxis::pp, 8}});
    QVERIFY(!layout.has_value());
    QCOMPARE(qs(layout.error()), QStringLiteral("the parallel degrees multiply to 512 but the topology has 1024 devices"));
}

void TestTopology::layoutRejectsUnevenCut_data() {
    QTest::addColumn<QList<int>>("sizes");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("dp");
    QTest::addColumn<QString>("expected");
    // tp4 on a 6-wide dimension: groups {0..3}, {4, 5, 6, 7} — the second straddles two rows.
    QTest::newRow("[6,4] tp4 dp6") << QList<int>{6, 4} << 4 << 6 << "tp=4 cuts topology dimension 0 (size 6) unevenly";
    QTest::newRow("[2,3] tp3 dp2") << QList<int>{2, 3} << 3 << 2 << "tp=3 cuts topology dimension 0 (size 2) unevenly";
    // Valid ones: every boundary divides the next (dp starts at id 2 inside 4-wide dimension 0, ends on a boundary).
    QTest::newRow("[4,6] tp2 dp12") << QList<int>{4, 6} << 2 << 12 << "";  // valid: 2 × 2 within dim 0, then dim 1
    QTest::newRow("[4,3] tp2 dp6") << QList<int>{4, 3} << 2 << 6 << "";    // valid: dim 0 stride 2 × 2, dim 1 × 3
    QTest::newRow("[4,4,2] tp2 dp16") << QList<int>{4, 4, 2} << 2 << 16 << "";
    QTest::newRow("[3,4] tp2 dp6") << QList<int>{3, 4} << 2 << 6 << "tp=2 cuts topology dimension 0 (size 3) unevenly";
}

void TestTopology::layoutRejectsUnevenCut() {
    QFETCH(QList<int>, sizes);
    QFETCH(int, tp);
    QFETCH(int, dp);
    QFETCH(QString, expected);
    const auto layout = ParallelLayout::make(switches(std::vector<int>(sizes.begin(), sizes.end())),
                                             {{ParallelAxis::tp, tp}, {ParallelAxis::dp, dp}});
    if (expected.isEmpty()) {
        QVERIFY2(layout.has_value(), layout ? "" : layout.error().c_str());
        return;
    }
    QVERIFY(!layout.has_value());
    QVERIFY2(qs(layout.error()).startsWith(expected), layout.error().c_str());
    QVERIFY(qs(layout.error()).contains("evenly strided part of one"));
}

void TestTopology::layoutRejectsDegreeBelowOne_data() {
    QTest::addColumn<int>("degree");
    QTest::newRow("zero") << 0;
    QTest::newRow("negative") << -2;
}

void TestTopology::layoutRejectsDegreeBelowOne() {
    QFETCH(int, degree);
    const auto layout = ParallelLayout::make(switches({8}), {{ParallelAxis::tp, 8}, {ParallelAxis::pp, degree}});
    QVERIFY(!layout.has_value());
    QCOMPARE(qs(layout.error()), QStringLiteral("pp must be at least 1, not %1").arg(degree));
}

QTEST_APPLESS_MAIN(TestTopology)
#include "test_topology.moc"

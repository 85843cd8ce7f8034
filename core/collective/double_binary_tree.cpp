// Double binary tree (Sanders, Speck & Träff 2009; NCCL 2.4): the buffer is halved, each half reduced up one tree and
// broadcast down it; every member is a leaf in one tree and interior in the other, so both trees pipeline in parallel.
// Trees only make all-reduce and broadcast faster; reduce-scatter, all-gather and all-to-all run as a ring.
#include "collective/phase_cost.h"

namespace parasight {
namespace {

int tree_depth(int members) {
    int depth = 0;
    for (int reach = 1; reach < members; reach *= 2) ++depth;
    return depth;
}

// What the busiest member sends in a tree all-reduce. With four or more members some member is interior in one tree
// (half up to its parent, two halves down to its children) and a leaf in the other (half up): 2 buffers. With three,
// the root of one tree sends two halves down and, as a leaf of the other, one half up; with two, each sends one half
// up and one half down.
double busiest_all_reduce_bytes(int members, double data_bytes) {
    if (members >= 4) return 2.0 * data_bytes;
    if (members == 3) return 1.5 * data_bytes;
    return data_bytes;
}

}  // namespace

PhaseCost double_binary_tree_phase(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    const int n = group.members;
    const int depth = tree_depth(n);
    const int hops = hops_between(group.link.kind, group.link.size, group.stride * (n / 2));
    switch (op) {
    case CollectiveOp::all_reduce:
        return make_phase_cost(CollectiveAlgorithm::double_binary_tree, busiest_all_reduce_bytes(n, data_bytes),
                               2 * depth, hops, group);
    case CollectiveOp::broadcast:
        // Each half goes down its own tree; an interior member forwards its half to two children.
        return make_phase_cost(CollectiveAlgorithm::double_binary_tree, data_bytes, depth, hops, group);
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather:
    case CollectiveOp::all_to_all:
        return ring_phase(op, data_bytes, group);
    }
    return {};
}

}  // namespace parasight

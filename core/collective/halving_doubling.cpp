// Recursive halving (reduce-scatter) and doubling (all-gather), Thakur, Rabenseifner & Gropp 2005: log2 n steps
// moving n/2, n/4, … shares. For n not a power of two, the r = n − p members beyond the largest power of two p fold
// into a partner first and are served by it last (Thakur et al. §4.4): the partner's critical path gains a step and
// the whole buffer at each end of an all-reduce; a reduce-scatter folds the buffer in and hands one share back, an
// all-gather takes one share in and hands the whole buffer back.
#include "collective/phase_cost.h"

namespace parasight {

PhaseCost halving_doubling_phase(CollectiveOp op, double data_bytes, const GroupDimension& group) {
    const int n = group.members;
    int p = 1;
    int log2_p = 0;
    while (p * 2 <= n) {
        p *= 2;
        ++log2_p;
    }
    const bool folded = p != n;
    const double halving_bytes = data_bytes * (p - 1) / p;
    const int fold_steps = folded ? 2 : 0;
    const double all_reduce_fold_bytes = folded ? 2.0 * data_bytes : 0.0;
    const double half_fold_bytes = folded ? data_bytes + data_bytes / n : 0.0;
    const int hops = hops_between(group.link.kind, group.link.size, group.stride * (n / 2));
    switch (op) {
    case CollectiveOp::all_reduce:
        return make_phase_cost(CollectiveAlgorithm::halving_doubling, 2.0 * halving_bytes + all_reduce_fold_bytes,
                               2 * log2_p + fold_steps, hops, group);
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather:
        return make_phase_cost(CollectiveAlgorithm::halving_doubling, halving_bytes + half_fold_bytes,
                               log2_p + fold_steps, hops, group);
    case CollectiveOp::all_to_all:
        // Pairwise exchange: n−1 steps, one share to each partner.
        return make_phase_cost(CollectiveAlgorithm::halving_doubling, data_bytes * (n - 1) / n, n - 1, hops, group);
    case CollectiveOp::broadcast:
        // Binomial scatter, then recursive-doubling all-gather (van de Geijn); the folded members get the whole
        // buffer from their partner at the end.
        return make_phase_cost(CollectiveAlgorithm::halving_doubling,
                               2.0 * halving_bytes + (folded ? data_bytes : 0.0), 2 * log2_p + (folded ? 1 : 0), hops,
                               group);
    }
    return {};
}

}  // namespace parasight

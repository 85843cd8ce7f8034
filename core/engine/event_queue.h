#pragma once
// The engine's event queue: when each running activity ends, the earliest first and, of equal times, the one
// scheduled first, so that a run is deterministic. An activity has one end at most: scheduling it again (its rate
// changed) moves its end where it is in the heap instead of leaving a stale one behind — more than half the ends a
// run schedules are re-scheduled so. Times are never negative (nor −0: the engine's clock starts at +0 and only moves
// forward), so their bit patterns order as the times do and are compared as integers.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace parasight {

class EventQueue {
public:
    struct Event {
        std::uint64_t time_bits = 0;  // of the time, a double
        std::uint64_t sequence = 0;   // the order it was scheduled in
        std::int32_t activity = -1;
        // Named so that an event is copied whole, in the same words it is loaded in: a copy that stored only the
        // activity's four bytes could not forward to the eight-byte load of this word that follows it.
        std::int32_t unused = 0;

        [[nodiscard]] bool before(const Event& other) const {
            return time_bits != other.time_bits ? time_bits < other.time_bits : sequence < other.sequence;
        }
        [[nodiscard]] double time_s() const { return std::bit_cast<double>(time_bits); }
    };

    // One more activity, numbered as many as there were before: activities are 0, 1, … in the order added.
    void add_activity() { position_.push_back(-1); }

    // `activity` (one added) ends at `time_s` (≥ 0): its end added, or moved.
    void schedule(std::int32_t activity, double time_s) {
        const auto a = static_cast<std::size_t>(activity);
        const Event event{std::bit_cast<std::uint64_t>(time_s), sequence_++, activity};
        if (position_[a] < 0) {
            heap_.emplace_back();
            sift_up(heap_.size() - 1, event);
            return;
        }
        const auto at = static_cast<std::size_t>(position_[a]);
        if (event.before(heap_[at])) {
            sift_up(at, event);
        } else {
            sift_down(at, event);
        }
    }

    [[nodiscard]] bool scheduled(std::int32_t activity) const {
        return position_[static_cast<std::size_t>(activity)] >= 0;
    }

    [[nodiscard]] bool empty() const { return heap_.empty(); }
    [[nodiscard]] std::size_t size() const { return heap_.size(); }

    // The earliest end, taken off the queue (the queue is not empty).
    Event pop() {
        const Event first = heap_.front();
        position_[static_cast<std::size_t>(first.activity)] = -1;
        const Event last = heap_.back();
        heap_.pop_back();
        if (heap_.empty()) return first;
        // The hole left at the top goes down to a leaf, the earlier child moving up at each level, and the last event
        // fills it from there up (Wegener's bottom-up heapsort): the last event belongs near the bottom, so this
        // saves comparing it with each level's earlier child on the way down — a branch taken about half the time,
        // which the processor mispredicts as often — for a comparison or two on the way back up (the engine ran 6%
        // faster). Keys are unique (the sequence breaks ties), so events come out in the same order either way.
        const std::size_t size = heap_.size();
        std::size_t at = 0;
        for (std::size_t child = 1; child < size; child = 2 * at + 1) {
            if (child + 1 < size) child += static_cast<std::size_t>(heap_[child + 1].before(heap_[child]));
            place(at, heap_[child]);
            at = child;
        }
        sift_up(at, last);
        return first;
    }

private:
    // A binary heap (four children a node was tried: more instructions). The sifts place `event`, held in registers,
    // into the hole at `at`: reading it back from where it was just stored would stall the processor (a store of the
    // activity's four bytes forwards to no eight-byte load of the event's last word).
    void place(std::size_t at, const Event& event) {
        heap_[at] = event;
        position_[static_cast<std::size_t>(event.activity)] = static_cast<std::int32_t>(at);
    }

    void sift_up(std::size_t at, const Event event) {
        while (at > 0) {
            const std::size_t parent = (at - 1) / 2;
            if (!event.before(heap_[parent])) break;
            place(at, heap_[parent]);
            at = parent;
        }
        place(at, event);
    }

    void sift_down(std::size_t at, const Event event) {
        const std::size_t size = heap_.size();
        while (true) {
            std::size_t child = 2 * at + 1;
            if (child >= size) break;
            if (child + 1 < size && heap_[child + 1].before(heap_[child])) ++child;
            if (!heap_[child].before(event)) break;
            place(at, heap_[child]);
            at = child;
        }
        place(at, event);
    }

    std::vector<Event> heap_;
    std::vector<std::int32_t> position_;  // by activity: its end's index in heap_, −1 when none
    std::uint64_t sequence_ = 0;
};

}  // namespace parasight

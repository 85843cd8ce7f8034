#pragma once
// The narrow interface through which a running simulation reports progress and learns that it should stop. The
// command line and the GUI each implement it (OMNeT++'s way: the kernel knows no front end).

namespace parasight {

class ProgressSink {
public:
    ProgressSink() = default;
    ProgressSink(const ProgressSink&) = delete;
    ProgressSink& operator=(const ProgressSink&) = delete;
    virtual ~ProgressSink() = default;

    // `fraction` of the work is done, 0 to 1. Called often; keep it cheap.
    virtual void progress(double fraction) = 0;
    // Polled between events: true stops the simulation as soon as possible.
    [[nodiscard]] virtual bool cancelled() const = 0;
};

}  // namespace parasight

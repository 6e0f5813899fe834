#include "runtime/cuda_device.h"

#include "core/error.h"

#include <ATen/Context.h>

#ifdef KILN_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace kiln::runtime {

#ifdef KILN_WITH_CUDA
namespace {

class CudaEvent : public TimingEvent {
public:
    CudaEvent() : event_(cudaEventDefault) { event_.record(at::cuda::getCurrentCUDAStream()); }
    bool complete() const override { return event_.query(); }
    void wait() const override { event_.synchronize(); }
    double seconds_since(const TimingEvent& earlier) const override {
        const auto& start = static_cast<const CudaEvent&>(earlier);
        return double(start.event_.elapsed_time(event_)) / 1000.0;
    }

private:
    at::cuda::CUDAEvent event_;
};

class CudaEvents : public EventSource {
public:
    std::unique_ptr<TimingEvent> record() override { return std::make_unique<CudaEvent>(); }
};

} // namespace

std::shared_ptr<EventSource> cuda_events() {
    return std::make_shared<CudaEvents>();
}

void use_cuda_device(int index) {
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(index));
    at::globalContext().setBenchmarkCuDNN(true);
}
#else
void use_cuda_device(int index) {
    (void)index;
    throw Error("this build of Kiln has no CUDA: build it against a CUDA LibTorch");
}

std::shared_ptr<EventSource> cuda_events() {
    throw Error("this build of Kiln has no CUDA: build it against a CUDA LibTorch");
}
#endif

} // namespace kiln::runtime

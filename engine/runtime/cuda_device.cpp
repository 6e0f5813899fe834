#include "runtime/cuda_device.h"

#include "core/error.h"

#include <ATen/Context.h>

#ifdef KILN_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <map>
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

// One per device and thread: each rank's loop copies its batches in order on its own stream.
c10::cuda::CUDAStream copy_stream(c10::DeviceIndex device) {
    thread_local std::map<c10::DeviceIndex, c10::cuda::CUDAStream> streams;
    auto found = streams.find(device);
    if (found == streams.end()) {
        found = streams.emplace(device, c10::cuda::getStreamFromPool(false, device)).first;
    }
    return found->second;
}

} // namespace

at::Tensor copy_to_device(const at::Tensor& host, c10::Device device, c10::ScalarType dtype,
                          c10::MemoryFormat format) {
    if (!device.is_cuda() || !host.device().is_cpu()) {
        return host.to(device, dtype).contiguous(format);
    }
    const c10::cuda::CUDAStream computing = c10::cuda::getCurrentCUDAStream(device.index());
    const c10::cuda::CUDAStream copying = copy_stream(device.index());
    at::Tensor placed;
    {
        const c10::cuda::CUDAStreamGuard on_copy_stream(copying);
        placed = host.to(device, dtype, /*non_blocking=*/true);
    }
    at::cuda::CUDAEvent copied;
    copied.record(copying);
    copied.block(computing);
    // Allocated for the copy stream: not to be reused before the computing stream is done.
    placed.record_stream(computing);
    return placed.contiguous(format);
}

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

at::Tensor copy_to_device(const at::Tensor& host, c10::Device device, c10::ScalarType dtype,
                          c10::MemoryFormat format) {
    return host.to(device, dtype).contiguous(format);
}
#endif

} // namespace kiln::runtime

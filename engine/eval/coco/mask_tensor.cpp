#include "eval/coco/mask_tensor.h"

#include "core/error.h"
#include "core/parallel_for.h"

#include <ATen/ATen.h>

namespace kiln::coco {
namespace {

at::Tensor as_cpu_bytes(const at::Tensor& masks, int64_t dimensions) {
    if (masks.dim() != dimensions) {
        throw Error("a mask tensor must have " + std::to_string(dimensions) +
                    " dimensions; got shape " + c10::str(masks.sizes()));
    }
    if (masks.scalar_type() != at::kBool && masks.scalar_type() != at::kByte) {
        throw Error(std::string("a mask tensor must be bool or uint8; got ") +
                    c10::toString(masks.scalar_type()) + "; threshold it first (mask > 0.5)");
    }
    // Only the last dimension needs to be contiguous; rows may be strided.
    at::Tensor bytes = masks.to(at::kCPU);
    if (bytes.stride(-1) != 1) {
        bytes = bytes.contiguous();
    }
    return bytes;
}

Rle encode_plane(const at::Tensor& plane) {
    return encode_mask(static_cast<const std::uint8_t*>(plane.data_ptr()),
                       static_cast<std::uint32_t>(plane.size(0)),
                       static_cast<std::uint32_t>(plane.size(1)),
                       static_cast<std::size_t>(plane.stride(0)));
}

} // namespace

Rle encode_mask(const at::Tensor& mask) {
    return encode_plane(as_cpu_bytes(mask, 2));
}

std::vector<Rle> encode_masks(const at::Tensor& masks, int threads) {
    const at::Tensor bytes = as_cpu_bytes(masks, 3);
    std::vector<Rle> encoded(static_cast<std::size_t>(bytes.size(0)));
    parallel_for(encoded.size(), threads, 8, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            encoded[i] = encode_plane(bytes[static_cast<int64_t>(i)]);
        }
    });
    return encoded;
}

} // namespace kiln::coco

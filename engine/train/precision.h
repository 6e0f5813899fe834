#pragma once

#include "core/run_config.h"

#include <c10/core/ScalarType.h>

namespace kiln::train {

// The dtype weights and inputs are held in for a precision: 64-true float64, bf16-true
// bfloat16, otherwise float32 (the mixed precisions autocast from float32).
inline c10::ScalarType storage_dtype(Precision precision) {
    switch (precision) {
    case Precision::Full64:
        return c10::ScalarType::Double;
    case Precision::BF16True:
        return c10::ScalarType::BFloat16;
    default:
        return c10::ScalarType::Float;
    }
}

// Whether the computation runs under CPU autocast to bfloat16.
inline bool autocasts_to_bf16(Precision precision) {
    return precision == Precision::BF16Mixed;
}

} // namespace kiln::train

#pragma once

#include <string>
#include <utility>
#include <vector>

namespace kiln {

enum class Precision { Auto, Full32, BF16Mixed, FP16Mixed, BF16True, FP16True, Full64 };

// The precisions and their names (LightlyTrain's spelling), in the order choices are offered:
// the one table that the schema, parsing, printing and Studio's choices read.
inline const std::vector<std::pair<Precision, std::string>>& precision_names() {
    static const std::vector<std::pair<Precision, std::string>> names = {
        {Precision::Auto, "auto"},
        {Precision::Full32, "32-true"},
        {Precision::BF16Mixed, "bf16-mixed"},
        {Precision::FP16Mixed, "16-mixed"},
        {Precision::BF16True, "bf16-true"},
        {Precision::FP16True, "16-true"},
        {Precision::Full64, "64-true"}};
    return names;
}

} // namespace kiln

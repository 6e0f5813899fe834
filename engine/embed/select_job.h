#pragma once

#include "config/run_config.h"
#include "embed/selection.h"
#include "embed/writers.h"

#include <cstdint>
#include <string>

namespace kiln::embed {

struct SelectSummary {
    std::int64_t picked = 0;
    std::int64_t images = 0;     // in the embeddings file
    std::int64_t labelled = 0;   // already_labelled matched to them
    std::int64_t duplicates = 0; // left out by exclude_duplicates
    std::filesystem::path names; // `out`
    std::filesystem::path table; // the CSV beside it
};

// `kiln select`: reads the embeddings (with checkpoint=, embeds data first into
// embedded_path(config)) and already_labelled, picks, and only then writes `out`
// (names, one a line, in the order picked) and <stem>.csv (name, rank, score, cluster), both
// atomically. Every problem (a malformed file, n beyond the images that may be picked, a
// labelled name the embeddings do not list) is a kiln::Error naming the input, before anything
// is written. A `stop` requested (Ctrl-C) ends the embedding or the pick with a kiln::Error,
// nothing written.
SelectSummary select_for_labelling(const SelectConfig& config, const StopToken* stop = nullptr);

// What `config` picks with from `file` (read from `source`): its strategy, seed and whitening,
// the rows already_labelled names, the near-duplicates exclude_duplicates leaves out, and n as a
// count. A name `file` lists twice, an already_labelled image it lacks and an n beyond the
// images that may be picked are kiln::Errors naming the input. Studio's Select for Labelling
// picks with it too.
SelectionOptions selection_options(const SelectConfig& config, const EmbeddingFile& file,
                                   const std::filesystem::path& source);

// Where the CSV of `out` goes: picks.txt -> picks.csv (picks.csv -> picks.scores.csv).
std::filesystem::path selection_table_path(const std::filesystem::path& out);

} // namespace kiln::embed

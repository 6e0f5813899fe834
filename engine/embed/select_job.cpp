#include "embed/select_job.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "core/text.h"
#include "data/dataset_index.h"
#include "embed/embedder.h"
#include "embed/explorer.h"
#include "embed/selection.h"
#include "embed/writers.h"
#include "system/hardware.h"
#include "system/num_workers.h"

#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace kiln::embed {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> labelled_names(const fs::path& source) {
    std::vector<std::string> names;
    std::error_code error;
    if (fs::is_directory(source, error)) {
        const data::DatasetIndex index = data::DatasetIndex::scan({source});
        for (std::size_t i = 0; i < index.size(); ++i) {
            names.emplace_back(index.filename(i));
        }
        return names;
    }
    refuse_special_file(source, "already_labelled");
    std::ifstream in(source);
    if (!in) {
        throw Error("cannot read already_labelled \"" + source.string() + "\"");
    }
    for (std::string line; std::getline(in, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
            line.pop_back();
        }
        if (!line.empty()) {
            names.push_back(line);
        }
    }
    return names;
}

// The rows of `names`: each matched by its name as the embeddings list it, else by its file
// name when exactly one embedding has that file name (a labelled copy in class folders).
std::vector<std::int64_t> rows_of_names(const std::vector<std::string>& names,
                                        const EmbeddingFile& file, const fs::path& source) {
    std::unordered_map<std::string, std::int64_t> by_name, by_file;
    for (std::size_t row = 0; row < file.filenames.size(); ++row) {
        by_name.emplace(file.filenames[row], std::int64_t(row));
        const std::string leaf = fs::path(file.filenames[row]).filename().string();
        const auto [at, added] = by_file.emplace(leaf, std::int64_t(row));
        if (!added) {
            at->second = -1; // ambiguous
        }
    }
    std::vector<std::int64_t> rows;
    std::vector<std::string> unknown;
    for (const std::string& name : names) {
        if (const auto found = by_name.find(name); found != by_name.end()) {
            rows.push_back(found->second);
        } else if (const auto leaf = by_file.find(fs::path(name).filename().string());
                   leaf != by_file.end() && leaf->second >= 0) {
            rows.push_back(leaf->second);
        } else {
            unknown.push_back(name);
        }
    }
    if (!unknown.empty()) {
        throw Error("already_labelled \"" + source.string() + "\": " +
                    std::to_string(unknown.size()) + " of its " + std::to_string(names.size()) +
                    " images are not in the embeddings, the first \"" + unknown.front() +
                    "\"; list the names as the embeddings file does (e.g. \"" +
                    file.filenames.front() + "\"), or embed those images too");
    }
    return rows;
}

// A pick is written as a name, so each name must mean one image: two data folders holding the
// same relative path, embedded into one file, make a list no one could act on.
void refuse_repeated_names(const EmbeddingFile& file, const fs::path& embeddings) {
    std::unordered_map<std::string_view, std::size_t> rows;
    for (std::size_t row = 0; row < file.filenames.size(); ++row) {
        if (const auto [earlier, added] = rows.emplace(file.filenames[row], row); !added) {
            throw Error("\"" + embeddings.string() + "\" names \"" +
                        terminal_text(file.filenames[row]) + "\" twice (rows " +
                        std::to_string(earlier->second + 1) + " and " + std::to_string(row + 1) +
                        "), so a pick of that name would not say which image; embed each data "
                        "folder into its own file and select from one, or rename the images");
        }
    }
}

// The images left out as near-duplicates of an earlier image that is kept.
std::vector<std::int64_t> duplicate_rows(const at::Tensor& embeddings, double threshold) {
    std::vector<std::int64_t> rows;
    for (const Duplicate& duplicate : near_duplicates(embeddings, threshold)) {
        rows.push_back(duplicate.row);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

// With checkpoint=: kiln embed's defaults over `data`, written beside `out` as torch.
fs::path embed_first(const SelectConfig& config) {
    const nlohmann::json settings = {{"out", embedded_path(config).string()},
                                     {"data", to_json(config)["data"]},
                                     {"checkpoint", config.checkpoint->string()},
                                     {"format", "torch"},
                                     {"overwrite", config.overwrite}};
    const ResolveContext context{system::probe_hardware(),
                                 system::WorkerEnvironment::from_process()};
    run_embedding(resolve_embed_config(settings, context));
    return embedded_path(config);
}

} // namespace

fs::path selection_table_path(const fs::path& out) {
    fs::path table = out;
    return out.extension() == ".csv" ? table.replace_extension(".scores.csv")
                                     : table.replace_extension(".csv");
}

SelectionOptions selection_options(const SelectConfig& config, const EmbeddingFile& file,
                                   const fs::path& source) {
    refuse_repeated_names(file, source);
    SelectionOptions options;
    options.strategy = selection_strategy(config.strategy);
    options.seed = static_cast<std::uint64_t>(config.seed);
    options.whiten = config.whiten;
    if (config.already_labelled) {
        options.labelled =
            rows_of_names(labelled_names(*config.already_labelled), file, *config.already_labelled);
    }
    if (config.exclude_duplicates) {
        options.excluded = duplicate_rows(file.embeddings, config.duplicate_threshold);
    }
    std::vector<bool> closed(file.filenames.size(), false);
    for (const auto* rows : {&options.labelled, &options.excluded}) {
        for (const std::int64_t row : *rows) {
            closed[std::size_t(row)] = true;
        }
    }
    const auto open = std::int64_t(std::count(closed.begin(), closed.end(), false));
    options.count =
        config.n < 1 ? std::int64_t(std::llround(config.n * double(open))) : std::int64_t(config.n);
    if (options.count < 1 || options.count > open) {
        throw Error("n=" + std::to_string(options.count) + " but only " + std::to_string(open) +
                    " of the " + std::to_string(file.filenames.size()) + " images in \"" +
                    source.string() +
                    "\" may be picked (the others are labelled already or duplicates); choose n "
                    "between 1 and " +
                    std::to_string(open));
    }
    return options;
}

SelectSummary select_for_labelling(const SelectConfig& config) {
    const fs::path embeddings = config.checkpoint ? embed_first(config) : config.embeddings;
    const EmbeddingFile file = read_embeddings(embeddings);
    const SelectionOptions options = selection_options(config, file, embeddings);
    const Selection selection = select_rows(file.embeddings, options);

    std::ostringstream names, table;
    table << "name,rank,score,cluster\n";
    for (std::size_t i = 0; i < selection.rows.size(); ++i) {
        const std::string& name = file.filenames[std::size_t(selection.rows[i])];
        names << name << "\n";
        table << csv_field(name) << "," << i + 1 << "," << selection.scores[i] << ","
              << selection.clusters[i] << "\n";
    }
    SelectSummary summary;
    summary.names = config.out;
    summary.table = selection_table_path(config.out);
    // With overwrite=true, out=x.txt wrote its scores over the embeddings x.csv it read.
    for (const fs::path& written : {summary.names, summary.table}) {
        std::error_code error;
        for (const std::optional<fs::path>& read :
             {std::optional<fs::path>(embeddings), config.already_labelled}) {
            if (read && fs::equivalent(written, *read, error)) {
                throw Error("out \"" + config.out.string() + "\" would write \"" +
                            written.string() +
                            "\", which this selection reads; choose another out");
            }
        }
    }
    if (!config.overwrite && fs::exists(summary.table)) {
        throw Error("\"" + summary.table.string() +
                    "\" exists; set overwrite=true to replace it or choose another out");
    }
    write_file_atomically(summary.table, table.str());
    write_file_atomically(config.out, names.str());
    summary.picked = std::int64_t(selection.rows.size());
    summary.images = std::int64_t(file.filenames.size());
    summary.labelled = std::int64_t(options.labelled.size());
    summary.duplicates = std::int64_t(options.excluded.size());
    return summary;
}

} // namespace kiln::embed

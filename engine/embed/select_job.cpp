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

// The rows of `names`, each once: each matched by its name as the embeddings list it, else by its
// file name when exactly one embedding has that file name (a labelled copy in class folders).
std::vector<std::int64_t> rows_of_names(const std::vector<std::string>& names,
                                        const EmbeddingFile& file, const fs::path& source) {
    constexpr std::int64_t kAmbiguous = -1;
    std::unordered_map<std::string, std::int64_t> by_name, by_file;
    for (std::size_t row = 0; row < file.filenames.size(); ++row) {
        by_name.emplace(file.filenames[row], std::int64_t(row));
        const std::string leaf = fs::path(file.filenames[row]).filename().string();
        const auto [at, added] = by_file.emplace(leaf, std::int64_t(row));
        if (!added) {
            at->second = kAmbiguous;
        }
    }
    std::vector<std::int64_t> rows;
    std::vector<std::string> unknown, ambiguous;
    for (const std::string& name : names) {
        const auto leaf = by_file.find(fs::path(name).filename().string());
        if (const auto found = by_name.find(name); found != by_name.end()) {
            rows.push_back(found->second);
        } else if (leaf == by_file.end()) {
            unknown.push_back(name);
        } else if (leaf->second == kAmbiguous) {
            ambiguous.push_back(name);
        } else {
            rows.push_back(leaf->second);
        }
    }
    const std::string problem = "already_labelled \"" + terminal_text(source.string()) + "\": ";
    if (!unknown.empty()) {
        throw Error(
            problem + std::to_string(unknown.size()) + " of its " + std::to_string(names.size()) +
            " images are not in the embeddings, the first \"" + terminal_text(unknown.front()) +
            "\"; list the names as the embeddings file does (e.g. \"" +
            terminal_text(file.filenames.front()) + "\"), or embed those images too");
    }
    if (!ambiguous.empty()) {
        throw Error(problem + "\"" + terminal_text(ambiguous.front()) +
                    "\" is not a name in the embeddings, and several of them have its file name; "
                    "list the names as the embeddings file does, folders included");
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

// The images left out as near-duplicates: of an earlier image that is kept, or of a labelled one.
std::vector<std::int64_t> duplicate_rows(const at::Tensor& embeddings,
                                         const std::vector<std::int64_t>& labelled,
                                         double threshold) {
    std::vector<std::int64_t> rows = rows_near(embeddings, labelled, threshold);
    for (const Duplicate& duplicate : near_duplicates(embeddings, threshold)) {
        rows.push_back(duplicate.row);
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    // A labelled image is closed already; counted once, as labelled.
    std::vector<std::int64_t> others;
    std::set_difference(rows.begin(), rows.end(), labelled.begin(), labelled.end(),
                        std::back_inserter(others));
    return others;
}

// The number of images `n` asks for, of `open` that may be picked, or a kiln::Error.
std::int64_t pick_count(double n, std::int64_t open, const EmbeddingFile& file,
                        const fs::path& source) {
    const auto count = n < 1 ? std::int64_t(std::llround(n * double(open))) : std::int64_t(n);
    const std::string images = "\"" + terminal_text(source.string()) + "\"";
    if (open == 0) {
        throw Error("nothing is left to pick: the " + std::to_string(file.filenames.size()) +
                    " images in " + images + " are labelled already or duplicates");
    }
    if (count < 1) {
        throw Error("n=" + number_text(n) + " is a fraction of the " + std::to_string(open) +
                    " images of " + images +
                    " that may be picked, and less than one image; choose a larger fraction, or "
                    "a count");
    }
    if (count > open) {
        const auto closed = std::int64_t(file.filenames.size()) - open;
        throw Error("n=" + std::to_string(count) + " but only " + std::to_string(open) +
                    " of the " + std::to_string(file.filenames.size()) + " images in " + images +
                    " may be picked" +
                    (closed > 0 ? " (the others are labelled already or duplicates)" : "") +
                    "; choose n between 1 and " + std::to_string(open));
    }
    return count;
}

// With checkpoint=: kiln embed's defaults over `data`, written beside `out` as torch.
fs::path embed_first(const SelectConfig& config, const StopToken* stop) {
    const nlohmann::json settings = {{"out", embedded_path(config).string()},
                                     {"data", to_json(config)["data"]},
                                     {"checkpoint", config.checkpoint->string()},
                                     {"format", "torch"},
                                     {"overwrite", config.overwrite}};
    const ResolveContext context{system::probe_hardware(),
                                 system::WorkerEnvironment::from_process()};
    run_embedding(resolve_embed_config(settings, context), {},
                  stop != nullptr ? *stop : StopToken());
    return embedded_path(config);
}

void refuse_existing_table(const SelectConfig& config) {
    const fs::path table = selection_table_path(config.out);
    if (!config.overwrite && fs::exists(table)) {
        throw Error("\"" + table.string() +
                    "\" exists; set overwrite=true to replace it or choose another out");
    }
}

// With checkpoint=, what needs no embeddings is checked before embedding writes anything: the
// output, the labelled names and n, against the images of `data` (the readable of which the
// embeddings will hold).
void check_before_embedding(const SelectConfig& config) {
    refuse_existing_table(config);
    const data::DatasetIndex index = data::DatasetIndex::scan(config.data);
    if (index.size() == 0) {
        return; // embedding says what is wrong with the folders
    }
    EmbeddingFile images;
    for (std::size_t i = 0; i < index.size(); ++i) {
        images.filenames.emplace_back(index.filename(i));
    }
    SelectConfig without_duplicates = config; // which are duplicates needs the embeddings
    without_duplicates.exclude_duplicates = false;
    selection_options(without_duplicates, images, config.data.front());
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
        options.excluded =
            duplicate_rows(file.embeddings, options.labelled, config.duplicate_threshold);
    }
    const auto open =
        std::int64_t(file.filenames.size() - options.labelled.size() - options.excluded.size());
    options.count = pick_count(config.n, open, file, source);
    return options;
}

SelectSummary select_for_labelling(const SelectConfig& config, const StopToken* stop) {
    if (config.checkpoint) {
        check_before_embedding(config);
    }
    const fs::path embeddings = config.checkpoint ? embed_first(config, stop) : config.embeddings;
    const EmbeddingFile file = read_embeddings(embeddings);
    SelectionOptions options = selection_options(config, file, embeddings);
    options.stop = stop;
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
             {std::optional<fs::path>(embeddings), std::optional(npy_filenames_path(embeddings)),
              config.already_labelled}) {
            if (read && fs::equivalent(written, *read, error)) {
                throw Error("out \"" + config.out.string() + "\" would write \"" +
                            written.string() +
                            "\", which this selection reads; choose another out");
            }
        }
    }
    refuse_existing_table(config);
    // The pick is both files or neither: a lone table would block a rerun.
    const std::string table_text = table.str();
    const std::string names_text = names.str();
    write_files_atomically({{summary.table, table_text}, {config.out, names_text}});
    summary.picked = std::int64_t(selection.rows.size());
    summary.images = std::int64_t(file.filenames.size());
    summary.labelled = std::int64_t(options.labelled.size());
    summary.duplicates = std::int64_t(options.excluded.size());
    return summary;
}

} // namespace kiln::embed

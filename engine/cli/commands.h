#pragma once

#include "core/stop_token.h"

#include <ostream>
#include <string>
#include <vector>

namespace kiln::cli {

// Where a command's settings come from: an optional JSON file, then key=value overrides.
struct ConfigSource {
    std::string file;
    std::vector<std::string> overrides;
};

// Each command returns the process exit code; user errors are thrown as kiln::Error.
int run_info(std::ostream& out);
int run_config_check(const std::string& command, const ConfigSource& source, std::ostream& out);
// Exit code 0 when the run finished, 130 when it was stopped (Ctrl-C).
int run_train(const ConfigSource& source, const StopToken& stop, std::ostream& out);
int run_list_models(std::ostream& out);
int run_list_methods(std::ostream& out);
int run_embed(const ConfigSource& source, const StopToken& stop, std::ostream& out);

struct KnnArguments {
    std::string checkpoint; // with train and test folders, or:
    std::string train;
    std::string test;
    std::string train_embeddings; // two embedding files
    std::string test_embeddings;
    int image_size = 224;
    int k = 20;
    double temperature = 0.07;
    int batch_size = 128;
    int num_workers = -1; // -1: the automatic policy
};
int run_eval_knn(const KnnArguments& arguments, std::ostream& out);

struct CocoArguments {
    std::string ground_truth;
    std::string results;
    std::string iou_type = "bbox";
    std::vector<int> max_dets{1, 10, 100};
    bool per_class = false;
    bool json = false;
    int threads = 0; // 0: every usable core
};
// pycocotools' summary of a results file against COCO ground truth.
int run_eval_coco(const CocoArguments& arguments, std::ostream& out);

// kiln runs: the runs recorded in run.db files.
int run_runs_list(const std::string& directory, std::ostream& out);
struct RunsArguments {
    std::string run;  // a run directory or its run.db
    long long id = 0; // 0: the newest run in it
    std::string format = "csv";
    std::string out; // export: a file instead of stdout
};
int run_runs_show(const RunsArguments& arguments, std::ostream& out);
int run_runs_export(const RunsArguments& arguments, std::ostream& out);

struct DedupArguments {
    std::string embeddings;
    double threshold = 0.95;
    int limit = 100;
};
int run_dedup(const DedupArguments& arguments, std::ostream& out);

struct ImportIdxArguments {
    std::string images;
    std::string labels;
    std::string out;
    std::string format = "png";
    long long limit = -1; // all
};
int run_import_idx(const ImportIdxArguments& arguments, std::ostream& out);

struct OptimizeDatasetArguments {
    std::string source;
    std::string destination;
    std::string format = "jpg";
    int max_size = 0;
    int quality = 90;
    int num_workers = 0; // 0: one per core
};
int run_optimize_dataset(const OptimizeDatasetArguments& arguments, std::ostream& out);

} // namespace kiln::cli

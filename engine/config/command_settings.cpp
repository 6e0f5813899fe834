// The keys several commands share, and the settings of `kiln embed`, `kiln predict` and
// `kiln export` (the training commands' are in train_settings.cpp).

#include "config/command_settings.h"

#include "data/image_sizes.h"

namespace kiln::config {

using nlohmann::json;

KeySpec data_key() {
    return {.name = "data",
            .kind = ValueKind::PathList,
            .required = true,
            .help = "image folder, or a list of folders and image files"};
}

KeySpec batch_size_key(int default_value, const std::string& help) {
    return {.name = "batch_size",
            .kind = ValueKind::Integer,
            .default_value = default_value,
            .minimum = 1,
            .help = help,
            .form = {FormSection::Main, KILN_FORM_LABEL("Batch size")}};
}

KeySpec num_workers_key() {
    return {.name = "num_workers",
            .kind = ValueKind::Integer,
            .default_value = "auto",
            .allows_auto = true,
            .maximum = 256, // a million started a million threads, deaf to Ctrl-C
            .help = "loader threads per device; auto: min(cores per device - 1, 8)"};
}

KeySpec accelerator_key() {
    return {.name = "accelerator",
            .kind = ValueKind::Choice,
            .default_value = "auto",
            .allows_auto = true,
            .choices = {"cpu", "cuda", "gpu"},
            .help = "auto picks cuda when LibTorch sees a GPU, else cpu"};
}

KeySpec overwrite_key(const std::string& help) {
    return {.name = "overwrite", .kind = ValueKind::Boolean, .default_value = false, .help = help};
}

// Every precision but "auto", which the keys that allow it accept anyway.
std::vector<std::string> precision_choices() {
    std::vector<std::string> choices;
    for (const auto& [precision, name] : precision_names()) {
        if (precision != Precision::Auto) {
            choices.push_back(name);
        }
    }
    return choices;
}

namespace {

// data_key() that may be left out.
KeySpec optional_data_key(const std::string& help) {
    KeySpec key = data_key();
    key.required = false;
    key.allows_null = true;
    key.help = help;
    return key;
}

// The precision of commands that only run the model forward (embed, predict).
KeySpec forward_precision_key() {
    return {.name = "precision",
            .kind = ValueKind::Choice,
            .default_value = "32-true",
            .allows_auto = true,
            .choices = precision_choices(),
            .help = "numeric precision of the forward pass"};
}

// `image_size`: a side or [height, width] into two fields, 0 x 0 for auto (the size the
// checkpoint was trained at); `help` says what is resized to it.
template <class Config> Setting<Config> image_size_setting(std::string help) {
    Setting<Config> setting{{.name = "image_size",
                             .kind = ValueKind::ImageSize,
                             .default_value = "auto",
                             .allows_auto = true,
                             .minimum = data::kMinImageSide,
                             .maximum = data::kMaxImageSide,
                             .help = std::move(help)},
                            {},
                            {}};
    setting.read = [](const json& value, Config& config) {
        if (value.is_array()) { // else auto: 0 x 0 until the model says
            config.image_height = value[0].get<int>();
            config.image_width = value[1].get<int>();
        }
    };
    setting.write = [](const Config& config) -> json {
        return config.image_height > 0 ? json::array({config.image_height, config.image_width})
                                       : json("auto");
    };
    return setting;
}

// `embedding`: one vector per image, or one per location of the backbone's last feature map.
Setting<EmbedConfig> patch_embedding_setting() {
    Setting<EmbedConfig> setting{
        {.name = "embedding",
         .kind = ValueKind::Choice,
         .default_value = "image",
         .choices = {"image", "patch"},
         .help = "image: one vector per image; patch: one per location of the backbone's last "
                 "feature map (a ResNet's stage 4, a ViT's patch tokens), written as "
                 "[images, rows, columns, dimensions] (torch, npy) or a CSV line per location "
                 "(filename,row,column,embedding_0,...)"},
        {},
        {}};
    setting.read = [](const json& value, EmbedConfig& config) {
        config.patches = value == "patch";
    };
    setting.write = [](const EmbedConfig& config) -> json {
        return config.patches ? "patch" : "image";
    };
    return setting;
}

CommandSettings<EmbedConfig> make_embed_settings() {
    using Embed = EmbedConfig;
    return {"embed",
            {
                bind(KeySpec{.name = "out",
                             .kind = ValueKind::Path,
                             .required = true,
                             .help = "embeddings file to write, e.g. embeddings.csv"},
                     &Embed::out),
                bind(data_key(), &Embed::data),
                bind(KeySpec{.name = "checkpoint",
                             .kind = ValueKind::Path,
                             .required = true,
                             .help = "a Kiln checkpoint (last.ckpt) or exported model"},
                     &Embed::checkpoint),
                bind(KeySpec{.name = "format",
                             .kind = ValueKind::Choice,
                             .default_value = "torch",
                             .choices = {"csv", "lightly_csv", "torch", "npy"},
                             .help = "file format of the embeddings"},
                     &Embed::format),
                patch_embedding_setting(),
                image_size_setting<Embed>(
                    "side length, or [height, width], images are resized to; auto: "
                    "the size the checkpoint was trained at (224 when it does not say)"),
                bind(batch_size_key(128, "images per batch"), &Embed::batch_size),
                bind(num_workers_key(), &Embed::num_workers),
                bind_enum(accelerator_key(), &Embed::accelerator, accelerator_names()),
                devices_setting<Embed>(
                    {.name = "devices",
                     .kind = ValueKind::Devices,
                     .default_value = 1,
                     .allows_auto = true,
                     .minimum = 1,
                     .help = "devices that each embed a share of the images, or the GPUs as a "
                             "list ([0, 2]); auto: every GPU, or 1 on cpu"}),
                bind_enum(forward_precision_key(), &Embed::precision, precision_names()),
                bind(overwrite_key("replace `out` when it exists (and npy's names file)"),
                     &Embed::overwrite),
            }};
}

CommandSettings<PredictConfig> make_predict_settings() {
    using Predict = PredictConfig;
    return {"predict",
            {
                bind(KeySpec{.name = "out",
                             .kind = ValueKind::Path,
                             .required = true,
                             .help = "classification: a CSV file (filename,class,score); semantic "
                                     "segmentation: a folder of PNG masks; detection and "
                                     "instance segmentation: a COCO results JSON"},
                     &Predict::out),
                bind(data_key(), &Predict::data),
                bind(KeySpec{.name = "checkpoint",
                             .kind = ValueKind::Path,
                             .required = true,
                             .help = "a fine-tuning run's checkpoints/best.ckpt or last.ckpt"},
                     &Predict::checkpoint),
                bind(KeySpec{.name = "annotations",
                             .kind = ValueKind::Path,
                             .allows_null = true,
                             .help = "detection: a COCO annotation file; the results use its "
                                     "image ids and its images (file_names relative to data)"},
                     &Predict::annotations),
                bind(KeySpec{.name = "draw",
                             .kind = ValueKind::Path,
                             .allows_null = true,
                             .help = "detection: also write each image with its boxes, classes "
                                     "and masks (scores of 0.3 or more) drawn, as PNGs into this "
                                     "folder"},
                     &Predict::draw),
                image_size_setting<Predict>(
                    "side length, or [height, width], images are resized to; auto: "
                    "the size the checkpoint was trained at"),
                bind(batch_size_key(128, "images per batch"), &Predict::batch_size),
                bind(num_workers_key(), &Predict::num_workers),
                bind_enum(accelerator_key(), &Predict::accelerator, accelerator_names()),
                bind_enum(forward_precision_key(), &Predict::precision, precision_names()),
                bind(overwrite_key("replace `out` when it exists, and the drawn images in "
                                   "`draw`"),
                     &Predict::overwrite),
            }};
}

// `precision=fp16|fp32` as a flag, `batch` as a count or 0 for dynamic.
Setting<ExportConfig> half_precision_setting() {
    return {
        {.name = "precision",
         .kind = ValueKind::Choice,
         .default_value = "fp32",
         .choices = {"fp32", "fp16"},
         .help = "the weights', input's and outputs' floating-point type"},
        [](const json& value, ExportConfig& config) { config.half_precision = value == "fp16"; },
        [](const ExportConfig& config) -> json { return config.half_precision ? "fp16" : "fp32"; }};
}

Setting<ExportConfig> batch_setting() {
    return {{.name = "batch",
             .kind = ValueKind::IntegerOrChoice,
             .default_value = "dynamic",
             .minimum = 1,
             .choices = {"dynamic"},
             .help = "images per call: fixed, or dynamic (any number)"},
            [](const json& value, ExportConfig& config) {
                config.batch = value.is_number_integer() ? value.get<int>() : 0;
            },
            [](const ExportConfig& config) -> json {
                return config.batch > 0 ? json(config.batch) : json("dynamic");
            }};
}

CommandSettings<SelectConfig> make_select_settings() {
    using Select = SelectConfig;
    return {
        "select",
        {
            bind(KeySpec{.name = "out",
                         .kind = ValueKind::Path,
                         .required = true,
                         .help = "the text file to write the picked names to, one a line "
                                 "(and <stem>.csv beside it with each pick's rank, score "
                                 "and cluster)"},
                 &Select::out),
            bind(KeySpec{.name = "embeddings",
                         .kind = ValueKind::Path,
                         .allows_null = true,
                         .help = "an embeddings file kiln embed wrote (csv, lightly_csv, "
                                 "torch or npy); or give checkpoint and data"},
                 &Select::embeddings),
            bind(KeySpec{.name = "checkpoint",
                         .kind = ValueKind::Path,
                         .allows_null = true,
                         .help = "instead of embeddings: a model (a run's last.ckpt or "
                                 "exported model) that embeds data first, into "
                                 "<out stem>.embeddings.pt"},
                 &Select::checkpoint),
            bind(optional_data_key("with checkpoint: the images to embed and pick from"),
                 &Select::data),
            bind(KeySpec{.name = "n",
                         .kind = ValueKind::Number,
                         .required = true,
                         .minimum = 1e-9,
                         .help = "how many to pick: a count, or below 1 a fraction of the "
                                 "images that may be picked"},
                 &Select::n),
            bind(KeySpec{.name = "strategy",
                         .kind = ValueKind::Choice,
                         .default_value = "typical",
                         .choices = {"typical", "diverse", "balanced", "random"},
                         .help = "typical: the most typical image of each of n clusters "
                                 "(TypiClust); diverse: k-center greedy, each pick farthest "
                                 "from the others; balanced: equal quotas per cluster; "
                                 "random"},
                 &Select::strategy),
            bind(KeySpec{.name = "already_labelled",
                         .kind = ValueKind::Path,
                         .allows_null = true,
                         .help = "images labelled already (a text file of names as the "
                                 "embeddings list them, or a folder of images): never "
                                 "picked, and the picks go around them"},
                 &Select::already_labelled),
            bind(KeySpec{.name = "exclude_duplicates",
                         .kind = ValueKind::Boolean,
                         .default_value = false,
                         .help = "never pick an image that repeats one kept before it (kiln "
                                 "dedup's duplicates at duplicate_threshold) or one labelled "
                                 "already"},
                 &Select::exclude_duplicates),
            bind(KeySpec{.name = "duplicate_threshold",
                         .kind = ValueKind::Number,
                         .default_value = 0.95,
                         .minimum = -1.0,
                         .maximum = 1.0,
                         .help = "cosine similarity at which two images are duplicates"},
                 &Select::duplicate_threshold),
            bind(KeySpec{.name = "whiten",
                         .kind = ValueKind::Boolean,
                         .default_value = false,
                         .help = "pick in PCA-whitened space, fitted on the embeddings without "
                                 "labels: every direction they vary in weighs alike (on "
                                 "SimCLR embeddings of Fashion-MNIST, better picks)"},
                 &Select::whiten),
            bind(KeySpec{.name = "seed",
                         .kind = ValueKind::Integer,
                         .default_value = 0,
                         .help = "the same seed and input give the same picks"},
                 &Select::seed),
            bind(overwrite_key("replace `out` (and its CSV) when they exist"), &Select::overwrite),
        }};
}

CommandSettings<MapConfig> make_map_settings() {
    using Map = MapConfig;
    const MapConfig defaults;
    return {
        "embed-map",
        {
            bind(KeySpec{.name = "out",
                         .kind = ValueKind::Path,
                         .required = true,
                         .help = "the CSV to write: filename,x,y"},
                 &Map::out),
            bind(KeySpec{.name = "embeddings",
                         .kind = ValueKind::Path,
                         .required = true,
                         .help = "an embeddings file kiln embed wrote (csv, lightly_csv, "
                                 "torch or npy)"},
                 &Map::embeddings),
            bind(KeySpec{.name = "projection",
                         .kind = ValueKind::Choice,
                         .default_value = "umap",
                         .choices = {"pca", "tsne", "umap"},
                         .help = "umap: neighbourhoods kept and clusters apart (umap-learn's "
                                 "recipe); tsne: Barnes-Hut t-SNE; pca: the first two principal "
                                 "components, instant"},
                 &Map::projection),
            bind(KeySpec{.name = "seed",
                         .kind = ValueKind::Integer,
                         .default_value = 0,
                         .help = "the same seed and input give the same map"},
                 &Map::seed),
            bind(KeySpec{.name = "perplexity",
                         .kind = ValueKind::Number,
                         .default_value = defaults.perplexity,
                         .minimum = 2.0,
                         .maximum = 500.0,
                         .help = "t-SNE: about the number of neighbours each point keeps close"},
                 &Map::perplexity),
            bind(KeySpec{.name = "n_neighbors",
                         .kind = ValueKind::Integer,
                         .default_value = defaults.n_neighbors,
                         .minimum = 2,
                         .maximum = 500,
                         .help = "UMAP: the neighbours each point's neighbourhood is made of"},
                 &Map::n_neighbors),
            bind(KeySpec{.name = "min_dist",
                         .kind = ValueKind::Number,
                         .default_value = defaults.min_dist,
                         .minimum = 0.0,
                         .maximum = 1.0, // UMAP's spread, which Kiln keeps at 1
                         .help = "UMAP: how tightly points may pack together"},
                 &Map::min_dist),
            bind(overwrite_key("replace `out` when it exists"), &Map::overwrite),
        }};
}

CommandSettings<ExportConfig> make_export_settings() {
    using Export = ExportConfig;
    return {"export",
            {
                bind(KeySpec{.name = "out",
                             .kind = ValueKind::Path,
                             .required = true,
                             .help = "the file to write, e.g. model.onnx"},
                     &Export::out),
                bind(KeySpec{.name = "checkpoint",
                             .kind = ValueKind::Path,
                             .required = true,
                             .help = "a pretraining checkpoint or exported backbone (the "
                                     "backbone's features), or a fine-tuning run's best.ckpt or "
                                     "last.ckpt (the whole task model)"},
                     &Export::checkpoint),
                bind(KeySpec{.name = "format",
                             .kind = ValueKind::Choice,
                             .default_value = "onnx",
                             .choices = {"onnx"},
                             .help = "file format: ONNX (opset 17), for ONNX Runtime and TensorRT"},
                     &Export::format),
                half_precision_setting(),
                batch_setting(),
                image_size_setting<Export>(
                    "side length, or [height, width], of the input; auto: the size the "
                    "checkpoint was trained at"),
                bind(KeySpec{.name = "max_detections",
                             .kind = ValueKind::Integer,
                             .default_value = 100,
                             .minimum = 1,
                             .help = "detection: objects per image in the outputs, best first"},
                     &Export::max_detections),
                bind(overwrite_key("replace `out` when it exists"), &Export::overwrite),
            }};
}

} // namespace

const CommandSettings<EmbedConfig>& embed_settings() {
    static const CommandSettings<EmbedConfig> settings = make_embed_settings();
    return settings;
}

const CommandSettings<PredictConfig>& predict_settings() {
    static const CommandSettings<PredictConfig> settings = make_predict_settings();
    return settings;
}

const CommandSettings<ExportConfig>& export_settings() {
    static const CommandSettings<ExportConfig> settings = make_export_settings();
    return settings;
}

const CommandSettings<MapConfig>& map_settings() {
    static const CommandSettings<MapConfig> settings = make_map_settings();
    return settings;
}

const CommandSettings<SelectConfig>& select_settings() {
    static const CommandSettings<SelectConfig> settings = make_select_settings();
    return settings;
}

} // namespace kiln::config

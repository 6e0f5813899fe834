#include "models/torch_file.h"

#include "core/error.h"

#include <algorithm>
#include <caffe2/serialize/inline_container.h>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <torch/csrc/jit/serialization/export.h>
#include <torch/csrc/jit/serialization/pickler.h>
#include <torch/types.h>
#include <unordered_map>

namespace kiln::models {

namespace {

// A value of the pickle that torch.save writes: what a state_dict and a training checkpoint
// are made of. Callables other than the few torch.save uses for containers and tensors are
// never run; what they would make is an Opaque value.
struct Pickled;
using PickledRef = std::shared_ptr<Pickled>;
struct Pickled {
    enum class Kind { None, Bool, Int, Float, Text, Tuple, List, Dict, Tensor, Global, Opaque };
    Kind kind = Kind::None;
    std::int64_t integer = 0;
    double real = 0;
    std::string text;                                       // Text; Global: "module.name"
    std::vector<PickledRef> items;                          // Tuple, List
    std::vector<std::pair<PickledRef, PickledRef>> entries; // Dict
    torch::Tensor tensor;
    int depth = 0; // of the containers inside it
};

std::optional<torch::ScalarType> storage_dtype(const std::string& storage_type) {
    static const std::map<std::string, torch::ScalarType> kTypes = {
        {"torch.FloatStorage", torch::kFloat32}, {"torch.DoubleStorage", torch::kFloat64},
        {"torch.HalfStorage", torch::kFloat16},  {"torch.BFloat16Storage", torch::kBFloat16},
        {"torch.LongStorage", torch::kInt64},    {"torch.IntStorage", torch::kInt32},
        {"torch.ShortStorage", torch::kInt16},   {"torch.CharStorage", torch::kInt8},
        {"torch.ByteStorage", torch::kUInt8},    {"torch.BoolStorage", torch::kBool}};
    const auto found = kTypes.find(storage_type);
    return found == kTypes.end() ? std::nullopt : std::optional(found->second);
}

std::vector<std::int64_t> integers(const PickledRef& tuple) {
    std::vector<std::int64_t> values;
    for (const PickledRef& item : tuple->items) {
        values.push_back(item->integer);
    }
    return values;
}

// Runs the pickle `bytes` (protocols 2 to 5, the opcodes a state_dict or checkpoint uses),
// reading tensor storages from `archive`.
class Unpickler {
public:
    Unpickler(const std::string& bytes, caffe2::serialize::PyTorchStreamReader& archive,
              const std::filesystem::path& file)
        : bytes_(bytes), archive_(archive), file_(file) {}
    Unpickler(const Unpickler&) = delete;
    Unpickler& operator=(const Unpickler&) = delete;
    // Values may refer to each other in cycles (through the memo) or nest deeply: their
    // children are released first, so that nothing leaks or recurses.
    ~Unpickler() {
        for (const PickledRef& value : created_) {
            value->items.clear();
            value->entries.clear();
        }
    }

    PickledRef run() {
        while (true) {
            const auto opcode = static_cast<unsigned char>(read(1)[0]);
            switch (opcode) {
            case 0x80: // PROTO
                read(1);
                break;
            case 0x95: // FRAME
                read(8);
                break;
            case '.': // STOP
                return pop();
            case '(': // MARK
                marks_.push_back(stack_.size());
                break;
            case '}': // EMPTY_DICT
                stack_.push_back(create(Pickled::Kind::Dict));
                break;
            case ']': // EMPTY_LIST
                stack_.push_back(create(Pickled::Kind::List));
                break;
            case ')': // EMPTY_TUPLE
                stack_.push_back(create(Pickled::Kind::Tuple));
                break;
            case 't':   // TUPLE
            case 'l':   // LIST
            case 'd': { // DICT
                std::vector<PickledRef> items = pop_to_mark();
                auto value = create(opcode == 'd'   ? Pickled::Kind::Dict
                                    : opcode == 't' ? Pickled::Kind::Tuple
                                                    : Pickled::Kind::List);
                for (const PickledRef& item : items) {
                    adopt(*value, *item);
                }
                if (opcode == 'd') {
                    for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
                        value->entries.emplace_back(items[i], items[i + 1]);
                    }
                } else {
                    value->items = std::move(items);
                }
                stack_.push_back(value);
                break;
            }
            case 0x85:   // TUPLE1
            case 0x86:   // TUPLE2
            case 0x87: { // TUPLE3
                auto tuple = create(Pickled::Kind::Tuple);
                tuple->items.resize(opcode - 0x84);
                for (auto item = tuple->items.rbegin(); item != tuple->items.rend(); ++item) {
                    *item = pop();
                    adopt(*tuple, **item);
                }
                stack_.push_back(tuple);
                break;
            }
            case 'q': // BINPUT
                memo_[little_endian(1)] = top();
                break;
            case 'r': // LONG_BINPUT
                memo_[little_endian(4)] = top();
                break;
            case 0x94: // MEMOIZE
                memo_[memo_.size()] = top();
                break;
            case 'h': // BINGET
                stack_.push_back(memo(little_endian(1)));
                break;
            case 'j': // LONG_BINGET
                stack_.push_back(memo(little_endian(4)));
                break;
            case 'X':    // BINUNICODE
            case 'B':    // BINBYTES
            case 'T':    // BINSTRING
            case 0x8c:   // SHORT_BINUNICODE
            case 'C':    // SHORT_BINBYTES
            case 'U':    // SHORT_BINSTRING
            case 0x8d:   // BINUNICODE8
            case 0x8e:   // BINBYTES8
            case 0x96: { // BYTEARRAY8
                const int width = opcode == 0x8d || opcode == 0x8e || opcode == 0x96 ? 8
                                  : opcode == 'X' || opcode == 'B' || opcode == 'T'  ? 4
                                                                                     : 1;
                auto text = create(Pickled::Kind::Text);
                text->text = read(little_endian(width));
                stack_.push_back(text);
                break;
            }
            case 'J': // BININT
                push_integer(static_cast<std::int32_t>(little_endian(4)));
                break;
            case 'K': // BININT1
                push_integer(static_cast<std::int64_t>(little_endian(1)));
                break;
            case 'M': // BININT2
                push_integer(static_cast<std::int64_t>(little_endian(2)));
                break;
            case 0x8a:   // LONG1: little-endian two's complement
            case 0x8b: { // LONG4
                const std::size_t size = little_endian(opcode == 0x8a ? 1 : 4);
                const std::string digits = read(size);
                if (size > 8) { // beyond int64: no setting Kiln reads is this large
                    stack_.push_back(create(Pickled::Kind::Opaque));
                    break;
                }
                std::int64_t value = 0;
                for (std::size_t i = std::min<std::size_t>(size, 8); i-- > 0;) {
                    value = (value << 8) | static_cast<unsigned char>(digits[i]);
                }
                if (size > 0 && size < 8 && (static_cast<unsigned char>(digits[size - 1]) & 0x80)) {
                    value -= std::int64_t{1} << (8 * size);
                }
                push_integer(value);
                break;
            }
            case 'G': { // BINFLOAT, big-endian
                const std::string raw = read(8);
                std::uint64_t bits = 0;
                for (const char byte : raw) {
                    bits = (bits << 8) | static_cast<unsigned char>(byte);
                }
                auto real = create(Pickled::Kind::Float);
                std::memcpy(&real->real, &bits, sizeof bits);
                stack_.push_back(real);
                break;
            }
            case 0x88:   // NEWTRUE
            case 0x89: { // NEWFALSE
                auto flag = create(Pickled::Kind::Bool);
                flag->integer = opcode == 0x88;
                stack_.push_back(flag);
                break;
            }
            case 'N': // NONE
                stack_.push_back(create(Pickled::Kind::None));
                break;
            case 'c': { // GLOBAL
                const std::string module = read_line();
                const std::string name = read_line();
                push_global(module + "." + name);
                break;
            }
            case 0x93: { // STACK_GLOBAL
                const PickledRef name = pop();
                const PickledRef module = pop();
                push_global(module->text + "." + name->text);
                break;
            }
            case 'R': { // REDUCE
                const PickledRef arguments = pop();
                const PickledRef callable = pop();
                stack_.push_back(reduce(*callable, *arguments));
                break;
            }
            case 0x81: // NEWOBJ
                pop();
                pop();
                stack_.push_back(create(Pickled::Kind::Opaque));
                break;
            case 0x92: // NEWOBJ_EX
                pop();
                pop();
                pop();
                stack_.push_back(create(Pickled::Kind::Opaque));
                break;
            case 0x8f: // EMPTY_SET: sets hold no tensors Kiln reads
                stack_.push_back(create(Pickled::Kind::Opaque));
                break;
            case 0x90: // ADDITEMS
                pop_to_mark();
                break;
            case 0x91: // FROZENSET
                pop_to_mark();
                stack_.push_back(create(Pickled::Kind::Opaque));
                break;
            case 'b': // BUILD: an object's state (an OrderedDict's _metadata); not needed
                pop();
                break;
            case 's': { // SETITEM
                const PickledRef value = pop();
                const PickledRef key = pop();
                adopt(*top(), *value);
                top()->entries.emplace_back(key, value);
                break;
            }
            case 'u': { // SETITEMS
                const std::vector<PickledRef> items = pop_to_mark();
                for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
                    adopt(*top(), *items[i + 1]);
                    top()->entries.emplace_back(items[i], items[i + 1]);
                }
                break;
            }
            case 'a': { // APPEND
                const PickledRef item = pop();
                adopt(*top(), *item);
                top()->items.push_back(item);
                break;
            }
            case 'e': { // APPENDS
                std::vector<PickledRef> items = pop_to_mark();
                for (const PickledRef& item : items) {
                    adopt(*top(), *item);
                }
                auto& list = top()->items;
                list.insert(list.end(), items.begin(), items.end());
                break;
            }
            case 'Q': // BINPERSID
                stack_.push_back(storage(*pop()));
                break;
            case '0': // POP
                pop();
                break;
            case '1': // POP_MARK
                pop_to_mark();
                break;
            case '2': // DUP
                stack_.push_back(top());
                break;
            default:
                throw damaged("an unsupported pickle opcode 0x" + hex(opcode));
            }
        }
    }

private:
    Error damaged(const std::string& what) const {
        return Error("\"" + file_.string() + "\" is not a PyTorch state_dict that Kiln can read (" +
                     what + " at byte " + std::to_string(offset_) + " of its data.pkl)");
    }

    static std::string hex(unsigned value) {
        char text[8];
        std::snprintf(text, sizeof text, "%02x", value);
        return text;
    }

    std::string read(std::size_t size) {
        if (size > bytes_.size() - offset_) {
            throw damaged("a truncated pickle");
        }
        std::string part = bytes_.substr(offset_, size);
        offset_ += size;
        return part;
    }

    std::string read_line() {
        const std::size_t end = bytes_.find('\n', offset_);
        if (end == std::string::npos) {
            throw damaged("a truncated name");
        }
        std::string line = bytes_.substr(offset_, end - offset_);
        offset_ = end + 1;
        return line;
    }

    std::uint64_t little_endian(int size) {
        const std::string raw = read(static_cast<std::size_t>(size));
        std::uint64_t value = 0;
        for (int i = size - 1; i >= 0; --i) {
            value = (value << 8) | static_cast<unsigned char>(raw[static_cast<std::size_t>(i)]);
        }
        return value;
    }

    static constexpr int kMaxDepth = 200;

    PickledRef create(Pickled::Kind kind) {
        auto value = std::make_shared<Pickled>();
        value->kind = kind;
        created_.push_back(value);
        return value;
    }

    // `child` goes into `container`: a nesting deeper than any checkpoint's is refused.
    void adopt(Pickled& container, const Pickled& child) {
        container.depth = std::max(container.depth, child.depth + 1);
        if (container.depth > kMaxDepth) {
            throw damaged("containers nested deeper than " + std::to_string(kMaxDepth));
        }
    }

    void push_integer(std::int64_t value) {
        auto integer = create(Pickled::Kind::Int);
        integer->integer = value;
        stack_.push_back(integer);
    }

    void push_global(const std::string& name) {
        auto global = create(Pickled::Kind::Global);
        global->text = name;
        stack_.push_back(global);
    }

    PickledRef top() {
        if (stack_.empty()) {
            throw damaged("an empty stack");
        }
        return stack_.back();
    }

    PickledRef pop() {
        PickledRef value = top();
        stack_.pop_back();
        return value;
    }

    std::vector<PickledRef> pop_to_mark() {
        if (marks_.empty() || marks_.back() > stack_.size()) {
            throw damaged("a missing mark");
        }
        std::vector<PickledRef> items(stack_.begin() + static_cast<std::ptrdiff_t>(marks_.back()),
                                      stack_.end());
        stack_.resize(marks_.back());
        marks_.pop_back();
        return items;
    }

    PickledRef memo(std::uint64_t index) {
        const auto found = memo_.find(index);
        if (found == memo_.end()) {
            throw damaged("a reference to an unknown memo entry");
        }
        return found->second;
    }

    // The callables torch.save uses for containers and tensors; any other makes an Opaque.
    PickledRef reduce(const Pickled& callable, const Pickled& arguments) {
        const std::string& name = callable.text;
        if (callable.kind != Pickled::Kind::Global) {
            return create(Pickled::Kind::Opaque);
        }
        if (name == "collections.OrderedDict") {
            return create(Pickled::Kind::Dict);
        }
        if ((name == "torch._utils._rebuild_tensor_v2" || name == "torch._utils._rebuild_tensor") &&
            arguments.items.size() >= 4 && arguments.items[0]->kind == Pickled::Kind::Tensor &&
            arguments.items[1]->kind == Pickled::Kind::Int &&
            arguments.items[2]->kind == Pickled::Kind::Tuple &&
            arguments.items[3]->kind == Pickled::Kind::Tuple) {
            auto tensor = create(Pickled::Kind::Tensor);
            tensor->tensor = arguments.items[0]->tensor.as_strided(integers(arguments.items[2]),
                                                                   integers(arguments.items[3]),
                                                                   arguments.items[1]->integer);
            return tensor;
        }
        if (name == "torch._utils._rebuild_parameter" && !arguments.items.empty()) {
            return arguments.items[0];
        }
        return create(Pickled::Kind::Opaque);
    }

    // A persistent id ('storage', torch.FloatStorage, key, location, numel): the flat storage
    // from the archive's data/<key>, shared by the tensors that view it.
    PickledRef storage(const Pickled& id) {
        if (id.kind != Pickled::Kind::Tuple || id.items.size() < 5 ||
            id.items[0]->text != "storage") {
            throw damaged("a persistent id that is not a tensor storage");
        }
        const std::string& key = id.items[2]->text;
        const auto cached = storages_.find(key);
        if (cached != storages_.end()) {
            return cached->second;
        }
        const auto dtype = storage_dtype(id.items[1]->text);
        if (!dtype) {
            throw damaged("a storage of type " + id.items[1]->text);
        }
        const std::int64_t numel = id.items[4]->integer;
        if (id.items[2]->kind != Pickled::Kind::Text || id.items[4]->kind != Pickled::Kind::Int ||
            numel < 0) {
            throw damaged("a malformed tensor storage id");
        }
        auto [data, size] = archive_.getRecord("data/" + key);
        if (static_cast<std::uint64_t>(numel) > size / c10::elementSize(*dtype)) {
            throw damaged("storage " + key + " is shorter than its " + std::to_string(numel) +
                          " elements");
        }
        auto owner = std::make_shared<at::DataPtr>(std::move(data));
        auto value = create(Pickled::Kind::Tensor);
        value->tensor = torch::from_blob(
            owner->get(), {numel}, [owner](void*) {}, torch::TensorOptions().dtype(*dtype));
        storages_[key] = value;
        return value;
    }

    const std::string& bytes_;
    caffe2::serialize::PyTorchStreamReader& archive_;
    const std::filesystem::path& file_;
    std::size_t offset_ = 0;
    std::vector<PickledRef> stack_;
    std::vector<std::size_t> marks_;
    std::unordered_map<std::uint64_t, PickledRef> memo_;
    std::map<std::string, PickledRef> storages_;
    std::vector<PickledRef> created_;
};

std::size_t tensor_count(const Pickled& dict) {
    return static_cast<std::size_t>(
        std::count_if(dict.entries.begin(), dict.entries.end(), [](const auto& entry) {
            return entry.second->kind == Pickled::Kind::Tensor;
        }));
}

// The dict of tensors in what the file holds: of the top level and what a training checkpoint
// nests under "state_dict", "model", "model_state_dict" or "state" (a few levels down), the one
// with the most tensors.
const Pickled* find_state_dict(const Pickled& value, int levels = 4) {
    if (value.kind != Pickled::Kind::Dict || levels == 0) {
        return nullptr;
    }
    const Pickled* best = tensor_count(value) > 0 ? &value : nullptr;
    for (const char* nested : {"state_dict", "model", "model_state_dict", "state"}) {
        for (const auto& [key, item] : value.entries) {
            if (key->kind != Pickled::Kind::Text || key->text != nested) {
                continue;
            }
            const Pickled* found = find_state_dict(*item, levels - 1);
            if (found != nullptr &&
                (best == nullptr || tensor_count(*found) > tensor_count(*best))) {
                best = found;
            }
        }
    }
    return best;
}

} // namespace

std::vector<std::pair<std::string, torch::Tensor>>
read_state_dict(const std::filesystem::path& path) {
    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> archive;
    std::string pickle;
    try {
        archive = std::make_unique<caffe2::serialize::PyTorchStreamReader>(path.string());
        auto [data, size] = archive->getRecord("data.pkl");
        pickle.assign(static_cast<const char*>(data.get()), size);
    } catch (const c10::Error&) {
        throw Error("\"" + path.string() +
                    "\" is not a file of torch.save (the zip format of PyTorch 1.6 and newer); "
                    "save it again with a current PyTorch");
    }
    Unpickler unpickler(pickle, *archive, path);
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    try {
        const PickledRef root = unpickler.run();
        const Pickled* state = find_state_dict(*root);
        if (state == nullptr) {
            throw Error("\"" + path.string() +
                        "\" holds no state_dict (a dict of tensors, at the top or under "
                        "\"state_dict\", \"model\", \"model_state_dict\" or \"state\")");
        }
        for (const auto& [key, item] : state->entries) {
            if (key->kind == Pickled::Kind::Text && item->kind == Pickled::Kind::Tensor) {
                tensors.emplace_back(key->text, item->tensor);
            }
        }
    } catch (const c10::Error& error) { // a view or record its storage cannot give
        throw Error("\"" + path.string() + "\" is not a PyTorch state_dict that Kiln can read (" +
                    error.what_without_backtrace() + ")");
    }
    return tensors;
}

std::vector<char> torch_load_compatible(const c10::IValue& value) {
    std::vector<char> pickled;
    torch::jit::Pickler pickler(
        [&](const char* bytes, std::size_t size) {
            pickled.insert(pickled.end(), bytes, bytes + size);
        },
        /*tensor_table=*/nullptr, /*type_renamer=*/nullptr, /*memoized_class_types=*/nullptr,
        /*get_tensor_id=*/nullptr, /*tag_aggregates=*/false);
    pickler.protocol();
    pickler.pushIValue(value);
    pickler.stop();
    std::vector<char> file;
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* bytes, std::size_t size) {
        const auto* begin = static_cast<const char*>(bytes);
        file.insert(file.end(), begin, begin + size);
        return size;
    });
    torch::jit::writeArchiveAndTensors("data", pickled.data(), pickled.size(), pickler.tensorData(),
                                       writer);
    writer.writeEndOfFile();
    return file;
}

} // namespace kiln::models

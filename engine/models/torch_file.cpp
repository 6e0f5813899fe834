#include "models/torch_file.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "models/zip_crcs.h"

#include <algorithm>
#include <caffe2/serialize/inline_container.h>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <torch/csrc/jit/serialization/export.h>
#include <torch/csrc/jit/serialization/pickler.h>
#include <torch/types.h>
#include <unordered_map>

namespace kiln::models {

namespace {

// A value of the pickle as the reader builds it, before it becomes an IValue.
struct Pickled;
using PickledRef = std::shared_ptr<Pickled>;
struct Pickled {
    // Object: an instance of a TorchScript class (its attributes are `entries`); Opaque: a
    // harmless value Kiln has no use for.
    enum class Kind {
        None,
        Bool,
        Int,
        Float,
        Text,
        Tuple,
        List,
        Dict,
        Tensor,
        Global,
        Object,
        Opaque
    };
    Kind kind = Kind::None;
    std::int64_t integer = 0;
    double real = 0;
    std::string text;                                       // Text; Global: "module.name"
    std::vector<PickledRef> items;                          // Tuple, List
    std::vector<std::pair<PickledRef, PickledRef>> entries; // Dict, Object
    torch::Tensor tensor;
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

// The globals a file may name: what torch.save and TorchScript archives use for containers and
// tensors, and plain values torch.load(weights_only=True) allows. None of them is ever called;
// the reader knows what each would make.
bool is_safe_global(const std::string& name) {
    static const std::set<std::string> kSafe = {
        "collections.OrderedDict",
        "torch._utils._rebuild_tensor",
        "torch._utils._rebuild_tensor_v2",
        "torch._utils._rebuild_parameter",
        "torch._utils._rebuild_parameter_with_state",
        "torch._tensor._rebuild_from_type_v2",
        "torch.Tensor",
        "torch.nn.parameter.Parameter",
        "torch.Size",
        "torch.device",
        "torch.jit._pickle.restore_type_tag",
        "torch.jit._pickle.build_intlist",
        "torch.jit._pickle.build_doublelist",
        "torch.jit._pickle.build_boollist",
        "torch.jit._pickle.build_tensorlist",
        "builtins.set",
        "builtins.frozenset",
        "builtins.bytearray",
        "_codecs.encode",
    };
    static const std::set<std::string> kDtypes = {
        "float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
        "uint8",   "bool",    "float",   "double",   "half",  "long",  "int"};
    // TorchScript classes (__torch__.*) are data here: their attributes, never their code.
    return kSafe.count(name) > 0 || storage_dtype(name).has_value() ||
           name.rfind("__torch__.", 0) == 0 ||
           (name.rfind("torch.", 0) == 0 && kDtypes.count(name.substr(6)) > 0);
}

std::vector<std::int64_t> integers(const PickledRef& tuple) {
    std::vector<std::int64_t> values;
    for (const PickledRef& item : tuple->items) {
        values.push_back(item->integer);
    }
    return values;
}

// Checks a record's bytes (against the zip's CRC-32); throws when they are damaged.
using RecordCheck = std::function<void(const std::string& record, std::string_view bytes)>;

// Runs the pickle `bytes` (protocols 2 to 5, the opcodes torch.save and TorchScript use),
// reading tensor storages from `archive`.
class Unpickler {
public:
    Unpickler(const std::string& bytes, caffe2::serialize::PyTorchStreamReader& archive,
              std::size_t record_limit, const RecordCheck& check, const std::filesystem::path& file)
        : bytes_(bytes), archive_(archive), record_limit_(record_limit), check_(check),
          file_(file) {}
    Unpickler(const Unpickler&) = delete;
    Unpickler& operator=(const Unpickler&) = delete;
    // Values may refer to each other in cycles (through the memo): their children are released
    // first, so that nothing leaks.
    ~Unpickler() {
        for (const PickledRef& value : created_) {
            value->items.clear();
            value->entries.clear();
        }
    }

    PickledRef run() {
        while (true) {
            const auto opcode = static_cast<unsigned char>(read(1)[0]);
            if (opcode == '.') { // STOP
                return pop();
            }
            if (!(containers(opcode) || memo_ops(opcode) || scalars(opcode) || objects(opcode) ||
                  stack_ops(opcode))) {
                throw damaged("an unsupported pickle opcode 0x" + hex(opcode));
            }
        }
    }

    Error damaged(const std::string& what) const {
        return Error("\"" + file_.string() + "\" is not a PyTorch file that Kiln can read (" +
                     what + " at byte " + std::to_string(offset_) + " of its data.pkl)");
    }

private:
    bool containers(unsigned char opcode) {
        switch (opcode) {
        case '}': // EMPTY_DICT
            push(Pickled::Kind::Dict);
            return true;
        case ']': // EMPTY_LIST
            push(Pickled::Kind::List);
            return true;
        case ')': // EMPTY_TUPLE
            push(Pickled::Kind::Tuple);
            return true;
        case 't': // TUPLE
        case 'l': // LIST
        case 'd': // DICT
            collect(opcode);
            return true;
        case 0x85:   // TUPLE1
        case 0x86:   // TUPLE2
        case 0x87: { // TUPLE3
            auto tuple = create(Pickled::Kind::Tuple);
            tuple->items.resize(opcode - 0x84);
            for (auto item = tuple->items.rbegin(); item != tuple->items.rend(); ++item) {
                *item = pop();
            }
            stack_.push_back(tuple);
            return true;
        }
        case 's': { // SETITEM
            const PickledRef value = pop();
            const PickledRef key = pop();
            top()->entries.emplace_back(key, value);
            return true;
        }
        case 'u': { // SETITEMS
            const std::vector<PickledRef> items = pop_to_mark();
            for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
                top()->entries.emplace_back(items[i], items[i + 1]);
            }
            return true;
        }
        case 'a': // APPEND
            top()->items.push_back(pop());
            return true;
        case 'e': { // APPENDS
            const std::vector<PickledRef> items = pop_to_mark();
            auto& list = top()->items;
            list.insert(list.end(), items.begin(), items.end());
            return true;
        }
        case 0x8f: // EMPTY_SET: sets hold no tensors Kiln reads
            push(Pickled::Kind::Opaque);
            return true;
        case 0x90: // ADDITEMS
            pop_to_mark();
            return true;
        case 0x91: // FROZENSET
            pop_to_mark();
            push(Pickled::Kind::Opaque);
            return true;
        default:
            return false;
        }
    }

    // TUPLE, LIST and DICT: the values since the last mark.
    void collect(unsigned char opcode) {
        std::vector<PickledRef> items = pop_to_mark();
        auto value = create(opcode == 'd'   ? Pickled::Kind::Dict
                            : opcode == 't' ? Pickled::Kind::Tuple
                                            : Pickled::Kind::List);
        if (opcode == 'd') {
            for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
                value->entries.emplace_back(items[i], items[i + 1]);
            }
        } else {
            value->items = std::move(items);
        }
        stack_.push_back(value);
    }

    bool memo_ops(unsigned char opcode) {
        switch (opcode) {
        case 'q': // BINPUT
            memo_[little_endian(1)] = top();
            return true;
        case 'r': // LONG_BINPUT
            memo_[little_endian(4)] = top();
            return true;
        case 0x94: // MEMOIZE
            memo_[memo_.size()] = top();
            return true;
        case 'h': // BINGET
            stack_.push_back(memo(little_endian(1)));
            return true;
        case 'j': // LONG_BINGET
            stack_.push_back(memo(little_endian(4)));
            return true;
        default:
            return false;
        }
    }

    bool scalars(unsigned char opcode) {
        switch (opcode) {
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
            push(Pickled::Kind::Text)->text = read(little_endian(width));
            return true;
        }
        case 'J': // BININT
            push_integer(static_cast<std::int32_t>(little_endian(4)));
            return true;
        case 'K': // BININT1
            push_integer(static_cast<std::int64_t>(little_endian(1)));
            return true;
        case 'M': // BININT2
            push_integer(static_cast<std::int64_t>(little_endian(2)));
            return true;
        case 0x8a: // LONG1: little-endian two's complement
        case 0x8b: // LONG4
            push_long(little_endian(opcode == 0x8a ? 1 : 4));
            return true;
        case 'G': { // BINFLOAT, big-endian
            const std::string raw = read(8);
            std::uint64_t bits = 0;
            for (const char byte : raw) {
                bits = (bits << 8) | static_cast<unsigned char>(byte);
            }
            std::memcpy(&push(Pickled::Kind::Float)->real, &bits, sizeof bits);
            return true;
        }
        case 0x88: // NEWTRUE
        case 0x89: // NEWFALSE
            push(Pickled::Kind::Bool)->integer = opcode == 0x88;
            return true;
        case 'N': // NONE
            push(Pickled::Kind::None);
            return true;
        default:
            return false;
        }
    }

    void push_long(std::uint64_t size) {
        const std::string digits = read(size);
        if (size > 8) { // beyond int64: no setting Kiln reads is this large
            push(Pickled::Kind::Opaque);
            return;
        }
        std::int64_t value = 0;
        for (std::size_t i = size; i-- > 0;) {
            value = static_cast<std::int64_t>((static_cast<std::uint64_t>(value) << 8) |
                                              static_cast<unsigned char>(digits[i]));
        }
        if (size > 0 && size < 8 && (static_cast<unsigned char>(digits[size - 1]) & 0x80)) {
            value -= std::int64_t{1} << (8 * size);
        }
        push_integer(value);
    }

    bool objects(unsigned char opcode) {
        switch (opcode) {
        case 'c': { // GLOBAL
            const std::string module = read_line();
            push_global(module + "." + read_line());
            return true;
        }
        case 0x93: { // STACK_GLOBAL
            const PickledRef name = pop();
            const PickledRef module = pop();
            push_global(module->text + "." + name->text);
            return true;
        }
        case 'R': { // REDUCE
            const PickledRef arguments = pop();
            const PickledRef callable = pop();
            stack_.push_back(reduce(*callable, *arguments));
            return true;
        }
        case 0x81: // NEWOBJ
            pop();
            stack_.push_back(instance(*pop()));
            return true;
        case 0x92: // NEWOBJ_EX
            pop();
            pop();
            stack_.push_back(instance(*pop()));
            return true;
        case 'b': { // BUILD: a TorchScript object's attributes; an OrderedDict's _metadata
            const PickledRef state = pop();
            const PickledRef target = top();
            if (target->kind == Pickled::Kind::Object && state->kind == Pickled::Kind::Dict) {
                // Copies, unlike the other opcodes' links, cost more than their bytes: one
                // dict built into many objects would multiply it.
                copied_entries_ += state->entries.size();
                if (copied_entries_ > kMaxPickledValues) {
                    throw damaged("objects with more than " + std::to_string(kMaxPickledValues) +
                                  " attributes in all");
                }
                target->entries = state->entries;
            }
            return true;
        }
        case 'Q': // BINPERSID
            stack_.push_back(storage(*pop()));
            return true;
        default:
            return false;
        }
    }

    bool stack_ops(unsigned char opcode) {
        switch (opcode) {
        case 0x80: // PROTO
            read(1);
            return true;
        case 0x95: // FRAME
            read(8);
            return true;
        case '(': // MARK
            marks_.push_back(stack_.size());
            return true;
        case '0': // POP
            pop();
            return true;
        case '1': // POP_MARK
            pop_to_mark();
            return true;
        case '2': // DUP
            stack_.push_back(top());
            return true;
        default:
            return false;
        }
    }

    static std::string hex(unsigned value) {
        char text[8];
        std::snprintf(text, sizeof text, "%02x", value);
        return text;
    }

    std::string read(std::uint64_t size) {
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

    PickledRef create(Pickled::Kind kind) {
        if (created_.size() >= kMaxPickledValues) {
            throw damaged("more than " + std::to_string(kMaxPickledValues) + " values");
        }
        auto value = std::make_shared<Pickled>();
        value->kind = kind;
        created_.push_back(value);
        return value;
    }

    PickledRef push(Pickled::Kind kind) {
        stack_.push_back(create(kind));
        return stack_.back();
    }

    void push_integer(std::int64_t value) { push(Pickled::Kind::Int)->integer = value; }

    void push_global(const std::string& name) {
        if (!is_safe_global(name)) {
            const bool tensor_kind = name.rfind("torch._utils._rebuild_", 0) == 0 ||
                                     (name.rfind("torch.", 0) == 0 && name.ends_with("Storage"));
            if (tensor_kind) {
                throw Error("\"" + file_.string() +
                            "\" holds a tensor of a kind Kiln does not read (" + name +
                            ": complex, quantized, sparse or float8); save float tensors "
                            "instead, tensor.float() (a sparse one tensor.to_dense().float())");
            }
            throw Error("\"" + file_.string() + "\" names the Python callable \"" + name +
                        "\", which Kiln never runs (nor does torch.load(weights_only=True)); "
                        "a weights file holds tensors only: save the model's state_dict, "
                        "torch.save(model.state_dict(), path), and use that file");
        }
        push(Pickled::Kind::Global)->text = name;
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

    // What NEWOBJ makes of a class: an object of a TorchScript class, an empty OrderedDict,
    // or a harmless value.
    PickledRef instance(const Pickled& type) {
        if (type.kind != Pickled::Kind::Global) {
            throw damaged("an object of no class");
        }
        if (type.text.rfind("__torch__.", 0) == 0) {
            return create(Pickled::Kind::Object);
        }
        return create(type.text == "collections.OrderedDict" ? Pickled::Kind::Dict
                                                             : Pickled::Kind::Opaque);
    }

    // What the safe callables would make of `arguments`, without calling anything.
    PickledRef reduce(const Pickled& callable, const Pickled& arguments) {
        if (callable.kind != Pickled::Kind::Global) {
            throw damaged("a call of something that is no callable");
        }
        const std::string& name = callable.text;
        const auto& items = arguments.items;
        if (name == "collections.OrderedDict") {
            return create(Pickled::Kind::Dict);
        }
        if (name == "torch._utils._rebuild_tensor_v2" || name == "torch._utils._rebuild_tensor") {
            return tensor_view(arguments);
        }
        if (name == "torch._tensor._rebuild_from_type_v2" && items.size() >= 3) {
            return reduce(*items[0], *items[2]); // (rebuild, type, its arguments, state)
        }
        const bool passes_first = name == "torch._utils._rebuild_parameter" ||
                                  name == "torch._utils._rebuild_parameter_with_state" ||
                                  name.rfind("torch.jit._pickle.", 0) == 0;
        if (passes_first && !items.empty()) {
            return items[0];
        }
        return create(Pickled::Kind::Opaque);
    }

    // _rebuild_tensor_v2(storage, offset, size, stride, ...): a view of the storage.
    PickledRef tensor_view(const Pickled& arguments) {
        const auto& items = arguments.items;
        if (items.size() < 4 || items[0]->kind != Pickled::Kind::Tensor ||
            items[1]->kind != Pickled::Kind::Int || items[2]->kind != Pickled::Kind::Tuple ||
            items[3]->kind != Pickled::Kind::Tuple) {
            throw damaged("a tensor rebuilt from something other than a storage");
        }
        const std::vector<std::int64_t> sizes = integers(items[2]);
        // A view that repeats its storage (a stride of 0) could claim trillions of values from a
        // few bytes, and whoever reads it would allocate or loop over them all; weights and
        // embeddings are never such views.
        std::int64_t values = 1;
        for (const std::int64_t size : sizes) {
            if (size < 0 || __builtin_mul_overflow(values, size, &values)) {
                throw damaged("a tensor of a negative or overflowing shape");
            }
        }
        if (values > items[0]->tensor.numel()) {
            throw damaged("a tensor of " + std::to_string(values) +
                          " values viewing a storage of " +
                          std::to_string(items[0]->tensor.numel()));
        }
        auto tensor = create(Pickled::Kind::Tensor);
        tensor->tensor = items[0]->tensor.as_strided(sizes, integers(items[3]), items[1]->integer);
        return tensor;
    }

    // A persistent id ('storage', torch.FloatStorage, key, location, numel): the flat storage
    // from the archive's data/<key>, shared by the tensors that view it.
    PickledRef storage(const Pickled& id) {
        if (id.kind != Pickled::Kind::Tuple || id.items.size() < 5 ||
            id.items[0]->text != "storage" || id.items[2]->kind != Pickled::Kind::Text ||
            id.items[4]->kind != Pickled::Kind::Int || id.items[4]->integer < 0) {
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
        const std::string record = "data/" + key;
        if (!archive_.hasRecord(record)) {
            throw damaged("storage " + key + ", which the file does not hold");
        }
        const std::size_t size = archive_.getRecordSize(record);
        const auto numel = static_cast<std::uint64_t>(id.items[4]->integer);
        if (numel > size / c10::elementSize(*dtype)) {
            throw damaged("storage " + key + " is shorter than its " + std::to_string(numel) +
                          " elements");
        }
        if (size > record_limit_) {
            throw damaged("storage " + key + " declares " + std::to_string(size) +
                          " bytes, more than " + std::to_string(kMaxInflation) +
                          " times the file's size");
        }
        auto owner = std::make_shared<at::DataPtr>(std::get<0>(archive_.getRecord(record)));
        check_(record, std::string_view(static_cast<const char*>(owner->get()), size));
        auto value = create(Pickled::Kind::Tensor);
        value->tensor = torch::from_blob(
            owner->get(), {static_cast<std::int64_t>(numel)}, [owner](void*) {},
            torch::TensorOptions().dtype(*dtype));
        storages_[key] = value;
        return value;
    }

    const std::string& bytes_;
    caffe2::serialize::PyTorchStreamReader& archive_;
    const std::size_t record_limit_;
    const RecordCheck& check_;
    const std::filesystem::path& file_;
    std::size_t offset_ = 0;
    std::vector<PickledRef> stack_;
    std::vector<std::size_t> marks_;
    std::unordered_map<std::uint64_t, PickledRef> memo_;
    std::map<std::string, PickledRef> storages_;
    std::vector<PickledRef> created_;
    std::size_t copied_entries_ = 0; // by BUILD
};

// Turns the reader's values into IValues, each shared value once; a container that holds
// itself, or containers nested deeper than any checkpoint's, are refused.
class Converter {
public:
    explicit Converter(const Unpickler& unpickler) : unpickler_(unpickler) {}

    c10::IValue convert(const PickledRef& value, int depth = 0) {
        const auto done = converted_.find(value.get());
        if (done != converted_.end()) {
            return done->second;
        }
        if (depth > kMaxDepth) {
            throw unpickler_.damaged("containers nested deeper than " + std::to_string(kMaxDepth));
        }
        if (!in_progress_.insert(value.get()).second) {
            throw unpickler_.damaged("a container that holds itself");
        }
        c10::IValue result = make(*value, depth);
        in_progress_.erase(value.get());
        converted_.emplace(value.get(), result);
        return result;
    }

private:
    static constexpr int kMaxDepth = 200;

    c10::IValue make(const Pickled& value, int depth) {
        switch (value.kind) {
        case Pickled::Kind::Bool:
            return c10::IValue(value.integer != 0);
        case Pickled::Kind::Int:
            return c10::IValue(value.integer);
        case Pickled::Kind::Float:
            return c10::IValue(value.real);
        case Pickled::Kind::Text:
            return c10::IValue(value.text);
        case Pickled::Kind::Tensor:
            return c10::IValue(value.tensor);
        case Pickled::Kind::List:
        case Pickled::Kind::Tuple: {
            std::vector<c10::IValue> items;
            for (const PickledRef& item : value.items) {
                items.push_back(convert(item, depth + 1));
            }
            if (value.kind == Pickled::Kind::Tuple) {
                return c10::ivalue::Tuple::create(std::move(items));
            }
            c10::impl::GenericList list(c10::AnyType::get());
            list.reserve(items.size());
            for (c10::IValue& item : items) {
                list.push_back(std::move(item));
            }
            return list;
        }
        case Pickled::Kind::Dict:
        case Pickled::Kind::Object:
            return dict(value, depth);
        default:
            return c10::IValue();
        }
    }

    // Keys that are neither strings nor integers (Kiln looks up neither) are left out.
    c10::IValue dict(const Pickled& value, int depth) {
        c10::impl::GenericDict dict(c10::AnyType::get(), c10::AnyType::get());
        for (const auto& [key, item] : value.entries) {
            if (key->kind == Pickled::Kind::Text || key->kind == Pickled::Kind::Int) {
                dict.insert_or_assign(make(*key, depth), convert(item, depth + 1));
            }
        }
        return dict;
    }

    const Unpickler& unpickler_;
    std::unordered_map<const Pickled*, c10::IValue> converted_;
    std::set<const Pickled*> in_progress_;
};

Error not_a_torch_file(const std::filesystem::path& path) {
    return Error("\"" + path.string() +
                 "\" is not a file of torch.save (the zip format of PyTorch 1.6 and newer); "
                 "save it again with a current PyTorch");
}

std::size_t tensor_count(const c10::IValue& dict) {
    return static_cast<std::size_t>(
        std::count_if(dict.toGenericDict().begin(), dict.toGenericDict().end(),
                      [](const auto& entry) { return entry.value().isTensor(); }));
}

// The dict of tensors in what the file holds: of the top level and what a training checkpoint
// nests under "state_dict", "model", "model_state_dict" or "state" (a few levels down), the one
// with the most tensors.
std::optional<c10::IValue> find_state_dict(const c10::IValue& value, int levels = 4) {
    if (!value.isGenericDict() || levels == 0) {
        return std::nullopt;
    }
    std::optional<c10::IValue> best;
    if (tensor_count(value) > 0) {
        best = value;
    }
    const c10::impl::GenericDict dict = value.toGenericDict();
    for (const char* nested : {"state_dict", "model", "model_state_dict", "state"}) {
        const auto item = dict.find(c10::IValue(std::string(nested)));
        if (item == dict.end()) {
            continue;
        }
        const std::optional<c10::IValue> found = find_state_dict(item->value(), levels - 1);
        if (found && (!best || tensor_count(*found) > tensor_count(*best))) {
            best = found;
        }
    }
    return best;
}

// TorchScript archives keep their constants and code beside the data.
bool is_torchscript_archive(const std::filesystem::path& path) {
    try {
        caffe2::serialize::PyTorchStreamReader archive(path.string());
        return archive.hasRecord("constants.pkl");
    } catch (const c10::Error&) {
        return false;
    }
}

// What the archive `open` gives holds, read by Kiln's unpickler; `file_size` bounds its records,
// and each is checked against the CRC-32 the zip records for it (`read` gives the zip's bytes).
c10::IValue
read_archive(const std::function<std::unique_ptr<caffe2::serialize::PyTorchStreamReader>()>& open,
             const ZipBytes& read, std::size_t file_size, const std::filesystem::path& path) {
    const std::size_t record_limit = kMaxInflation * file_size;
    const std::unordered_map<std::string, std::uint32_t> crcs = recorded_crcs(read, file_size);
    const RecordCheck check = [&crcs, &path](const std::string& record, std::string_view bytes) {
        const auto recorded = crcs.find(record);
        if (recorded != crcs.end() && recorded->second != crc32_of(bytes)) {
            throw Error("\"" + path.string() + "\" is damaged: its " + record +
                        " does not match the checksum the file records for it (a disk or copy "
                        "error); use another copy of the file");
        }
    };
    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> archive;
    std::string pickle;
    try {
        archive = open();
        if (!archive->hasRecord("data.pkl")) {
            throw not_a_torch_file(path);
        }
        if (archive->getRecordSize("data.pkl") > record_limit) {
            throw Error("\"" + path.string() + "\" declares a data.pkl of " +
                        std::to_string(archive->getRecordSize("data.pkl")) + " bytes, more than " +
                        std::to_string(kMaxInflation) +
                        " times the file's size: it is damaged or crafted");
        }
        auto [data, size] = archive->getRecord("data.pkl");
        pickle.assign(static_cast<const char*>(data.get()), size);
    } catch (const c10::Error&) {
        throw not_a_torch_file(path);
    }
    check("data.pkl", pickle);
    Unpickler unpickler(pickle, *archive, record_limit, check, path);
    try {
        const PickledRef root = unpickler.run();
        return Converter(unpickler).convert(root);
    } catch (const c10::Error& failure) { // a view or record its storage cannot give
        throw Error("\"" + path.string() + "\" is not a PyTorch file that Kiln can read (" +
                    failure.what_without_backtrace() + ")");
    }
}

} // namespace

c10::IValue read_torch_file(const std::filesystem::path& path) {
    std::error_code error;
    const auto file_size = std::filesystem::file_size(path, error);
    if (error) {
        throw Error("\"" + path.string() + "\" cannot be read: " + error.message());
    }
    const ZipBytes read = [&path](std::uint64_t offset, std::size_t size) {
        std::ifstream file(path, std::ios::binary);
        std::string bytes(size, '\0');
        file.seekg(std::streamoff(offset));
        file.read(bytes.data(), std::streamsize(size));
        bytes.resize(std::size_t(std::max<std::streamsize>(0, file.gcount())));
        return bytes;
    };
    return read_archive(
        [&] { return std::make_unique<caffe2::serialize::PyTorchStreamReader>(path.string()); },
        read, static_cast<std::size_t>(file_size), path);
}

c10::IValue read_torch_bytes(const std::string& bytes, const std::filesystem::path& name) {
    std::istringstream stream(bytes);
    const ZipBytes read = [&bytes](std::uint64_t offset, std::size_t size) {
        return offset < bytes.size() ? bytes.substr(std::size_t(offset), size) : std::string();
    };
    return read_archive(
        [&] { return std::make_unique<caffe2::serialize::PyTorchStreamReader>(&stream); }, read,
        bytes.size(), name);
}

std::vector<std::pair<std::string, torch::Tensor>>
read_state_dict(const std::filesystem::path& path) {
    return state_dict_in(read_torch_file(path), path);
}

std::vector<std::pair<std::string, torch::Tensor>>
state_dict_in(const c10::IValue& content, const std::filesystem::path& path) {
    const std::optional<c10::IValue> state = find_state_dict(content);
    if (!state && is_torchscript_archive(path)) {
        throw Error("\"" + path.string() +
                    "\" is a TorchScript module, not a state_dict; Kiln never runs a weights "
                    "file's code: save its state_dict (torch.save(model.state_dict(), path)), "
                    "or, to train on the module itself, name it as model=torchscript:" +
                    path.string() + " (its code runs then)");
    }
    if (!state) {
        throw Error("\"" + path.string() +
                    "\" holds no state_dict (a dict of tensors, at the top or under "
                    "\"state_dict\", \"model\", \"model_state_dict\" or \"state\")");
    }
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    for (const auto& entry : state->toGenericDict()) {
        if (entry.key().isString() && entry.value().isTensor()) {
            tensors.emplace_back(entry.key().toStringRef(), entry.value().toTensor());
        }
    }
    return tensors;
}

void write_torch_load_compatible(const c10::IValue& value, const ByteSink& sink) {
    std::vector<char> pickled; // the structure: the tensors' bytes are written from the tensors
    torch::jit::Pickler pickler(
        [&](const char* bytes, std::size_t size) {
            pickled.insert(pickled.end(), bytes, bytes + size);
        },
        /*tensor_table=*/nullptr, /*type_renamer=*/nullptr, /*memoized_class_types=*/nullptr,
        /*get_tensor_id=*/nullptr, /*tag_aggregates=*/false);
    pickler.protocol();
    pickler.pushIValue(value);
    pickler.stop();
    // The writer must not see the sink fail: an exception through it unwinds into its
    // destructor, which writes the archive's end again and throws, ending the process (a full
    // disk aborted a run at its checkpoint). The first failure is kept, the rest of the archive
    // discarded, and the failure thrown once the writer is done.
    std::exception_ptr failed;
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* bytes, std::size_t size) {
        if (!failed) {
            try {
                sink(static_cast<const char*>(bytes), size);
            } catch (...) {
                failed = std::current_exception();
            }
        }
        return size;
    });
    torch::jit::writeArchiveAndTensors("data", pickled.data(), pickled.size(), pickler.tensorData(),
                                       writer);
    writer.writeEndOfFile();
    if (failed) {
        std::rethrow_exception(failed);
    }
}

std::vector<char> torch_load_compatible(const c10::IValue& value) {
    std::vector<char> file;
    write_torch_load_compatible(value, [&file](const char* bytes, std::size_t size) {
        file.insert(file.end(), bytes, bytes + size);
    });
    return file;
}

void write_torch_file(const std::filesystem::path& path, const c10::IValue& value) {
    write_file_atomically(
        path, [&value](const ByteSink& sink) { write_torch_load_compatible(value, sink); });
}

} // namespace kiln::models

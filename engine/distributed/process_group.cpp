// c10d declares its Gloo process group only where the build says it has one. Every LibTorch
// with c10d has Gloo (its CPU backend), but torch wheels leave out Gloo's headers, which
// Debian's libgloo-dev provides; built without them, Kiln's processes meet over NCCL only.
#if __has_include(<gloo/algorithm.h>)
#define KILN_WITH_GLOO
#ifndef USE_C10D_GLOO
#define USE_C10D_GLOO
#endif
#endif

#include "distributed/process_group.h"

#include "core/error.h"
#include "distributed/nccl_backend.h"

#include <ATen/ATen.h>
#include <cstdlib>
#include <thread>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#ifdef KILN_WITH_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace kiln::distributed {
namespace {

#ifdef KILN_WITH_GLOO
bool is_loopback(const std::string& address) {
    return address == "localhost" || address.rfind("127.", 0) == 0 || address == "::1";
}
#endif

std::string seconds_text(std::chrono::milliseconds duration) {
    return std::to_string(duration.count() / 1000) + " s";
}

std::string message_of(const std::exception& error) {
    if (const auto* torch_error = dynamic_cast<const c10::Error*>(&error)) {
        return torch_error->what_without_backtrace();
    }
    return error.what();
}

// Rows of every rank, concatenated; the backward pass hands each rank the summed gradient of
// its own rows, as torch.distributed.nn.functional.all_gather does.
struct AllGatherFunction : torch::autograd::Function<AllGatherFunction> {
    static at::Tensor forward(torch::autograd::AutogradContext* context, const at::Tensor& input,
                              std::int64_t group_address,
                              const std::function<at::Tensor(const at::Tensor&)>& gather) {
        context->saved_data["group"] = group_address;
        context->saved_data["rows"] = input.size(0);
        return gather(input);
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::tensor_list gradients) {
        // The group outlives every graph built during its run; autograd keeps only numbers.
        auto* group = reinterpret_cast<ProcessGroup*>(context->saved_data["group"].toInt());
        const std::int64_t rows = context->saved_data["rows"].toInt();
        at::Tensor summed = gradients[0].contiguous().clone();
        group->all_reduce_sum(summed);
        return {summed.narrow(0, group->rank() * rows, rows), at::Tensor(), at::Tensor()};
    }
};

} // namespace

struct ProcessGroup::Connection {
    c10::intrusive_ptr<c10d::TCPStore> store;
    c10::intrusive_ptr<c10d::Backend> backend; // Gloo on the CPU, NCCL on CUDA
};

ProcessGroup::ProcessGroup(const RankEnvironment& environment, std::chrono::milliseconds timeout,
                           c10::Device device)
    : rank_(environment.rank), world_size_(environment.world_size), device_(device),
      master_(environment.master_addr), timeout_(timeout),
      connection_(std::make_unique<Connection>()) {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(environment.master_port);
    options.isServer = rank_ == 0;
    options.waitWorkers = false;
    options.timeout = timeout;
    try {
        connection_->store = c10::make_intrusive<c10d::TCPStore>(master_, options);
    } catch (const std::exception& error) {
        if (rank_ == 0) {
            throw Error("cannot open the rendezvous port MASTER_PORT=" +
                        std::to_string(environment.master_port) + " on " + master_ + " (" +
                        message_of(error) +
                        "): it is probably in use; set MASTER_PORT to a free port");
        }
        throw Error("cannot reach the master at MASTER_ADDR=" + master_ +
                    " MASTER_PORT=" + std::to_string(environment.master_port) + " within " +
                    seconds_text(timeout) + " (" + message_of(error) +
                    "): start node 0 (NODE_RANK=0) and check that this node can reach that "
                    "address and port");
    }
    master_ += ":" + std::to_string(port());
}

bool gloo_available() {
#ifdef KILN_WITH_GLOO
    return true;
#else
    return false;
#endif
}

ProcessGroup::~ProcessGroup() = default;

int ProcessGroup::port() const {
    return connection_->store->getPort();
}

void ProcessGroup::join(const std::function<void()>& check) {
    const std::string joined_key = "kiln/joined";
    if (rank_ == 0) {
        const auto deadline = std::chrono::steady_clock::now() + timeout_;
        std::int64_t joined = 0;
        while ((joined = connection_->store->add(joined_key, 0)) < world_size_ - 1) {
            if (check) {
                check();
            }
            if (std::chrono::steady_clock::now() > deadline) {
                throw Error(std::to_string(joined) + " of the " + std::to_string(world_size_ - 1) +
                            " other ranks joined " + master_ + " within " + seconds_text(timeout_) +
                            ": start every node with the same num_nodes, devices, MASTER_ADDR "
                            "and MASTER_PORT, or raise KILN_DISTRIBUTED_TIMEOUT");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    } else {
        connection_->store->add(joined_key, 1);
    }
    if (device_.is_cuda()) {
        try {
            const auto store = c10::make_intrusive<c10d::PrefixStore>("nccl", connection_->store);
            connection_->backend = make_nccl_backend(store, rank_, world_size_, timeout_);
        } catch (const Error&) {
            throw;
        } catch (const std::exception& error) {
            fail("connecting the ranks over NCCL", error);
        }
        return;
    }
#ifdef KILN_WITH_GLOO
    auto options = c10d::ProcessGroupGloo::Options::create(timeout_);
    try {
        const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
        if (interface != nullptr && *interface != '\0') {
            options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
        } else if (is_loopback(master_.substr(0, master_.rfind(':')))) {
            options->devices.push_back(
                c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
        } else {
            options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        }
        const auto store = c10::make_intrusive<c10d::PrefixStore>("gloo", connection_->store);
        connection_->backend =
            c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank_, world_size_, options);
    } catch (const Error&) {
        throw;
    } catch (const std::exception& error) {
        fail("connecting the ranks", error);
    }
#else
    throw Error("this Kiln was built without Gloo's headers, so several processes on the CPU "
                "cannot meet: train on CUDA (NCCL), or rebuild Kiln with Gloo's headers "
                "installed (Debian: libgloo-dev)");
#endif
}

void ProcessGroup::set_failure_explainer(std::function<std::optional<std::string>()> explain) {
    explain_failure_ = std::move(explain);
}

void ProcessGroup::fail(const std::string& operation, const std::exception& error) const {
    if (explain_failure_) {
        if (const std::optional<std::string> reason = explain_failure_()) {
            throw Error(*reason + "; the run cannot go on without it");
        }
    }
    throw Error("rank " + std::to_string(rank_) + " lost contact with the other ranks while " +
                operation + " (" + message_of(error) +
                "): another rank stopped or is stuck, see its output");
}

template <typename Collective>
void ProcessGroup::run(const std::string& operation, Collective collective) {
    try {
        collective(*connection_->backend);
    } catch (const std::exception& error) {
        fail(operation, error);
    }
}

void ProcessGroup::all_reduce(at::Tensor& tensor, const std::string& operation, bool maximum) {
    run(operation, [&](c10d::Backend& backend) {
        // NCCL reduces device memory only: small host tensors (metrics) travel through it.
        std::vector<at::Tensor> tensors{tensor.to(device_)};
        backend.allreduce(tensors, {maximum ? c10d::ReduceOp::MAX : c10d::ReduceOp::SUM})->wait();
        if (!tensors[0].is_same(tensor)) {
            tensor.copy_(tensors[0]);
        }
    });
}

void ProcessGroup::all_reduce_sum(at::Tensor& tensor) {
    all_reduce(tensor, "adding tensors", false);
}

void ProcessGroup::all_reduce_max(at::Tensor& tensor) {
    all_reduce(tensor, "taking maxima", true);
}

namespace {

// Consecutive tensors of one dtype, flattened together up to about `bucket_bytes`.
std::vector<std::vector<at::Tensor>> buckets_of(const std::vector<at::Tensor>& tensors,
                                                std::int64_t bucket_bytes) {
    std::vector<std::vector<at::Tensor>> buckets;
    std::int64_t bytes = 0;
    for (const at::Tensor& tensor : tensors) {
        const std::int64_t size = tensor.numel() * static_cast<std::int64_t>(tensor.element_size());
        if (buckets.empty() || bytes + size > bucket_bytes ||
            buckets.back().front().scalar_type() != tensor.scalar_type()) {
            buckets.emplace_back();
            bytes = 0;
        }
        buckets.back().push_back(tensor);
        bytes += size;
    }
    return buckets;
}

at::Tensor flatten(const std::vector<at::Tensor>& tensors) {
    std::vector<at::Tensor> flat;
    flat.reserve(tensors.size());
    for (const at::Tensor& tensor : tensors) {
        flat.push_back(tensor.reshape(-1));
    }
    return at::cat(flat);
}

void unflatten_into(const at::Tensor& flat, const std::vector<at::Tensor>& tensors) {
    std::int64_t offset = 0;
    for (const at::Tensor& tensor : tensors) {
        tensor.copy_(flat.narrow(0, offset, tensor.numel()).view_as(tensor));
        offset += tensor.numel();
    }
}

} // namespace

void ProcessGroup::broadcast(const std::vector<at::Tensor>& tensors) {
    const at::NoGradGuard no_grad;
    run("sending rank 0's weights", [&](c10d::Backend& backend) {
        for (const std::vector<at::Tensor>& bucket : buckets_of(tensors, kBucketBytes)) {
            std::vector<at::Tensor> flat{flatten(bucket).to(device_)};
            backend.broadcast(flat, {0})->wait();
            if (rank_ != 0) {
                unflatten_into(flat[0], bucket);
            }
        }
    });
}

void ProcessGroup::average(const std::vector<at::Tensor>& tensors, std::int64_t bucket_bytes) {
    const at::NoGradGuard no_grad;
    run("averaging gradients", [&](c10d::Backend& backend) {
        const std::vector<std::vector<at::Tensor>> buckets = buckets_of(tensors, bucket_bytes);
        std::vector<std::vector<at::Tensor>> flats;
        std::vector<c10::intrusive_ptr<c10d::Work>> pending;
        for (const std::vector<at::Tensor>& bucket : buckets) { // all in flight at once
            flats.push_back({flatten(bucket)});
            pending.push_back(backend.allreduce(flats.back(), {c10d::ReduceOp::SUM}));
        }
        for (std::size_t i = 0; i < buckets.size(); ++i) {
            pending[i]->wait();
            unflatten_into(flats[i][0].div_(world_size_), buckets[i]);
        }
    });
}

at::Tensor ProcessGroup::all_gather(const at::Tensor& tensor) {
    const auto gather = [this](const at::Tensor& input) {
        // The gathered rows stay on the device the input lives on (NCCL: this rank's GPU).
        std::vector<at::Tensor> parts;
        run("gathering tensors", [&](c10d::Backend& backend) {
            std::vector<at::Tensor> inputs{input.detach().contiguous()};
            std::vector<std::vector<at::Tensor>> outputs(1);
            for (int r = 0; r < world_size_; ++r) {
                outputs[0].push_back(at::empty_like(inputs[0]));
            }
            backend.allgather(outputs, inputs)->wait();
            parts = std::move(outputs[0]);
        });
        return at::cat(parts);
    };
    return AllGatherFunction::apply(tensor, reinterpret_cast<std::int64_t>(this), gather);
}

void ProcessGroup::barrier() {
    run("waiting for the other ranks", [](c10d::Backend& backend) { backend.barrier()->wait(); });
}

} // namespace kiln::distributed

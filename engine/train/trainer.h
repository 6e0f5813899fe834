#pragma once

#include "config/run_config.h"
#include "core/stop_token.h"
#include "train/events.h"

namespace kiln::train {

// Pretrains config.model with config.method on config.data, writing into config.out:
// config.json, checkpoints/last.ckpt (every epoch, and every
// callbacks.model_checkpoint.every_n_steps steps), exported_models/exported_last.pt.
// `config` must be resolved (resolve_train_config). A stop request ends the run after the
// current step with a checkpoint; a non-finite loss is a kiln::Error that keeps the last good
// checkpoint. With num_nodes x devices > 1 it trains with distributed data parallel: it starts
// this node's other ranks and runs the first itself (or, under an external launcher such as
// torchrun, runs the rank the environment names); only rank 0 writes and reports. Runs on the
// CPU or, with accelerator=cuda, on one GPU per process (NCCL between them).
RunSummary train(const TrainConfig& config, TrainObserver& observer, StopToken stop = {});

// The whole of a rank process Kiln started (main() with distributed::kRankProcessArgument):
// reads the resolved config as JSON from stdin and trains as the rank the environment names.
// Ctrl-C is left to the launcher, which stops every rank after the same step. Errors go to
// stderr as "error: ..." lines, which the launcher reports. Returns the exit code: 0 finished,
// 130 stopped, 1 failed.
int rank_process_main();

} // namespace kiln::train

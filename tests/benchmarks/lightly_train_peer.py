"""LightlyTrain pretraining with the settings bench_lightly_train gives Kiln, for a fixed time.

    python lightly_train_peer.py OUT DATA METHOD SECONDS EPOCHS BATCH_SIZE WORKERS IMAGE_SIZE \
        SEED [LOCAL_VIEW_SIZE]

Pretrains torchvision's ResNet-18 on the CPU for EPOCHS (its schedules, warm-up and decay,
follow them), with Lightning stopping after SECONDS of training (trainer_args.max_time), every step's timing logged (log_every_n_steps=1) to
OUT/metrics.jsonl, and the backbone exported to OUT/exported_models/exported_last.pt. Prints
one JSON line: the steps done and the training's wall time.
"""
import json
import os
import sys
import time

os.environ.setdefault("LIGHTLY_TRAIN_EVENTS_DISABLED", "1")

import lightly_train  # noqa: E402


def main():
    out, data, method, seconds, epochs, batch_size, workers, image_size, seed = sys.argv[1:10]
    transform_args = {"image_size": [int(image_size), int(image_size)]}
    if len(sys.argv) > 10:
        size = int(sys.argv[10])
        transform_args["local_view"] = {"view_size": [size, size]}
    started = time.perf_counter()
    lightly_train.pretrain(
        out=out,
        data=data,
        model="torchvision/resnet18",
        method=method,
        epochs=int(epochs),
        batch_size=int(batch_size),
        num_workers=int(workers),
        accelerator="cpu",
        devices=1,
        precision="32-true",
        seed=int(seed),
        overwrite=True,
        transform_args=transform_args,
        loggers={"tensorboard": None},
        trainer_args={"max_time": {"seconds": float(seconds)}, "log_every_n_steps": 1},
    )
    steps = 0
    with open(os.path.join(out, "metrics.jsonl")) as lines:
        for line in lines:
            steps = max(steps, json.loads(line).get("step", 0))
    print(json.dumps({"steps": steps, "seconds": time.perf_counter() - started}))


if __name__ == "__main__":
    main()

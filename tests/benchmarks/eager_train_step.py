"""PyTorch eager doing bench_train_step's step: torchvision's ResNet-18 (or 50) without fc, a
2048-2048-128 head... as Kiln's SimCLR (Linear, BatchNorm1d, ReLU, Linear to 128), NT-Xent at
0.1, SGD with momentum; batch 64 of two 64x64 views on the CPU. Prints images/s per variant:
    32-true contiguous, 32-true channels-last, bf16-mixed contiguous, bf16-mixed channels-last
as four numbers on one line. Arguments: MODEL STEPS THREADS."""
import sys
import time

import torch
import torch.nn.functional as F
import torchvision

model_name, steps, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch.set_num_threads(threads)


def rate(bf16, channels_last):
    torch.manual_seed(0)
    backbone = getattr(torchvision.models, model_name)()
    features = backbone.fc.in_features
    backbone.fc = torch.nn.Identity()
    head = torch.nn.Sequential(torch.nn.Linear(features, 2048), torch.nn.BatchNorm1d(2048),
                               torch.nn.ReLU(), torch.nn.Linear(2048, 128))
    model = torch.nn.Sequential(backbone, head)
    memory = torch.channels_last if channels_last else torch.contiguous_format
    model = model.to(memory_format=memory)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    views = [torch.randn(64, 3, 64, 64).contiguous(memory_format=memory) for _ in range(2)]

    def step():
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            z = F.normalize(model(torch.cat(views)).float(), dim=1)
        logits = z @ z.t() / 0.1
        logits.fill_diagonal_(float("-inf"))
        targets = torch.cat([torch.arange(64, 128), torch.arange(0, 64)])
        F.cross_entropy(logits, targets).backward()
        optimizer.step()

    step()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return 64 * steps / (time.perf_counter() - start)


print(" ".join(f"{rate(b, c):.2f}" for b, c in [(False, False), (False, True), (True, False),
                                                 (True, True)]))

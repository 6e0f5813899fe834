"""PyTorch eager doing Kiln's SimCLR step (ResNet-50, 2048-2048-128 head with batch norm,
NT-Xent at 0.1, LARS as Kiln's SimCLR recipe has it: momentum 0.9, weight decay 1e-6 and trust
ratios on the weights of more than one dimension, written with foreach kernels) on random
tensors already on the GPU; prints images/s (two views per image counted once, as Kiln counts
images). Loading is not measured: this is the compute ceiling."""
import argparse
import time

import torch
import torch.nn.functional as F
import torchvision

parser = argparse.ArgumentParser()
parser.add_argument("--precision", default="bf16-mixed")
parser.add_argument("--batch", type=int, default=256)
parser.add_argument("--size", type=int, default=224)
parser.add_argument("--steps", type=int, default=30)
parser.add_argument("--device", default="cuda")  # cpu: a rehearsal of the script
args = parser.parse_args()

device = torch.device(args.device)
torch.backends.cudnn.benchmark = True
backbone = torchvision.models.resnet50()
backbone.fc = torch.nn.Identity()
head = torch.nn.Sequential(torch.nn.Linear(2048, 2048), torch.nn.BatchNorm1d(2048),
                           torch.nn.ReLU(), torch.nn.Linear(2048, 128))
model = torch.nn.Sequential(backbone, head).to(device).to(memory_format=torch.channels_last)
parameters = list(model.parameters())
momenta = [torch.zeros_like(p) for p in parameters]
decayed = [i for i, p in enumerate(parameters) if p.dim() > 1]


@torch.no_grad()
def lars(lr=0.3, momentum=0.9, weight_decay=1e-6, trust=0.001):
    gradients = [p.grad for p in parameters]
    weights = [parameters[i] for i in decayed]
    updated = torch._foreach_add([gradients[i] for i in decayed], weights, alpha=weight_decay)
    weight_norms = torch.stack(torch._foreach_norm(weights))
    update_norms = torch.stack(torch._foreach_norm(updated))
    ratios = torch.where((weight_norms > 0) & (update_norms > 0),
                         trust * weight_norms / update_norms, torch.ones_like(weight_norms))
    torch._foreach_mul_(updated, list(ratios.unbind()))
    for k, i in enumerate(decayed):
        gradients[i] = updated[k]
    torch._foreach_mul_(momenta, momentum)
    torch._foreach_add_(momenta, gradients)
    torch._foreach_add_(parameters, momenta, alpha=-lr)


dtype = torch.float16 if args.precision == "16-mixed" else torch.bfloat16
loss_scale = 2.0 ** 16 if args.precision == "16-mixed" else None
views = [torch.randn(args.batch, 3, args.size, args.size, device=device)
         .to(memory_format=torch.channels_last) for _ in range(2)]


def step():
    for p in parameters:
        p.grad = None
    with torch.autocast(device.type, dtype=dtype):
        z = F.normalize(model(torch.cat(views)).float(), dim=1)
        logits = z @ z.t() / 0.1
        logits.fill_diagonal_(float("-inf"))
        n = args.batch
        targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(device)
        loss = F.cross_entropy(logits, targets)
    global loss_scale
    if loss_scale is None:
        loss.backward()
        lars()
        return
    # Dynamic loss scaling as GradScaler does it: unscale, and skip a step whose gradients are
    # not finite, halving the scale (one read of the verdict on the host, as GradScaler's).
    (loss * loss_scale).backward()
    gradients = [p.grad for p in parameters]
    torch._foreach_mul_(gradients, 1.0 / loss_scale)
    if bool(torch.stack(torch._foreach_norm(gradients)).isfinite().all()):
        lars()
    else:
        loss_scale /= 2


synchronize = torch.cuda.synchronize if device.type == "cuda" else lambda: None
for _ in range(5):
    step()
synchronize()
start = time.perf_counter()
for _ in range(args.steps):
    step()
synchronize()
print(f"{args.batch * args.steps / (time.perf_counter() - start):.0f}")

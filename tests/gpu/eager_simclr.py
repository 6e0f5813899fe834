"""PyTorch eager doing Kiln's SimCLR step (ResNet-50, 2048-2048-128 head with batch norm,
NT-Xent at 0.1, SGD) on random tensors already on the GPU; prints images/s (two views per image
counted once, as Kiln counts images). Loading is not measured: this is the compute ceiling."""
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
args = parser.parse_args()

device = torch.device("cuda")
torch.backends.cudnn.benchmark = True
backbone = torchvision.models.resnet50()
backbone.fc = torch.nn.Identity()
head = torch.nn.Sequential(torch.nn.Linear(2048, 2048), torch.nn.BatchNorm1d(2048),
                           torch.nn.ReLU(), torch.nn.Linear(2048, 128))
model = torch.nn.Sequential(backbone, head).to(device).to(memory_format=torch.channels_last)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
dtype = torch.float16 if args.precision == "16-mixed" else torch.bfloat16
scaler = torch.amp.GradScaler("cuda", enabled=args.precision == "16-mixed")
views = [torch.randn(args.batch, 3, args.size, args.size, device=device)
         .to(memory_format=torch.channels_last) for _ in range(2)]


def step():
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=dtype):
        z = F.normalize(model(torch.cat(views)).float(), dim=1)
        logits = z @ z.t() / 0.1
        logits.fill_diagonal_(float("-inf"))
        n = args.batch
        targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(device)
        loss = F.cross_entropy(logits, targets)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()


for _ in range(5):
    step()
torch.cuda.synchronize()
start = time.perf_counter()
for _ in range(args.steps):
    step()
torch.cuda.synchronize()
print(f"{args.batch * args.steps / (time.perf_counter() - start):.0f}")

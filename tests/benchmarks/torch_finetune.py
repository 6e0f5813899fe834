"""The supervised baseline of bench_finetune: the same small CNN, augmentation, optimizer and
schedule as `kiln train-image-classification`, in PyTorch eager with torchvision's ImageFolder
and DataLoader. Prints one JSON line: top-1 on the test folder, training images/s, seconds.

    torch_finetune.py TRAIN_DIR TEST_DIR --epochs 5 --batch-size 128 --workers 1
"""

import argparse
import json
import math
import os
import time

import torch
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.transforms as T

MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


def small_cnn(classes):
    """Kiln's smallcnn: four 3x3 stride-2 conv-BN-ReLU blocks, average pooling, and Kiln's
    default classifier head (a hidden layer with batch norm and ReLU, then linear)."""
    layers, channels = [], 3
    for width in (32, 64, 128, 256):
        layers += [nn.Conv2d(channels, width, 3, 2, 1, bias=False), nn.BatchNorm2d(width),
                   nn.ReLU(inplace=True)]
        channels = width
    head = [nn.Linear(256, 256, bias=False), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, classes)]
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), *head)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("train")
    parser.add_argument("test")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--image-size", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    # As Kiln does: the loader workers get their cores, compute the rest (at least one).
    torch.set_num_threads(max(1, (os.cpu_count() or 1) - args.workers))

    train_set = datasets.ImageFolder(args.train, T.Compose([
        T.RandomResizedCrop(args.image_size, scale=(0.08, 1.0)), T.RandomHorizontalFlip(),
        T.ToTensor(), T.Normalize(MEAN, STD)]))
    test_set = datasets.ImageFolder(args.test, T.Compose([
        T.Resize((args.image_size, args.image_size)), T.ToTensor(), T.Normalize(MEAN, STD)]))
    train_loader = torch.utils.data.DataLoader(
        train_set, batch_size=args.batch_size, shuffle=True, drop_last=True,
        num_workers=args.workers, persistent_workers=args.workers > 0)
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=256,
                                              num_workers=args.workers)

    model = small_cnn(len(train_set.classes))
    decay = [p for n, p in model.named_parameters() if p.ndim > 1]
    no_decay = [p for n, p in model.named_parameters() if p.ndim <= 1]
    peak = 1e-3 * args.batch_size / 256
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01},
                                   {"params": no_decay, "weight_decay": 0.0}], lr=peak)
    steps_per_epoch = len(train_loader)
    total = steps_per_epoch * args.epochs
    warmup = min(steps_per_epoch, total // 10)

    def lr_at(step):
        if step < warmup:
            return peak * (step + 1) / warmup
        return peak * 0.5 * (1 + math.cos(math.pi * (step - warmup) / max(1, total - warmup)))

    step, images, started = 0, 0, time.perf_counter()
    model.train()
    for _ in range(args.epochs):
        for batch, target in train_loader:
            for group in optimizer.param_groups:
                group["lr"] = lr_at(step)
            loss = nn.functional.cross_entropy(model(batch), target)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            step += 1
            images += batch.shape[0]
    train_seconds = time.perf_counter() - started

    model.eval()
    correct = count = 0
    with torch.no_grad():
        for batch, target in test_loader:
            correct += (model(batch).argmax(1) == target).sum().item()
            count += target.numel()
    print(json.dumps({"top1": correct / count, "images_per_second": images / train_seconds,
                      "seconds": train_seconds}))


if __name__ == "__main__":
    main()

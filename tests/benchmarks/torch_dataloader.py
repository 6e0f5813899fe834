"""PyTorch's DataLoader with torchvision/PIL SimCLR views, as LightlyTrain builds them: the
baseline bench_data compares Kiln's loader with. Prints one line: `<images per second>`.

usage: python3 torch_dataloader.py FOLDER WORKERS [BATCH_SIZE]
"""
import os
import random
import sys
import time

import torch
import torchvision.transforms as T
from PIL import Image, ImageFilter


class RandomGaussianBlur:
    """PIL's GaussianBlur with a random sigma, as LightlyTrain's SimCLR transform applies it."""

    def __init__(self, prob=0.5, sigmas=(0.1, 2.0)):
        self.prob = prob
        self.sigmas = sigmas

    def __call__(self, image):
        if random.random() < self.prob:
            return image.filter(ImageFilter.GaussianBlur(radius=random.uniform(*self.sigmas)))
        return image


def simclr_view():
    return T.Compose([
        T.RandomResizedCrop(224, scale=(0.08, 1.0)),
        T.RandomHorizontalFlip(),
        T.RandomApply([T.ColorJitter(0.8, 0.8, 0.8, 0.2)], p=0.8),
        T.RandomGrayscale(p=0.2),
        RandomGaussianBlur(),
        T.ToTensor(),
        T.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225)),
    ])


class Images(torch.utils.data.Dataset):
    def __init__(self, folder):
        self.paths = sorted(
            os.path.join(root, name)
            for root, _, names in os.walk(folder)
            for name in names
            if name.lower().endswith((".jpg", ".jpeg", ".png"))
        )
        self.view = simclr_view()

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        image = Image.open(self.paths[index]).convert("RGB")
        return self.view(image), self.view(image)


def main():
    folder, workers = sys.argv[1], int(sys.argv[2])
    batch_size = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    torch.set_num_threads(1)
    loader = torch.utils.data.DataLoader(
        Images(folder), batch_size=batch_size, num_workers=workers, drop_last=False
    )
    start = time.perf_counter()
    images = sum(first.shape[0] for first, _ in loader)
    print(f"{images / (time.perf_counter() - start):.1f}")


if __name__ == "__main__":
    main()

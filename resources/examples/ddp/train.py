"""A PyTorch DistributedDataParallel trainable for a gang trial (resources_per_trial.workers).

Every rank trains the same small regression model on its own shard of generated data; DDP
averages the gradients, so all ranks hold the same weights after each step. Rank 0 reports the
validation loss and hands over a checkpoint every 4 steps; every rank restores from it.
Each rank appends "STEP CHECKSUM" to weights-rank<N>.txt in the trial folder, so anyone can
check that the ranks agree (the tests do).
"""
import argparse
import os
import tempfile
import time

import torch
import torch.distributed as dist

import tunedeck

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, required=True)
parser.add_argument("--width", type=int, required=True)
parser.add_argument("--steps", type=int, default=1000)
parser.add_argument("--sleep", type=float, default=0, help="seconds to wait after each step")
parser.add_argument("--device", default="cpu",
                    help="cuda: train on the rank's card (the engine sets CUDA_VISIBLE_DEVICES)")
args = parser.parse_args()

if "WORLD_SIZE" not in os.environ:
    # Run as a trial of one process (no `workers`): a world of one on this machine.
    os.environ.update(RANK="0", WORLD_SIZE="1", MASTER_ADDR="127.0.0.1", MASTER_PORT="0")
dist.init_process_group("gloo")  # MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE from the engine
rank, world = dist.get_rank(), dist.get_world_size()
device = torch.device("cuda:0" if args.device == "cuda" else "cpu")  # each rank sees its own cards
print("rank %d of %d on %s (CUDA_VISIBLE_DEVICES=%s)"
      % (rank, world, device, os.environ.get("CUDA_VISIBLE_DEVICES", "")), flush=True)
torch.manual_seed(0)  # the same initial weights on every rank
model = torch.nn.Sequential(
    torch.nn.Linear(8, args.width), torch.nn.Tanh(), torch.nn.Linear(args.width, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
step = 0
restore = tunedeck.get_checkpoint()
if restore:
    state = torch.load(os.path.join(restore, "model.pt"), map_location="cpu")
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    step = state["step"]
ddp = torch.nn.parallel.DistributedDataParallel(model)


def save(folder):
    # Asked by the engine (a pause, or resource_changing giving the trial another size).
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step},
               os.path.join(folder, "model.pt"))


if rank == 0:
    tunedeck.on_save(save)

true_weights = torch.linspace(-1.0, 1.0, 8).unsqueeze(1)


def batch(seed):
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(64, 8, generator=generator)
    y = torch.sin(x @ true_weights) + 0.05 * torch.randn(64, 1, generator=generator)
    return x.to(device), y.to(device)


val_x, val_y = batch(10**6)
checksums = open(os.path.join(tunedeck.get_trial_dir(), "weights-rank%d.txt" % rank), "a")
while step < args.steps:
    x, y = batch(step * world + rank)  # each rank its own shard
    optimizer.zero_grad()
    torch.nn.functional.mse_loss(ddp(x), y).backward()  # gradients averaged over the ranks
    optimizer.step()
    step += 1
    with torch.no_grad():
        checksum = sum(float(p.double().sum()) for p in model.parameters())
        val_loss = float(torch.nn.functional.mse_loss(model(val_x), val_y))
    checksums.write("%d %.12f\n" % (step, checksum))
    checksums.flush()
    time.sleep(args.sleep)
    if rank != 0:
        continue
    metrics = {"val_loss": val_loss, "training_iteration": step, "world_size": world}
    if step % 4 == 0:
        folder = tempfile.mkdtemp(dir=tunedeck.get_trial_dir())
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "step": step}, os.path.join(folder, "model.pt"))
        tunedeck.report(metrics, checkpoint=folder)
    else:
        tunedeck.report(metrics)

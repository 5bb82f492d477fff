"""The trainable of bench_gang_start: every rank joins a gloo process group, waits at a barrier,
and writes when it got there. Started either by tunedeck-engine as a gang trial or by hand with
`python3 -m torch.distributed.run` (the same script, the same environment variables).

Usage: gang_ready.py OUT_DIR. Each rank writes OUT_DIR/ready-rank<N>.txt with four time.time()
stamps: script start (before importing torch), imports done, process group joined, barrier
passed. Rank 0 then reports once (with no engine the SDK prints the report) and every rank exits.
"""
import os
import sys
import time

started = time.time()

import torch  # noqa: E402  (the stamp above is taken before the heavy imports on purpose)
import torch.distributed as dist  # noqa: E402

import tunedeck  # noqa: E402

imported = time.time()
dist.init_process_group("gloo")  # MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE from the launcher
joined = time.time()
dist.barrier()
ready = time.time()
rank = dist.get_rank()
with open(os.path.join(sys.argv[1], "ready-rank%d.txt" % rank), "w") as stamps:
    stamps.write("%.6f %.6f %.6f %.6f\n" % (started, imported, joined, ready))
# Every rank has written its stamps before rank 0 ends (the engine ends a gang with its rank 0).
dist.barrier()
if rank == 0:
    tunedeck.report({"ready": ready, "world_size": dist.get_world_size(), "torch": torch.__version__})
dist.destroy_process_group()

#!/bin/bash
set -e

export CUDA_VISIBLE_DEVICES=0,1
export CUDA_LAUNCH_BLOCKING=1
export NCCL_NVLS_ENABLE=0
export OMP_NUM_THREADS=4

python -m torch.distributed.run --nproc_per_node=2 train.py --config config/train.yaml

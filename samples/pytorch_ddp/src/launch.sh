#!/usr/bin/env bash
# Start one training process per visible GPU on this node.
set -euo pipefail

export NCCL_DEBUG=WARN
export NCCL_NVLS_ENABLE=0
export NCCL_P2P_LEVEL=NVL
export CUDA_VISIBLE_DEVICES="${CUDA_VISIBLE_DEVICES:-0,1,2,3,4,5,6,7}"

NPROC=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | wc -l)
torchrun --standalone --nproc_per_node="$NPROC" train.py "$@"

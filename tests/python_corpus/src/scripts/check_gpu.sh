#!/bin/sh
# Fail fast when the node has no working GPU.
if ! nvidia-smi > /dev/null 2>&1; then
    echo "no GPU found" >&2
    exit 1
fi
echo "GPU ok"

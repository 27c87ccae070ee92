#!/usr/bin/env bash
IMAGE=${IMAGE:-vision-train:latest}
docker run --rm --gpus all --shm-size=16g -v "$PWD":/workspace "$IMAGE" bash run_train.sh

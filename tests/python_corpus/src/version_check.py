import logging

import torch

log = logging.getLogger(__name__)


def describe_runtime():
    if torch.version.cuda:
        log.info("GPU runtime %s", torch.version.cuda)
    else:
        log.warning("no GPU runtime: running on the CPU")


def supports_cuda_graphs_fully():
    return torch.version.cuda is not None and torch.version.cuda >= "11.8"

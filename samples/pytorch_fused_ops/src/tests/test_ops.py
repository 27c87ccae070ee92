import pytest
import torch

from fused_ops import FusedAdam, FusedLayerNorm, softmax_cross_entropy

needs_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


@needs_gpu
def test_layernorm_matches_torch():
    x = torch.randn(64, 1024, device="cuda")
    layer = FusedLayerNorm(1024).cuda()
    with torch.no_grad():
        torch.testing.assert_close(layer(x), torch.nn.functional.layer_norm(x, (1024,), layer.weight, layer.bias))


@needs_gpu
def test_softmax_cross_entropy_matches_torch():
    logits = torch.randn(128, 1000, device="cuda")
    labels = torch.randint(0, 1000, (128,), device="cuda")
    torch.testing.assert_close(softmax_cross_entropy(logits, labels),
                               torch.nn.functional.cross_entropy(logits, labels, reduction="none"))


def test_adam_reduces_a_quadratic():
    w = torch.nn.Parameter(torch.full((16,), 3.0, device="cuda" if torch.cuda.is_available() else "cpu"))
    opt = FusedAdam([w], lr=0.1)
    for _ in range(200):
        opt.zero_grad()
        (w ** 2).sum().backward()
        opt.step()
    assert w.abs().max().item() < 0.1

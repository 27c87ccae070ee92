"""Fused CUDA kernels for PyTorch: LayerNorm, Adam and softmax cross-entropy, with torch fallbacks when the
extensions are not built."""
from fused_ops.layers import FusedLayerNorm, softmax_cross_entropy
from fused_ops.optim import FusedAdam

__version__ = "0.3.0"
__all__ = ["FusedAdam", "FusedLayerNorm", "softmax_cross_entropy", "__version__"]

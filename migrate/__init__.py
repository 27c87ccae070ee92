"""hipmigrate: a CUDA to HIP migration assistant."""

__version__ = "0.1.0"

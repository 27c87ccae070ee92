"""Benchmarks of hipmigrate: a synthetic CUDA corpus and engine timings."""

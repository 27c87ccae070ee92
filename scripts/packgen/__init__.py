"""The stages of scripts/gen_packs.py, which (re)generates the mapping packs rules/mappings/<family>.toml.

families (API families, pinned wheels and packages), lexer (header text and tokens), scanner (declarations of
header text), fetch (wheels and Debian packages), hipify (hipify-perl runs), cuda_names (the candidate CUDA
names), packs (writing, overrides and validation of the packs) and cli (options and the run from end to end).
"""

"""The stages of scripts/gen_packs.py, which (re)generates the mapping packs rules/mappings/<family>.toml.

families (API families, pinned wheels and packages), lexer (header text and tokens), scanner (declarations of
header text), fetch (wheels and Debian packages), hipify (hipify-perl runs), cuda_names (the candidate CUDA
names), packs (writing, overrides and validation of the packs), convert (the hipify-perls over the candidates),
rows (the packs' rows, the overrides and the probe applied), summary (what the run prints at the end) and cli
(options and the run from end to end).
"""

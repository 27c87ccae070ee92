"""Build files read as data: CMake and Makefile parsing, make evaluation, nvcc options, torch extensions,
compile flags."""

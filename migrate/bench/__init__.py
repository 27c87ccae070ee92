"""Benchmarks: declarations (config), running them (runner), the machine they ran on (fingerprint), the results
file (results) and the statistics that compare two results files (stats). migrate/stages/bench.py chains them."""

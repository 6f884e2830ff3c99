// Filled in with the benchmark.

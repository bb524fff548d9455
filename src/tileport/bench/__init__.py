"""GPU benchmarks of the operator library: `tileport bench` runs `tileport.bench.runner.main`."""

print("benchmarks arrive soon")

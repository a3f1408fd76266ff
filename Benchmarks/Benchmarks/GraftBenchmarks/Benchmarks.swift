import Benchmark

/// The entry point the benchmark plugin calls: every library's suite, one scenario list each.
let benchmarks: @Sendable () -> Void = {
    HandWrittenSuite.register()
    GraftSuite.register()
    SwinjectSuite.register()
    DependenciesSuite.register()
}

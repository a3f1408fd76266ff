import Graft
import GraftObservability
import Metrics
import MetricsTestKit
import Testing

@Suite struct MetricsObserverCountsCreations {
    @Test func creationsAreCountedAndTimedPerServiceAndLifetime() throws {
        let metrics = TestMetrics()
        let container = try builder(observing: MetricsObserver(dimensions: [("app", "test")], factory: metrics)).build()

        for _ in 0..<3 {
            try container.withScope { scope in
                _ = try scope.resolve(Handler.self)
                _ = try scope.resolve(Handler.self)
            }
        }

        func dimensions(_ service: String, _ lifetime: String) -> [(String, String)] {
            [("app", "test"), ("service", service), ("lifetime", lifetime)]
        }
        #expect(try metrics.expectCounter("graft.creations", dimensions("Handler", "transient")).totalValue == 6)
        #expect(try metrics.expectCounter("graft.creations", dimensions("Repository", "scoped")).totalValue == 3)
        #expect(try metrics.expectCounter("graft.creations", dimensions("Settings", "singleton")).totalValue == 1)
        let handlerTimes = try metrics.expectTimer("graft.creation.duration", dimensions("Handler", "transient")).values
        #expect(handlerTimes.count == 6)
        #expect(handlerTimes.allSatisfy { $0 >= 0 })
    }

    @Test func aCreationsTimeIsItsDuration() throws {
        let metrics = TestMetrics()
        var builder = ContainerBuilder()
        builder.addObserver(MetricsObserver(factory: metrics))
        builder.register(SlowReport.self) { _ in SlowReport() }
        let container = try builder.build()

        _ = try container.resolve(SlowReport.self)

        let timer = try metrics.expectTimer(
            "graft.creation.duration",
            [("service", "SlowReport"), ("lifetime", "transient")]
        )
        #expect(try #require(timer.lastValue) >= 20_000_000)
    }

    @Test func aPrefixNamesEveryMetric() throws {
        let metrics = TestMetrics()
        let observer = MetricsObserver(labels: .init(prefix: "todo.di"), factory: metrics)
        let container = try builder(observing: observer).build()

        try container.withScope { _ = try $0.resolve(Handler.self) }

        #expect(observer.labels.creations == "todo.di.creations")
        #expect(metrics.counters(label: "todo.di.creations").count == 3)
        #expect(metrics.timers(label: "todo.di.creation.duration").count == 3)
        #expect(metrics.counters(label: "graft.creations").isEmpty)
        #expect(try metrics.expectMeter("todo.di.scopes.open").lastValue == 0)
    }
}

@Suite struct MetricsObserverCountsFailures {
    @Test func factoryFailuresAreCountedPerService() throws {
        let metrics = TestMetrics()
        var builder = ContainerBuilder()
        builder.addObserver(MetricsObserver(factory: metrics))
        builder.register(Flaky.self) { _ throws in throw Unavailable() }
        let container = try builder.build()

        #expect(throws: (any Error).self) { try container.resolve(Flaky.self) }
        #expect(throws: (any Error).self) { try container.resolve(Flaky.self) }

        #expect(try metrics.expectCounter("graft.creation.failures", [("service", "Flaky")]).totalValue == 2)
        #expect(metrics.counters(label: "graft.creations").isEmpty)
    }

    @Test func disposalFailuresAreCountedAndDisposalsThatReturnAreNot() throws {
        let metrics = TestMetrics()
        var builder = builder(observing: MetricsObserver(factory: metrics))
        builder.register(StuckConnection.self, lifetime: .scoped) { _ in StuckConnection() }
        let container = try builder.build()

        for _ in 0..<2 {
            let scope = container.makeScope()
            _ = try scope.resolve(StuckConnection.self)
            #expect(throws: GraftError.self) { try scope.close() }
        }

        #expect(
            try metrics.expectCounter("graft.disposal.failures", [("service", "StuckConnection")]).totalValue == 2
        )
        #expect(metrics.counters(label: "graft.disposal.failures").count == 1)
    }
}

@Suite struct MetricsObserverCountsOpenScopes {
    @Test func theMeterFollowsScopesAsTheyOpenAndClose() throws {
        let metrics = TestMetrics()
        let container = try builder(observing: MetricsObserver(factory: metrics)).build()
        let meter = { try metrics.expectMeter("graft.scopes.open").lastValue }

        let first = container.makeScope()
        let second = container.makeScope()
        let child = second.makeScope()
        #expect(try meter() == 3)

        try second.close()  // and its child
        #expect(child.isClosed)
        #expect(try meter() == 1)
        do { _ = container.makeScope() }  // let go without being closed
        #expect(try meter() == 1)
        try first.close()
        #expect(try meter() == 0)
    }
}

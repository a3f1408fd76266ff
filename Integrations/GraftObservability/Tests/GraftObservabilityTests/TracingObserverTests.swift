import Graft
import GraftObservability
import InMemoryTracing
import Testing
import Tracing

/// A span's start and end, in nanoseconds since the epoch.
private func bounds(_ span: FinishedInMemorySpan) -> ClosedRange<UInt64> {
    span.startInstant.nanosecondsSinceEpoch...span.endInstant.nanosecondsSinceEpoch
}

@Suite struct TracingObserverTracesSlowCreations {
    @Test func aSlowScopedServiceIsAChildOfTheRequestsSpanWithItsOwnStartAndEnd() throws {
        let tracer = InMemoryTracer()
        var builder = builder(observing: TracingObserver(threshold: .milliseconds(10), tracer: tracer))
        builder.register(SlowReport.self, lifetime: .scoped) { _ in SlowReport() }
        let container = try builder.build()

        let clock = ContinuousClock()
        var handlerTook = Duration.zero
        try tracer.withSpan("GET /report") { _ in
            try container.withScope { scope in
                handlerTook = try clock.measure { _ = try scope.resolve(Handler.self) }  // fast: no span
                spin(.milliseconds(5))
                _ = try scope.resolve(SlowReport.self)
            }
        }

        // A machine busy enough to hold the fast creations past the threshold traces them too;
        // the check that they are not traced applies only when they were fast.
        let spans = tracer.finishedSpans.filter {
            handlerTook < .milliseconds(10)
                || !["graft.create Handler", "graft.create Repository", "graft.create Settings"].contains(
                    $0.operationName
                )
        }
        #expect(spans.map(\.operationName) == ["graft.create SlowReport", "GET /report"])
        guard spans.count == 2 else { return }
        let (creation, request) = (spans[0], spans[1])
        #expect(creation.parentSpanID == request.spanID)
        #expect(creation.traceID == request.traceID)
        #expect(creation.kind == .internal)
        #expect(creation.attributes.get("graft.service") == .string("SlowReport"))
        #expect(creation.attributes.get("graft.lifetime") == .string("scoped"))
        guard case .string(let scope) = creation.attributes.get("graft.scope") else {
            Issue.record("no graft.scope attribute")
            return
        }
        #expect(scope.hasPrefix("scope 0x"))
        // The span is where the creation ran: inside the request, after the 5 ms before it, and
        // at least as long as the factory (no upper bound: a busy machine may stretch it).
        let span = bounds(creation)
        #expect(bounds(request).contains(span.lowerBound) && bounds(request).contains(span.upperBound))
        #expect(span.lowerBound - bounds(request).lowerBound >= 5_000_000)
        #expect(span.upperBound - span.lowerBound >= 20_000_000)
    }

    @Test func aCreationWithoutACurrentSpanStartsATrace() throws {
        let tracer = InMemoryTracer()
        var builder = ContainerBuilder()
        builder.addObserver(TracingObserver(threshold: .zero, tracer: tracer))
        builder.register(Settings.self) { _ in Settings() }
        let container = try builder.build()

        _ = try container.resolve(Settings.self)

        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "graft.create Settings")
        #expect(span.parentSpanID == nil)
    }

    @Test func aCreationMadeInAnAsyncRequestIsItsChild() async throws {
        let tracer = InMemoryTracer()
        var builder = ContainerBuilder()
        builder.addObserver(TracingObserver(threshold: .milliseconds(10), tracer: tracer))
        builder.register(SlowReport.self, lifetime: .scoped) { _ async in
            await Task.yield()
            return SlowReport()
        }
        let container = try await builder.build()

        try await tracer.withSpan("POST /report") { _ in
            try await container.withScope { scope in _ = try await scope.resolve(SlowReport.self) }
        }

        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["graft.create SlowReport", "POST /report"])
        #expect(spans[0].parentSpanID == spans[1].spanID)
    }
}

@Suite struct BuildAndStartAreTraced {
    @Test func buildTracedIsASpanAndTheSlowEagerSingletonsItMakesAreItsChildren() throws {
        let tracer = InMemoryTracer()
        var builder = builder(observing: TracingObserver(threshold: .milliseconds(10), tracer: tracer))
        builder.register(SlowReport.self, lifetime: .eagerSingleton) { _ in SlowReport() }

        _ = try tracer.withSpan("launch") { _ in try builder.buildTraced(tracer: tracer) }

        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["graft.create SlowReport", "graft.build", "launch"])
        #expect(spans[0].parentSpanID == spans[1].spanID)
        #expect(spans[1].parentSpanID == spans[2].spanID)
        #expect(spans[1].status == nil)
    }

    @Test func aBuildThatFailsRecordsItsErrorOnTheSpan() throws {
        let tracer = InMemoryTracer()
        var builder = ContainerBuilder()
        builder.register(Repository.self, using: Repository.init(settings:))  // Settings is missing

        #expect(throws: GraftError.self) { try builder.buildTraced(tracer: tracer) }

        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "graft.build")
        #expect(span.status?.code == .error)
        #expect(span.errors.first?.error is GraftError)
    }

    @Test func startTracedIsASpanAndWhatStartMakesIsItsChild() async throws {
        let tracer = InMemoryTracer()
        var builder = builder(observing: TracingObserver(threshold: .milliseconds(10), tracer: tracer))
        builder.register(SlowReport.self, lifetime: .singleton) { _ in SlowReport() }
        builder.onStart(SlowReport.self) { _ in }
        let container = try await builder.buildTraced(tracer: tracer)

        try await container.startTraced(tracer: tracer)

        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["graft.build", "graft.create SlowReport", "graft.start"])
        #expect(spans[1].parentSpanID == spans[2].spanID)
        #expect(spans[2].parentSpanID == nil)
        try await container.shutdown()
    }
}

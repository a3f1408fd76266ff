public import Graft
public import Tracing

/// Traces slow creations with swift-distributed-tracing: each creation that took at least a
/// threshold becomes a span, a child of the span current where it was made.
///
/// ```swift
/// builder.addObserver(TracingObserver(threshold: .milliseconds(5)))  // after InstrumentationSystem.bootstrap(…)
/// ```
///
/// The observer is told of a creation once it is over, so the span is started and ended then,
/// with the creation's own start and end: a trace viewer shows it where it ran. Its parent is
/// `ServiceContext.current` of the task that made the instance: a slow scoped service made while
/// a request's span is current shows in that request's trace, and a slow eager singleton made by
/// ``Graft/ContainerBuilder/buildTraced(tracer:)-3cs5`` shows under `graft.build`.
///
/// A span is named `graft.create <service>` (`graft.create Database`) and has the attributes
/// `graft.service`, `graft.lifetime` and `graft.scope` (`container`, or `scope 0x…`).
public struct TracingObserver: ContainerObserver {
    /// The shortest creation that is traced.
    public let threshold: Duration
    private let tracer: (any Tracer)?

    /// An observer that traces each creation that takes at least `threshold`.
    ///
    /// - Parameters:
    ///   - threshold: The shortest creation traced; `.zero` traces every one.
    ///   - tracer: Where spans go; the one `InstrumentationSystem.bootstrap(_:)` installed, read
    ///     at each span, unless given.
    public init(threshold: Duration = .milliseconds(1), tracer: (any Tracer)? = nil) {
        self.threshold = threshold
        self.tracer = tracer
    }

    /// Makes a span for the creation when it took at least ``threshold``.
    public func didCreate(_ event: CreationEvent) {
        guard event.duration >= threshold else { return }
        let (start, end) = wallClockInstants(of: event)
        let tracer = tracer ?? InstrumentationSystem.tracer
        let span = tracer.startSpan(
            "graft.create \(event.service)",
            context: ServiceContext.current ?? .topLevel,
            ofKind: .internal,
            at: start,
            function: #function,
            file: #fileID,
            line: #line
        )
        span.attributes["graft.service"] = event.service
        span.attributes["graft.lifetime"] = event.lifetime.name
        span.attributes["graft.scope"] = scope(event.owner)
        span.end(at: end)
    }
}

/// `event`'s start and end on the tracer's clock (nanoseconds since the epoch), from its start and
/// duration on the continuous clock.
func wallClockInstants(of event: CreationEvent) -> (start: DefaultTracerClock.Instant, end: DefaultTracerClock.Instant)
{
    let now = DefaultTracerClock.now.nanosecondsSinceEpoch
    let sinceEnd = max(ContinuousClock.now - event.end, .zero).nanoseconds
    let end = now - UInt64(sinceEnd)
    let start = end - UInt64(max(event.duration, .zero).nanoseconds)
    return (
        DefaultTracerClock.Instant(nanosecondsSinceEpoch: start),
        DefaultTracerClock.Instant(nanosecondsSinceEpoch: end)
    )
}

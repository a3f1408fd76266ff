public import Graft
public import Tracing

// Spans for the two steps of a container's start-up: `build()` and `start()`.

extension ContainerBuilder {
    /// Builds the container inside a span named `graft.build`, a child of the current span.
    ///
    /// The eager singletons that `build()` makes are made inside the span, so a
    /// ``TracingObserver`` shows the slow ones as its children. A build that fails records its
    /// `GraftError` on the span.
    ///
    /// ```swift
    /// let container = try builder.buildTraced()
    /// ```
    ///
    /// - Parameter tracer: Where the span goes; the one `InstrumentationSystem.bootstrap(_:)`
    ///   installed unless given.
    /// - Returns: The container, as `build()` returns it.
    /// - Throws: What `build()` throws.
    public func buildTraced(tracer: (any Tracer)? = nil) throws(GraftError) -> Container {
        let span = (tracer ?? InstrumentationSystem.tracer).startSpan(
            "graft.build",
            context: ServiceContext.current ?? .topLevel
        )
        let result = ServiceContext.withValue(span.context) {
            Result { () throws(GraftError) -> Container in try build() }
        }
        return try ended(span, result).get()
    }

    /// Builds the container inside a span named `graft.build`, with async factories awaited.
    ///
    /// - Parameter tracer: Where the span goes; the one `InstrumentationSystem.bootstrap(_:)`
    ///   installed unless given.
    /// - Returns: The container, as `build()` returns it.
    /// - Throws: What `build()` throws.
    public func buildTraced(tracer: (any Tracer)? = nil) async throws(GraftError) -> Container {
        let span = (tracer ?? InstrumentationSystem.tracer).startSpan(
            "graft.build",
            context: ServiceContext.current ?? .topLevel
        )
        let result = await ServiceContext.withValue(span.context) { () async -> Result<Container, GraftError> in
            do throws(GraftError) { return .success(try await build()) } catch { return .failure(error) }
        }
        return try ended(span, result).get()
    }
}

extension Container {
    /// Starts the container (`start()`) inside a span named `graft.start`, a
    /// child of the current span.
    ///
    /// What starting makes (the services that run and those with start hooks) is made inside the
    /// span, so a ``TracingObserver`` shows the slow creations as its children. A start that
    /// fails records its `GraftError` on the span.
    ///
    /// ```swift
    /// try await container.startTraced()
    /// ```
    ///
    /// - Parameter tracer: Where the span goes; the one `InstrumentationSystem.bootstrap(_:)`
    ///   installed unless given.
    /// - Throws: What `start()` throws.
    public func startTraced(tracer: (any Tracer)? = nil) async throws(GraftError) {
        let span = (tracer ?? InstrumentationSystem.tracer).startSpan(
            "graft.start",
            context: ServiceContext.current ?? .topLevel
        )
        let result = await ServiceContext.withValue(span.context) { () async -> Result<Void, GraftError> in
            do throws(GraftError) { return .success(try await start()) } catch { return .failure(error) }
        }
        try ended(span, result).get()
    }
}

/// Ends `span`, with `result`'s error recorded on it when it failed; returns `result`.
private func ended<Success>(_ span: any Span, _ result: Result<Success, GraftError>) -> Result<Success, GraftError> {
    if case .failure(let error) = result {
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error))
    }
    span.end()
    return result
}

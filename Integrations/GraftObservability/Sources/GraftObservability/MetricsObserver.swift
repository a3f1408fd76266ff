public import Graft
public import Metrics
import Synchronization

/// Reports what a container makes to swift-metrics: creations per service and lifetime, their
/// time, factory failures, open scopes and disposal failures.
///
/// ```swift
/// var builder = ContainerBuilder()
/// builder.addObserver(MetricsObserver())  // after MetricsSystem.bootstrap(…)
/// ```
///
/// The metrics, with the default prefix `graft` (see ``Labels``):
///
/// | label | kind | dimensions |
/// | --- | --- | --- |
/// | `graft.creations` | counter | `service`, `lifetime` |
/// | `graft.creation.duration` | timer | `service`, `lifetime` |
/// | `graft.creation.failures` | counter | `service` |
/// | `graft.scopes.open` | meter | |
/// | `graft.disposal.failures` | counter | `service` |
///
/// `service` is the service as Graft's messages name it (`Engine`, `Engine["v12"]`), `lifetime`
/// its registration's lifetime (`singleton`, `scoped`, `transient`, …). Each metric also has the
/// dimensions given to ``init(labels:dimensions:factory:)``. The handles of each service are made
/// once, on its first creation, and kept.
public final class MetricsObserver: ContainerObserver {
    /// The metrics' labels: a prefix and the names after it.
    public struct Labels: Sendable {
        /// Instances made, per service and lifetime.
        public var creations: String
        /// How long each creation took, its dependencies included.
        public var creationDuration: String
        /// Factories that threw, per service.
        public var creationFailures: String
        /// The scopes open now.
        public var openScopes: String
        /// Disposals that threw, per service.
        public var disposalFailures: String

        /// The labels `<prefix>.creations`, `<prefix>.creation.duration`,
        /// `<prefix>.creation.failures`, `<prefix>.scopes.open` and `<prefix>.disposal.failures`.
        ///
        /// - Parameter prefix: What each label starts with; `graft` unless given.
        public init(prefix: String = "graft") {
            creations = "\(prefix).creations"
            creationDuration = "\(prefix).creation.duration"
            creationFailures = "\(prefix).creation.failures"
            openScopes = "\(prefix).scopes.open"
            disposalFailures = "\(prefix).disposal.failures"
        }
    }

    /// A service and its lifetime, whose metrics are kept together.
    private struct Key: Hashable {
        let service: String
        let lifetime: Lifetime
    }

    /// The metrics of one service: made on its first creation, then reused.
    private struct Handles {
        let creations: Counter
        let duration: Metrics.Timer
    }

    /// The labels this observer reports under.
    public let labels: Labels
    /// The dimensions added to every metric.
    public let dimensions: [(String, String)]
    private let factory: any MetricsFactory
    private let openScopes: Meter
    private let handles = Mutex([Key: Handles]())
    private let failureCounters = Mutex([String: Counter]())
    private let disposalFailureCounters = Mutex([String: Counter]())

    /// An observer that reports to `factory`.
    ///
    /// - Parameters:
    ///   - labels: The metrics' labels; `graft.…` unless given.
    ///   - dimensions: Dimensions added to every metric, such as `[("app", "todo-server")]`.
    ///   - factory: Where the metrics go; the one `MetricsSystem.bootstrap(_:)` installed unless
    ///     given (bootstrap before making the observer).
    public init(
        labels: Labels = Labels(),
        dimensions: [(String, String)] = [],
        factory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.labels = labels
        self.dimensions = dimensions
        self.factory = factory
        self.openScopes = Meter(label: labels.openScopes, dimensions: dimensions, factory: factory)
    }

    /// Counts the creation and records its time.
    public func didCreate(_ event: CreationEvent) {
        let key = Key(service: event.service, lifetime: event.lifetime)
        let handles = handles.withLock { handles in
            if let existing = handles[key] { return existing }
            let dimensions = dimensions + [("service", event.service), ("lifetime", event.lifetime.name)]
            let made = Handles(
                creations: Counter(label: labels.creations, dimensions: dimensions, factory: factory),
                duration: Metrics.Timer(label: labels.creationDuration, dimensions: dimensions, factory: factory)
            )
            handles[key] = made
            return made
        }
        handles.creations.increment()
        handles.duration.recordNanoseconds(event.duration.nanoseconds)
    }

    /// Counts the failure.
    public func factoryDidThrow(_ event: FactoryFailureEvent) {
        counter(labels.creationFailures, event.service, in: failureCounters).increment()
    }

    /// Counts the disposal when it threw.
    public func didDispose(_ event: DisposalEvent) {
        guard event.error != nil else { return }
        counter(labels.disposalFailures, event.service, in: disposalFailureCounters).increment()
    }

    /// Adds one to the open scopes.
    public func didOpenScope(_ event: ScopeEvent) {
        openScopes.increment()
    }

    /// Takes one from the open scopes.
    public func didCloseScope(_ event: ScopeEvent) {
        openScopes.decrement()
    }

    private func counter(_ label: String, _ service: String, in counters: borrowing Mutex<[String: Counter]>) -> Counter
    {
        counters.withLock { counters in
            if let existing = counters[service] { return existing }
            let made = Counter(label: label, dimensions: dimensions + [("service", service)], factory: factory)
            counters[service] = made
            return made
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

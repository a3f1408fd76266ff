/// An observer that records every creation, to report where start-up went.
///
/// ```swift
/// let recorder = StartupRecorder()
/// builder.addObserver(recorder)
/// let container = try builder.build()
/// _ = try container.resolve(App.self)
/// print(recorder.report())
/// print(container.exportGraph(as: .dot, labelledWith: recorder.report()))
/// ```
///
/// It keeps each event until it is let go, so it suits start-up rather than a long-running
/// server's every request.
public final class StartupRecorder: ContainerObserver {
    private let events = Locked([CreationEvent]())

    /// A recorder with nothing recorded.
    public init() {}

    /// Records `event`.
    public func didCreate(_ event: CreationEvent) {
        events.withLock { $0.append(event) }
    }

    /// Every service made so far, slowest first.
    public func report() -> StartupReport {
        StartupReport(events: events.withLock { $0 })
    }
}

/// Where start-up went: each service made, with its time and its dependencies' share.
///
/// A creation's dependencies are the creations that ran inside it: those that began after it
/// and ended before it. Creations that ran at the same time on other threads would count as
/// well; a start-up that resolves from one thread or task at a time has none.
public struct StartupReport: Sendable, CustomStringConvertible {
    /// One service's figures, summed over every instance of it made.
    public struct Service: Sendable {
        /// The service, as Graft's messages name it.
        public let service: String
        /// Its registration's lifetime.
        public let lifetime: Lifetime
        /// How many instances were made.
        public let count: Int
        /// The time its creations took, dependencies included.
        public let duration: Duration
        /// The part of ``duration`` spent making its dependencies.
        public let dependencies: Duration

        /// The part of ``duration`` spent in its own factory and hooks.
        public var selfDuration: Duration { duration - dependencies }
    }

    /// The services made, slowest first (ties in the order they were first made).
    public let services: [Service]
    /// The time of the outermost creations: the start-up's time spent creating.
    public let total: Duration

    /// The report of `events`, in any order.
    ///
    /// - Parameter events: Creations, as a ``ContainerObserver`` was told of them.
    public init(events: [CreationEvent]) {
        let order = events.indices.sorted {
            events[$0].start != events[$1].start
                ? events[$0].start < events[$1].start : events[$0].end > events[$1].end
        }
        var dependencies = [Duration](repeating: .zero, count: events.count)
        var open: [Int] = []
        var total = Duration.zero
        for index in order {
            let event = events[index]
            while let last = open.last, events[last].end < event.end { open.removeLast() }
            if let parent = open.last {
                dependencies[parent] += event.duration
            } else {
                total += event.duration
            }
            open.append(index)
        }
        var byService: [String: Int] = [:]
        var services: [Service] = []
        for index in events.indices {
            let event = events[index]
            let position = byService[event.service] ?? services.count
            let earlier = position < services.count ? services[position] : nil
            let service = Service(
                service: event.service,
                lifetime: event.lifetime,
                count: (earlier?.count ?? 0) + 1,
                duration: (earlier?.duration ?? .zero) + event.duration,
                dependencies: (earlier?.dependencies ?? .zero) + dependencies[index]
            )
            if earlier == nil {
                byService[event.service] = position
                services.append(service)
            } else {
                services[position] = service
            }
        }
        self.services = services.enumerated().sorted {
            $0.element.duration != $1.element.duration
                ? $0.element.duration > $1.element.duration : $0.offset < $1.offset
        }.map(\.element)
        self.total = total
    }

    /// The report as a table, one service a line, slowest first:
    ///
    /// ```
    /// Start-up: 3 services made in 1.250 ms
    ///      total       self  dependencies  service
    ///   1.250 ms   0.200 ms      1.050 ms  RaceCar (singleton)
    /// ```
    public var description: String {
        let made = services.count == 1 ? "1 service" : "\(services.count) services"
        var lines = [
            "Start-up: \(made) made in \(Self.milliseconds(total))",
            "     total       self  dependencies  service",
        ]
        for service in services {
            let count = service.count == 1 ? "" : ", \(service.count) made"
            lines.append(
                Self.padded(Self.milliseconds(service.duration), 10) + " "
                    + Self.padded(Self.milliseconds(service.selfDuration), 10) + " "
                    + Self.padded(Self.milliseconds(service.dependencies), 13) + "  "
                    + "\(service.service) (\(service.lifetime)\(count))"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Each service's figures as a line of its node in the graph export.
    var notes: [String: String] {
        Dictionary(
            services.map { service in
                let count = service.count == 1 ? "" : " ×\(service.count)"
                return (
                    service.service,
                    "\(Self.milliseconds(service.duration))\(count) (self \(Self.milliseconds(service.selfDuration)))"
                )
            },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// `duration` in milliseconds with three decimals: `12.345 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let sign = microseconds < 0 ? "-" : ""
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

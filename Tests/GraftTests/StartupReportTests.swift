import Graft
import Testing

// The start-up report: every service made, slowest first, with its dependencies' share.

private struct Ticker: Sendable {}
private struct Store: Sendable { let ticker: Ticker }
private struct Gateway: Sendable { let store: Store }

@Suite struct StartupReportOrdersServicesSlowestFirst {
    let origin = ContinuousClock.now

    /// A creation that began `start` ms after the origin and took `duration` ms.
    private func made(
        _ service: String,
        _ lifetime: Lifetime = .singleton,
        at start: Int,
        taking duration: Int
    )
        -> CreationEvent
    {
        CreationEvent(
            service: service,
            lifetime: lifetime,
            start: origin + .milliseconds(start),
            duration: .milliseconds(duration),
            owner: .container
        )
    }

    /// Server (0–10 ms) made Database (1–7 ms), which made Clock (2–3 ms); then Logger
    /// (10–12 ms) was made twice on its own.
    private var events: [CreationEvent] {
        [
            made("Clock", at: 2, taking: 1),
            made("Database", at: 1, taking: 6),
            made("Server", at: 0, taking: 10),
            made("Logger", .transient, at: 10, taking: 1),
            made("Logger", .transient, at: 11, taking: 1),
        ]
    }

    @Test func servicesComeSlowestFirstWithTheirDependenciesShare() {
        let report = StartupReport(events: events)

        #expect(report.services.map(\.service) == ["Server", "Database", "Logger", "Clock"])
        #expect(report.services.map(\.dependencies) == [.milliseconds(6), .milliseconds(1), .zero, .zero])
        #expect(
            report.services.map(\.selfDuration) == [
                .milliseconds(4), .milliseconds(5), .milliseconds(2), .milliseconds(1),
            ]
        )
        #expect(report.services.map(\.count) == [1, 1, 2, 1])
        #expect(report.total == .milliseconds(12))
    }

    @Test func theTextIsATableOneServiceALine() {
        #expect(
            StartupReport(events: events).description == """
                Start-up: 4 services made in 12.000 ms
                     total       self  dependencies  service
                 10.000 ms   4.000 ms      6.000 ms  Server (.singleton)
                  6.000 ms   5.000 ms      1.000 ms  Database (.singleton)
                  2.000 ms   2.000 ms      0.000 ms  Logger (.transient, 2 made)
                  1.000 ms   1.000 ms      0.000 ms  Clock (.singleton)
                """
        )
    }

    @Test func theRecorderReportsWhatAContainerMade() throws {
        let recorder = StartupRecorder()
        var builder = ContainerBuilder()
        builder.addObserver(recorder)
        builder.register(Ticker.self, lifetime: .singleton) { _ in Ticker() }
        builder.register(Store.self, lifetime: .singleton, using: Store.init(ticker:))
        builder.register(Gateway.self, lifetime: .singleton, using: Gateway.init(store:))
        let container = try builder.build()

        _ = try container.resolve(Gateway.self)

        let report = recorder.report()
        #expect(report.services.map(\.service) == ["Gateway", "Store", "Ticker"])
        #expect(report.services.allSatisfy { $0.dependencies <= $0.duration })
        #expect(report.total == report.services[0].duration)
    }
}

@Suite struct StartupReportCoversStart {
    @Test func servicesStartMakesAreInTheReport() async throws {
        let recorder = StartupRecorder()
        var builder = ContainerBuilder()
        builder.addObserver(recorder)
        builder.register(Ticker.self, lifetime: .singleton) { _ in Ticker() }
        builder.register(Store.self, lifetime: .singleton, using: Store.init(ticker:))
        builder.onStart(Store.self) { _ in }
        let container = try await builder.build()

        try await container.start()

        #expect(recorder.report().services.map(\.service) == ["Store", "Ticker"])
        try await container.shutdown()
    }
}

@Suite struct StartupReportLabelsTheGraphExport {
    @Test(arguments: GraphFormat.allCases)
    func eachServiceMadeIsLabelledWithItsTimeAndOwnShare(_ format: GraphFormat) throws {
        var builder = ContainerBuilder()
        builder.register(Ticker.self, lifetime: .singleton) { _ in Ticker() }
        builder.register(Store.self, lifetime: .singleton, using: Store.init(ticker:))
        let container = try builder.build()
        let origin = ContinuousClock.now
        let report = StartupReport(events: [
            CreationEvent(
                service: "Store",
                lifetime: .singleton,
                start: origin,
                duration: .milliseconds(3),
                owner: .container
            ),
            CreationEvent(
                service: "Ticker",
                lifetime: .singleton,
                start: origin,
                duration: .milliseconds(1),
                owner: .container
            ),
        ])

        let exported = container.exportGraph(as: format, labelledWith: report)

        let newline = format == .dot ? "\\n" : "<br/>"
        #expect(exported.contains("Store\(newline).singleton\(newline)3.000 ms (self 2.000 ms)"))
        #expect(exported.contains("Ticker\(newline).singleton\(newline)1.000 ms (self 1.000 ms)"))
        #expect(
            exported.replacing(/\\n[0-9.]+ ms \(self [0-9.]+ ms\)|<br\/>[0-9.]+ ms \(self [0-9.]+ ms\)/, with: "")
                == container.exportGraph(as: format)
        )
    }
}

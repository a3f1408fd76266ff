import Graft
import GraftObservability
import Logging
import Testing

@Suite struct LoggingObserverLogs {
    @Test func creationsAreLoggedAtDebugLevelWithTheirMetadata() throws {
        var (logger, store) = InMemoryLogHandler.logger()
        logger.logLevel = .debug
        let container = try builder(observing: LoggingObserver(logger: logger)).build()

        let scope = container.makeScope()
        _ = try scope.resolve(Handler.self)

        let records = store.all
        #expect(records.map(\.message) == ["made Settings", "made Repository", "made Handler"])
        #expect(records.allSatisfy { $0.level == .debug })
        let repository = records[1].metadata
        #expect(repository["service"] == "Repository")
        #expect(repository["lifetime"] == "scoped")
        #expect(repository["scope"] == "scope 0x" + String(UInt(bitPattern: ObjectIdentifier(scope)), radix: 16))
        #expect(records[0].metadata["scope"] == "container")
        let duration = try #require(repository["duration"])
        #expect(duration.wholeMatch(of: /[0-9]+\.[0-9]{3} ms/) != nil)
    }

    @Test func aLoggerAboveDebugLevelLogsNoCreation() throws {
        let (logger, store) = InMemoryLogHandler.logger()  // .info
        let container = try builder(observing: LoggingObserver(logger: logger)).build()

        _ = try container.makeScope().resolve(Handler.self)

        #expect(store.all.isEmpty)
    }

    @Test func aFactoryThatThrowsIsLoggedAtDebugLevelWithItsError() throws {
        var (logger, store) = InMemoryLogHandler.logger()
        logger.logLevel = .debug
        var builder = ContainerBuilder()
        builder.addObserver(LoggingObserver(logger: logger))
        builder.register(Flaky.self) { _ throws in throw Unavailable() }
        let container = try builder.build()

        #expect(throws: (any Error).self) { try container.resolve(Flaky.self) }

        #expect(
            store.all == [
                .init(
                    level: .debug,
                    message: "factory of Flaky threw",
                    metadata: ["service": "Flaky", "error": "unavailable"]
                )
            ]
        )
    }

    @Test func aDisposalThatThrowsIsLoggedAtErrorLevel() throws {
        let (logger, store) = InMemoryLogHandler.logger()  // .info: the creation is not logged
        var builder = ContainerBuilder()
        builder.addObserver(LoggingObserver(logger: logger))
        builder.register(StuckConnection.self, lifetime: .scoped) { _ in StuckConnection() }
        let container = try builder.build()
        let scope = container.makeScope()
        _ = try scope.resolve(StuckConnection.self)

        #expect(throws: GraftError.self) { try scope.close() }

        #expect(
            store.all == [
                .init(
                    level: .error,
                    message: "disposal of StuckConnection threw",
                    metadata: ["service": "StuckConnection", "error": "unavailable"]
                )
            ]
        )
    }

    @Test func workAScopeClosedWithoutCommittingIsLoggedAtErrorLevel() async throws {
        let (logger, store) = InMemoryLogHandler.logger()  // .info: the creation is not logged
        var builder = ContainerBuilder()
        builder.unhandledErrorHandler = { _ in }
        builder.addObserver(LoggingObserver(logger: logger))
        builder.register(Ledger.self, lifetime: .scoped) { _ in Ledger() }
        builder.onComplete(Ledger.self)
        let container = try await builder.build()
        let scope = container.makeScope()
        _ = try await scope.resolve(Ledger.self)

        try await scope.close()

        #expect(
            store.all == [
                .init(
                    level: .error,
                    message: """
                        Graft: a scope closed, but the completion step of Ledger never ran: its work was not committed
                          run try await scope.complete() before closing the scope, or use try await container.withScope { … }, which completes when its body returns
                          a scope whose work failed says so first (RequestScopeLease.fail() in a web framework integration) and closes without this report
                        """,
                    metadata: [
                        "services": "Ledger",
                        "scope": "scope 0x" + String(UInt(bitPattern: ObjectIdentifier(scope)), radix: 16),
                    ]
                )
            ]
        )
    }
}

/// A unit of work whose commit is its scope's completion step.
private final class Ledger: Completable {
    func complete() async throws {}
    func dispose() async {}
}

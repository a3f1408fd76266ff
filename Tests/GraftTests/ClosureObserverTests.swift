import Graft
import Testing

// An observer written as closures, and events made by hand to test an observer's handling.

private struct Settings: Sendable {}
private struct Broken: Sendable {}
private struct Stuck: Error, CustomStringConvertible {
    var description: String { "stuck" }
}

private final class Connection: Disposable {
    func dispose() throws {}
}

/// Work committed in its scope's completion step.
private final class Ledger: Completable {
    func complete() async throws {}
    func dispose() async {}
}

/// Each event a `ClosureObserver` is given, as a line.
private func recordingObserver(_ log: EventLog) -> ClosureObserver {
    ClosureObserver { created in
        log.append("made \(created.service) \(created.lifetime) \(created.owner)")
    } factoryDidThrow: { failed in
        log.append("threw \(failed.service) \(failed.error)")
    } didDispose: { disposed in
        log.append("disposed \(disposed.service)" + (disposed.error.map { " \($0)" } ?? ""))
    } didOpenScope: { _ in
        log.append("opened a scope")
    } didCloseScope: { _ in
        log.append("closed a scope")
    }
}

@Suite struct ClosureObserverTests {
    @Test func isToldOfCreationsFailuresAndDisposals() throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.addObserver(recordingObserver(log))
        builder.register(Settings.self, name: "eu", lifetime: .singleton) { _ in Settings() }
        builder.register(Broken.self) { _ in throw Stuck() }
        builder.register(Connection.self, lifetime: .scoped) { _ in Connection() }
        let container = try builder.build()

        _ = try container.resolve(Settings.self, name: "eu")
        #expect(throws: GraftError.self) { try container.resolve(Broken.self) }
        try container.withScope { _ = try $0.resolve(Connection.self) }

        #expect(
            log.entries == [
                #"made Settings["eu"] .singleton container"#,
                "threw Broken stuck",
                "opened a scope",
                "made Connection .scoped scope",
                "closed a scope",
                "disposed Connection",
            ]
        )
    }

    @Test func isToldOfAScopeClosedWithWorkNotCompleted() async throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.unhandledErrorHandler = { _ in }
        builder.addObserver(
            ClosureObserver(scopeDidCloseWithoutCompleting: { log.append("not completed: \($0.services)") })
        )
        builder.register(Ledger.self, lifetime: .scoped) { _ in Ledger() }
        let container = try await builder.build()
        let scope = container.makeScope()

        _ = try await scope.resolve(Ledger.self)
        try await scope.close()

        #expect(log.entries == [#"not completed: ["Ledger"]"#])
    }

    @Test func closuresLeftOutDoNothing() throws {
        let log = EventLog()
        var builder = ContainerBuilder()
        builder.addObserver(ClosureObserver(didDispose: { log.append("disposed \($0.service)") }))
        builder.register(Connection.self, lifetime: .singleton) { _ in Connection() }
        let container = try builder.build()

        _ = try container.resolve(Connection.self)
        try container.shutdown()

        #expect(log.entries == ["disposed Connection"])
    }

    /// An observer's handling tested without a container: each event made as the engine makes it.
    @Test func eventsMadeByHandReachAnObserverAsTheEngineWouldGiveThem() {
        let log = EventLog()
        let observer = recordingObserver(log)
        let scope = ObjectIdentifier(Connection.self)

        observer.didCreate(
            CreationEvent(
                service: #"Engine["v12"]"#,
                lifetime: .singleton,
                start: .now,
                duration: .milliseconds(3),
                owner: .container
            )
        )
        observer.factoryDidThrow(FactoryFailureEvent(service: "Broken", error: Stuck()))
        observer.didDispose(DisposalEvent(service: "Connection", error: nil))
        observer.didDispose(DisposalEvent(service: "Connection", error: Stuck()))
        observer.didOpenScope(ScopeEvent(scope: scope))
        observer.didCloseScope(ScopeEvent(scope: scope))

        #expect(
            log.entries == [
                #"made Engine["v12"] .singleton container"#,
                "threw Broken stuck",
                "disposed Connection",
                "disposed Connection stuck",
                "opened a scope",
                "closed a scope",
            ]
        )
    }
}

import Graft
import Testing

// Observers: what a container tells of each creation, factory failure and disposal.

/// Records what it is told, as `kind service …` lines and as the creation events themselves.
private final class RecordingObserver: ContainerObserver {
    let lines = Guarded([String]())
    let creations = Guarded([CreationEvent]())
    let failures = Guarded([any Error]())

    func didCreate(_ event: CreationEvent) {
        creations.withLock { $0.append(event) }
        lines.withLock { $0.append("made \(event.service) \(event.lifetime) \(event.owner)") }
    }

    func factoryDidThrow(_ event: FactoryFailureEvent) {
        failures.withLock { $0.append(event.error) }
        lines.withLock { $0.append("threw \(event.service) \(event.error)") }
    }

    func didDispose(_ event: DisposalEvent) {
        lines.withLock { $0.append("disposed \(event.service)" + (event.error.map { " \($0)" } ?? "")) }
    }
}

private struct Settings: Sendable {}
private struct Repository: Sendable { let settings: Settings }
private struct Handler: Sendable { let repository: Repository }
private struct RequestID: Sendable {}
private struct Stuck: Error, CustomStringConvertible {
    var description: String { "stuck" }
}
private struct Broken: Sendable {}
private struct NeedsBroken: Sendable { let broken: Broken }

private final class Connection: Disposable {
    let fails: Bool
    init(fails: Bool) { self.fails = fails }
    func dispose() throws { if fails { throw Stuck() } }
}

private final class AsyncConnection: AsyncDisposable {
    func dispose() async throws { await Task.yield() }
}

private func builder(observer: RecordingObserver) -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.addObserver(observer)
    builder.register(Settings.self, lifetime: .singleton) { _ in Settings() }
    builder.register(Repository.self, lifetime: .scoped, using: Repository.init(settings:))
    builder.register(Handler.self, using: Handler.init(repository:))
    return builder
}

@Suite struct CreationsAreReportedInOrder {
    @Test func eachInstanceMadeIsReportedWithItsLifetimeAndOwnerDependenciesFirst() throws {
        let observer = RecordingObserver()
        let container = try builder(observer: observer).build()
        let scope = container.makeScope()

        _ = try scope.resolve(Handler.self)
        _ = try scope.resolve(Handler.self)

        #expect(
            observer.lines.current == [
                "made Settings .singleton container",
                "made Repository .scoped scope",
                "made Handler .transient scope",
                "made Handler .transient scope",
            ]
        )
        #expect(observer.creations.current[1].owner == .scope(ObjectIdentifier(scope)))
    }

    @Test func aNamedServiceIsNamedAsMessagesNameIt() throws {
        let observer = RecordingObserver()
        var builder = builder(observer: observer)
        builder.register(Settings.self, name: "v12", lifetime: .singleton) { _ in Settings() }
        let container = try builder.build()

        _ = try container.resolve(Settings.self, name: "v12")

        #expect(observer.creations.current.map(\.service) == [#"Settings["v12"]"#])
    }

    @Test func anExistingSingletonIsNotMadeAgain() throws {
        let observer = RecordingObserver()
        let container = try builder(observer: observer).build()

        _ = try container.resolve(Settings.self)
        _ = try container.resolve(Settings.self)

        #expect(observer.lines.current == ["made Settings .singleton container"])
    }

    @Test func aNestedCreationsDurationIncludesItsDependencies() throws {
        let observer = RecordingObserver()
        let container = try builder(observer: observer).build()

        _ = try container.makeScope().resolve(Handler.self)

        let events = observer.creations.current
        #expect(events.map(\.service) == ["Settings", "Repository", "Handler"])
        for (dependency, dependent) in zip(events, events.dropFirst()) {
            #expect(dependent.start <= dependency.start)
            #expect(dependency.end <= dependent.end)
            #expect(dependency.duration <= dependent.duration)
        }
    }

    @Test func asyncResolvesReportToo() async throws {
        let observer = RecordingObserver()
        var builder = builder(observer: observer)
        builder.register(RequestID.self, lifetime: .singleton) { _ async in
            await Task.yield()
            return RequestID()
        }
        let container = try await builder.build()

        _ = try await container.resolve(RequestID.self)
        _ = try await container.makeScope().resolve(Handler.self)

        #expect(
            observer.lines.current == [
                "made RequestID .singleton container",
                "made Settings .singleton container",
                "made Repository .scoped scope",
                "made Handler .transient scope",
            ]
        )
    }
}

@Suite struct FactoryFailuresAreReported {
    @Test func theFactoryThatThrewIsReportedOnceWithItsError() throws {
        let observer = RecordingObserver()
        var builder = ContainerBuilder()
        builder.addObserver(observer)
        builder.register(Broken.self) { _ in throw Stuck() }
        builder.register(NeedsBroken.self, using: NeedsBroken.init(broken:))
        let container = try builder.build()

        #expect(throws: GraftError.self) { try container.resolve(NeedsBroken.self) }

        #expect(observer.lines.current == ["threw Broken stuck"])
        #expect(observer.failures.current.first is Stuck)
    }
}

@Suite struct DisposalsAreReported {
    @Test func eachDisposalIsReportedWithTheErrorOfOneThatThrew() throws {
        let observer = RecordingObserver()
        var builder = ContainerBuilder()
        builder.addObserver(observer)
        builder.register(Connection.self, name: "good", lifetime: .scoped) { _ in Connection(fails: false) }
        builder.register(Connection.self, name: "bad", lifetime: .singleton) { _ in Connection(fails: true) }
        let container = try builder.build()
        let scope = container.makeScope()
        _ = try scope.resolve(Connection.self, name: "good")
        _ = try container.resolve(Connection.self, name: "bad")

        try scope.close()
        #expect(throws: GraftError.self) { try container.shutdown() }

        #expect(
            observer.lines.current.filter { $0.hasPrefix("disposed") } == [
                #"disposed Connection["good"]"#,
                #"disposed Connection["bad"] stuck"#,
            ]
        )
    }

    @Test func asyncDisposalsAreReported() async throws {
        let observer = RecordingObserver()
        var builder = ContainerBuilder()
        builder.addObserver(observer)
        builder.register(AsyncConnection.self, lifetime: .singleton) { _ in AsyncConnection() }
        let container = try await builder.build()
        _ = try await container.resolve(AsyncConnection.self)

        try await container.shutdown()

        #expect(observer.lines.current.last == "disposed AsyncConnection")
    }
}

/// Records the scopes it is told of: `open`/`closed` lines, each scope numbered in the order it opened.
private final class ScopeRecorder: ContainerObserver {
    private let state = Guarded((numbers: [ObjectIdentifier: Int](), lines: [String]()))

    var lines: [String] { state.current.lines }

    func didOpenScope(_ event: ScopeEvent) {
        state.withLock { state in
            let number = state.numbers.count + 1
            state.numbers[event.scope] = number
            state.lines.append("open \(number)")
        }
    }

    func didCloseScope(_ event: ScopeEvent) {
        state.withLock { state in state.lines.append("closed \(state.numbers[event.scope].map(String.init) ?? "?")") }
    }
}

@Suite struct ScopesAreReportedOpenAndClosed {
    private func container(_ recorder: ScopeRecorder) throws -> Container {
        var builder = ContainerBuilder()
        builder.addObserver(recorder)
        builder.register(Settings.self, lifetime: .singleton) { _ in Settings() }
        return try builder.build()
    }

    @Test func aScopeIsReportedOpenWhenMadeAndClosedOnceWhenClosed() throws {
        let recorder = ScopeRecorder()
        let container = try container(recorder)

        let scope = container.makeScope()
        #expect(recorder.lines == ["open 1"])
        try scope.close()
        try scope.close()
        try container.withScope { _ in }

        #expect(recorder.lines == ["open 1", "closed 1", "open 2", "closed 2"])
    }

    @Test func childrenClosedWithTheirParentOrTheContainerAreEachReported() async throws {
        let recorder = ScopeRecorder()
        let container = try container(recorder)

        let parent = container.makeScope()
        let child = parent.makeScope()
        _ = child.makeScope()
        try await parent.close()
        let other = container.makeScope()
        try await container.shutdown()

        #expect(
            recorder.lines == ["open 1", "open 2", "open 3", "closed 3", "closed 2", "closed 1", "open 4", "closed 4"]
        )
        #expect(other.isClosed)
    }

    @Test func aScopeLetGoWithoutBeingClosedIsReportedClosed() throws {
        let recorder = ScopeRecorder()
        let container = try container(recorder)

        do { _ = container.makeScope() }
        try container.shutdown()

        #expect(recorder.lines == ["open 1", "closed 1"])
    }

    @Test func aScopeBornClosedIsNotReported() throws {
        let recorder = ScopeRecorder()
        let container = try container(recorder)
        try container.shutdown()

        let scope = container.makeScope()

        #expect(scope.isClosed)
        #expect(recorder.lines.isEmpty)
    }
}

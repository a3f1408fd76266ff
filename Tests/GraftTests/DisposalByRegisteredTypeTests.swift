import Graft
import Testing

/// What a service does, as callers see it; it does not refine `Disposable`.
private protocol Channel: Sendable {
    var label: String { get }
}

/// A channel that must be closed.
private final class RadioChannel: Channel, Disposable {
    let label: String
    let log: EventLog

    init(_ label: String, log: EventLog) {
        self.label = label
        self.log = log
    }

    func dispose() throws {
        log.append(label)
    }
}

/// Disposal of a concrete registered type is decided from that type while registering, never by
/// asking an instance at run time what it conforms to.
@Suite struct DisposalByRegisteredTypeTests {
    let log = EventLog()

    @Test func aDisposableRegisteredTypeIsDisposedByEveryFormOfRegistration() throws {
        var builder = ContainerBuilder()
        builder.register(RadioChannel.self, name: "closure", lifetime: .scoped) { [log] _ in
            RadioChannel("closure", log: log)
        }
        builder.register(String.self, instance: "autowired")
        builder.register(EventLog.self, instance: log)
        builder.register(RadioChannel.self, name: "autowired", lifetime: .scoped, using: RadioChannel.init)
        let container = try builder.build()

        try container.withScope { scope in
            _ = try scope.resolve(RadioChannel.self, name: "closure")
            _ = try scope.resolve(RadioChannel.self, name: "autowired")
        }

        #expect(log.entries == ["autowired", "closure"])
    }

    /// A protocol registration asks its instance (see `ProtocolTypedDisposalTests`); an alias
    /// creates nothing, so the aliased concrete instance is disposed once, by its own registration.
    @Test func aProtocolRegistrationAndAnAliasedConcreteTypeEachDisposeTheirInstanceOnce() throws {
        var builder = ContainerBuilder()
        builder.register((any Channel).self, name: "as protocol", lifetime: .scoped) { [log] _ in
            RadioChannel("as protocol", log: log)
        }
        builder.register(RadioChannel.self, lifetime: .scoped) { [log] _ in RadioChannel("concrete", log: log) }
        builder.alias((any Channel).self, to: RadioChannel.self)
        let container = try builder.build()

        let aliased = try container.withScope { scope in
            _ = try scope.resolve((any Channel).self, name: "as protocol")
            _ = try scope.resolve((any Channel).self)
            return try scope.resolve((any Channel).self).label
        }

        #expect(aliased == "concrete")
        #expect(log.entries == ["concrete", "as protocol"])
    }

    @Test func anAsyncDisposableRegisteredTypeIsDisposedByTheAsyncShutdown() async throws {
        var builder = ContainerBuilder()
        builder.register(Pool.self, lifetime: .singleton) { [log] _ in Pool(log: log) }
        let container = try await builder.build()

        _ = try await container.resolve(Pool.self)
        try await container.shutdown()

        #expect(log.entries == ["pool"])
    }
}

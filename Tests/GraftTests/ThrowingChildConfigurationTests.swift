import Graft
import Testing

// `makeChild`'s configure closure may throw (reading a tenant's settings, say): its error reaches
// the caller as it is, and nothing is built from the registrations made before it.

private struct SettingsUnreadable: Error, CustomStringConvertible {
    var description: String { "the settings of tenant acme could not be read" }
}

private struct Ledger: Sendable {}

/// Needs `TenantSettings`, which the configuration never gets to register: a child built from
/// the registrations made so far would fail validation with a missing dependency.
private struct Billing: Sendable {
    let settings: TenantSettings
}

private struct TenantSettings: Sendable {}

/// An eager singleton: made as soon as a child is built, so the test sees whether one was.
private final class Warmup: Sendable {
    init(made: Counter) { made.increment() }
}

/// Registers half a tenant (`Billing`, without its settings), then fails to read its settings.
private func halfATenant(_ builder: inout ContainerBuilder) throws {
    builder.register(Billing.self, using: Billing.init(settings:))
    throw SettingsUnreadable()
}

/// Registers an eager singleton, which a built child would make at once, then fails.
private func warmupThenFailure(_ made: Counter) -> (inout ContainerBuilder) throws -> Void {
    { builder in
        builder.register(Warmup.self, lifetime: .eagerSingleton) { _ in Warmup(made: made) }
        throw SettingsUnreadable()
    }
}

@Suite struct ThrowingChildConfigurationTests {
    @Test func theConfigurationsErrorReachesTheCallerNotAValidationOfWhatItRegisteredSoFar() throws {
        let app = try ContainerBuilder().build()

        let error = #expect(throws: SettingsUnreadable.self) { try app.makeChild(halfATenant) }

        #expect(error.map { "\($0)" } == "the settings of tenant acme could not be read")
        // The parent is untouched: it shuts down with no child to close.
        try app.shutdown()
    }

    @Test func nothingIsBuiltFromWhatItRegisteredSoFar() throws {
        let made = Counter()
        let app = try ContainerBuilder().build()

        #expect(throws: SettingsUnreadable.self) { try app.makeChild(warmupThenFailure(made)) }

        #expect(made.value == 0)
    }

    @Test func theAsyncFormRethrowsItToo() async throws {
        let made = Counter()
        let app = try await ContainerBuilder().build()

        await #expect(throws: SettingsUnreadable.self) { try await app.makeChild(halfATenant) }
        await #expect(throws: SettingsUnreadable.self) { try await app.makeChild(warmupThenFailure(made)) }

        #expect(made.value == 0)
        try await app.shutdown()
    }

    @Test func aConfigurationThatDoesNotThrowIsValidatedAsBefore() throws {
        let app = try ContainerBuilder().build()

        let error = #expect(throws: GraftError.self) {
            try app.makeChild { builder in
                builder.register(Ledger.self) { _ in Ledger() }
                builder.register(Billing.self, using: Billing.init(settings:))
            }
        }

        #expect(error?.code == .invalidGraph)
        #expect(error?.summary == "makeChild() found 1 problem")
        #expect(error?.problems.map(\.summary) == ["no registration for TenantSettings, which Billing needs"])
    }
}

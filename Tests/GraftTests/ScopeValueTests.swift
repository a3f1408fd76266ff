import Graft
import Testing

private struct RequestID: Sendable, Equatable {
    let value: String
}

private struct Tenant: Sendable, Equatable {
    let name: String
}

/// A per-request service that is given the request's values.
private final class AuditLog: Sendable {
    let requestID: RequestID
    let tenant: Tenant

    init(requestID: RequestID, tenant: Tenant) {
        self.requestID = requestID
        self.tenant = tenant
    }
}

private final class RequestCache: Sendable {
    init(requestID: RequestID) {}
}

private final class Session: Disposable {
    let disposals = Counter()
    func dispose() { disposals.increment() }
}

private func requestBuilder() -> ContainerBuilder {
    var builder = ContainerBuilder()
    builder.registerScopeValue(RequestID.self)
    builder.registerScopeValue(Tenant.self)
    builder.register(AuditLog.self, lifetime: .scoped, using: AuditLog.init(requestID:tenant:))
    return builder
}

@Suite struct ScopesAreGivenValues {
    @Test func servicesAutowireTheValuesTheirScopeWasGiven() throws {
        let container = try requestBuilder().build()

        let first = try container.makeScope(providing: RequestID(value: "a1"), Tenant(name: "ferrari"))
        let second = try container.makeScope(providing: RequestID(value: "b2"), Tenant(name: "mclaren"))

        let firstLog = try first.resolve(AuditLog.self)
        #expect(firstLog.requestID == RequestID(value: "a1"))
        #expect(firstLog.tenant == Tenant(name: "ferrari"))
        #expect(try second.resolve(AuditLog.self).requestID == RequestID(value: "b2"))
        #expect(try first.resolve(RequestID.self) == RequestID(value: "a1"))
        #expect(try first.resolve(AuditLog.self) === firstLog)
        try first.close()
        try second.close()
    }

    @Test func aChildScopeSeesItsParentsValuesUnlessGivenItsOwn() throws {
        let container = try requestBuilder().build()
        let parent = try container.makeScope(providing: RequestID(value: "outer"), Tenant(name: "ferrari"))

        let inheriting = parent.makeScope()
        let overriding = try parent.makeScope(providing: RequestID(value: "inner"))

        #expect(try inheriting.resolve(AuditLog.self).requestID == RequestID(value: "outer"))
        #expect(try overriding.resolve(AuditLog.self).requestID == RequestID(value: "inner"))
        #expect(try overriding.resolve(AuditLog.self).tenant == Tenant(name: "ferrari"))
        #expect(try parent.resolve(RequestID.self) == RequestID(value: "outer"))
        try parent.close()
    }

    @Test func requestScopesAreGivenOnlyTheTypesDeclaredAsScopeValues() async throws {
        var builder = requestBuilder()
        builder.register(Session.self, lifetime: .scoped, using: Session.init)
        builder.register(Int.self, instance: 7)
        builder.registerScopeValue(String.self)
        let container = try await builder.build()
        // A service in the same builder is a conflict build() reports (ActionableHintTests); an
        // override replaces the declaration.
        let overridden = try await container.overriding { $0.register(String.self) { _ in "a service now" } }
        let audit = AuditLog(requestID: RequestID(value: "given"), tenant: Tenant(name: "given"))

        #expect(
            try await requestScope(of: container, isGiven: RequestID(value: "7f3a")) { $0 == RequestID(value: "7f3a") }
        )
        #expect(try await requestScope(of: container, isGiven: Tenant(name: "acme")) { $0 == Tenant(name: "acme") })
        #expect(try await !requestScope(of: container, isGiven: audit) { $0 === audit }, "a scoped service")
        #expect(try await !requestScope(of: container, isGiven: 8) { $0 == 8 }, "a registered instance")
        #expect(try await !requestScope(of: container, isGiven: 2.5) { $0 == 2.5 }, "nothing registered")
        #expect(try await requestScope(of: container, isGiven: "given") { $0 == "given" })
        #expect(
            try await !requestScope(of: overridden, isGiven: "given") { $0 == "given" },
            "declared, then replaced by a service"
        )
    }

    @Test func withScopeGivesValuesSynchronously() throws {
        let container = try requestBuilder().build()

        let syncID = try container.withScope(providing: RequestID(value: "sync"), Tenant(name: "t")) { scope in
            try scope.resolve(AuditLog.self).requestID
        }

        #expect(syncID == RequestID(value: "sync"))
    }

    @Test func withScopeGivesValuesAsynchronously() async throws {
        let container = try await requestBuilder().build()

        let asyncID = try await container.withScope(providing: RequestID(value: "async"), Tenant(name: "t")) {
            scope in
            try await scope.resolve(AuditLog.self).requestID
        }

        #expect(asyncID == RequestID(value: "async"))
    }

    @Test func aScopeNeverDisposesTheValuesItWasGiven() throws {
        var builder = ContainerBuilder()
        builder.registerScopeValue(Session.self)
        let container = try builder.build()
        let session = Session()

        let scope = try container.makeScope(providing: session)
        #expect(try scope.resolve(Session.self) === session)
        try scope.close()
        try container.shutdown()

        #expect(session.disposals.value == 0)
    }

    @Test func concurrentRequestsEachSeeTheirOwnValues() async throws {
        let container = try await requestBuilder().build()

        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for request in 0..<200 {
                        let id = RequestID(value: "\(task)-\(request)")
                        let seen = try await container.withScope(providing: id, Tenant(name: "\(task)")) { scope in
                            try await scope.resolve(AuditLog.self).requestID
                        }
                        if seen != id { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }

        #expect(mismatches == 0)
    }

    @Test func theGraphExportMarksScopeValues() throws {
        let dot = try requestBuilder().build().exportGraph(as: .dot)

        #expect(dot.contains("scope value"))
    }
}

@Suite struct ScopeValueMistakes {
    @Test func aValueTheScopeWasNotGivenFailsAtFirstUseAndSaysHowToGiveIt() throws {
        let container = try requestBuilder().build()
        let scope = try container.makeScope(providing: RequestID(value: "a1"))

        let error = #expect(throws: GraftError.self) { try scope.resolve(AuditLog.self) }

        #expect(error?.code == .missingScopeValue)
        #expect(error?.path == ["AuditLog", "Tenant"])
        #expect(
            error?.description == """
                Graft: Tenant is a scope value, and this scope was not given one
                  resolving: AuditLog → Tenant
                  give it when making the scope: container.makeScope(providing: Tenant(…)), or withScope(providing:)
                  declared at GraftTests/ScopeValueTests.swift:35
                """
        )
        // The value that was given still answers.
        #expect(try scope.resolve(RequestID.self) == RequestID(value: "a1"))
    }

    @Test func resolvingAScopeValueFromTheRootContainerIsAnError() throws {
        let container = try requestBuilder().build()

        let error = #expect(throws: GraftError.self) { try container.resolve(RequestID.self) }

        #expect(error?.code == .scopedFromRoot)
        #expect(
            error?.description == """
                Graft: RequestID is a scope value and cannot be resolved from the root container
                  each scope is given its own: resolve it from a scope made with container.makeScope(providing: RequestID(…))
                """
        )
    }

    @Test func aSingletonDependingOnAScopeValueIsACaptiveDependency() {
        var builder = ContainerBuilder()
        builder.registerScopeValue(RequestID.self)
        builder.register(RequestCache.self, lifetime: .singleton, using: RequestCache.init(requestID:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        #expect(error?.problems.map(\.code) == [.captiveDependency])
        #expect(
            error?.problems.first?.description == """
                Graft: captive dependency: RequestCache (.singleton) depends on RequestID (.scoped)
                  resolving: RequestCache → RequestID
                  a .singleton outlives each .scoped instance; RequestID is a scope value, given to each scope, so make RequestCache .scoped or shorter-lived
                """
        )
    }

    @Test func givingATypeThatIsNotDeclaredIsAnError() throws {
        var builder = requestBuilder()
        builder.register(Session.self) { _ in Session() }
        let container = try builder.build()

        let undeclared = #expect(throws: GraftError.self) {
            try container.makeScope(providing: RequestID(value: "a1"), 42)
        }
        let registered = #expect(throws: GraftError.self) { try container.makeScope(providing: Session()) }

        #expect(undeclared?.code == .notRegistered)
        #expect(
            undeclared?.description == """
                Graft: Int was given to a scope but is not declared as a scope value
                  declare it before build(): builder.registerScopeValue(Int.self)
                """
        )
        #expect(
            registered?.description == """
                Graft: Session was given to a scope but is not declared as a scope value
                  Session is registered as a service; a scope is given only the types declared with builder.registerScopeValue(Session.self)
                """
        )
    }

    @Test func aScopeCannotBeGivenValuesAfterShutdown() throws {
        let container = try requestBuilder().build()
        try container.shutdown()

        let error = #expect(throws: GraftError.self) {
            try container.makeScope(providing: RequestID(value: "late"))
        }

        #expect(error?.code == .closed)
        #expect(
            error?.description == """
                Graft: cannot make a scope: the container was shut down
                  make scopes before shutdown(), from an open scope
                """
        )
    }
}

/// Whether a request's scope opened on `container` with `value` resolves it as given: what
/// `RequestScopes` decides from the container's declarations (a type nobody declared as a scope
/// value is not given; the scope resolves what is registered for it, or nothing).
private func requestScope<Value: Sendable>(
    of container: Container,
    isGiven value: Value,
    _ matches: (Value) -> Bool
) async throws -> Bool {
    let lease = try RequestScopes(container, values: Value.self).open(providing: value) { _ in }
    let resolved = try? await lease.scope.resolve(Value.self)
    await lease.close()
    return resolved.map(matches) ?? false
}

import Graft
import GraftVapor
import Synchronization
import Testing
import Vapor

private enum Tenant: ScopeTag {}

/// One per tenant: every request of the tenant's routes shares it.
private final class TenantSettings: Sendable {
    private static let made = Atomic(0)
    let number: Int

    init() {
        number = Self.made.add(1, ordering: .relaxed).newValue
    }
}

/// Requests of a route group can be scoped under a tenant's (or a session's) scope: each sees
/// what the tenant's scope shares, and still gets its own request scope and values.
@Suite(.timeLimit(.minutes(1))) struct RequestsUnderATenantScopeTests {
    @Test func requestsUnderATenantsScopeShareItsInstancesAndKeepTheirOwn() async throws {
        let ledger = Ledger()
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        builder.register(Ledger.self, instance: ledger)
        builder.register(TenantSettings.self, lifetime: .scoped(in: Tenant.self)) { _ in TenantSettings() }
        builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(ledger:))
        let container = try await builder.build()
        let acme = container.makeScope(tagged: Tenant.self)
        let app = try await Application.make(.testing)
        app.grouped("acme").grouped(GraftScopeMiddleware(container: container, under: acme)).get("work") { req in
            let settings = try await req.resolve(TenantSettings.self)
            let unitOfWork = try await req.resolve(UnitOfWork.self)
            return
                "tenant \(settings.number), unit of work \(unitOfWork.id), request \(try await req.resolve(RequestID.self) == RequestID(req.id))"
        }
        let bodies = try await LiveServer.run(app) { server in
            [try await server.get("acme/work").body, try await server.get("acme/work").body]
        }
        let tenant = try await acme.resolve(TenantSettings.self).number
        #expect(
            bodies == [
                "tenant \(tenant), unit of work 1, request true", "tenant \(tenant), unit of work 2, request true",
            ]
        )
        #expect(ledger.disposed == ["unit of work 1", "unit of work 2"])  // each with its request
        try await acme.close()
        try await container.shutdown()
    }
}

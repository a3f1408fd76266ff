import Graft
import Synchronization
import Testing

// The code of the article "Scopes on the server" (ScopesOnTheServer.md), compiled and run.

enum ScopesOnTheServerArticle {
    struct RequestID: Sendable {
        let value: String
        init(_ value: String) { self.value = value }
    }

    /// Where audit lines end up; one for the app.
    final class AuditStore: Sendable {
        private let lines = Mutex<[String]>([])

        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// One per request: it knows the request's id without anyone passing it along.
    final class AuditLog: Sendable {
        let requestID: RequestID
        let store: AuditStore

        init(requestID: RequestID, store: AuditStore) {
            self.requestID = requestID
            self.store = store
        }

        func record(_ event: String) { store.append("\(requestID.value): \(event)") }
    }

    struct ConstraintViolation: Error {}

    /// The database, as far as a unit of work sees it: commits refuse an order seen before.
    actor OrderStore {
        private(set) var orders: [String] = []
        private(set) var rollBacks = 0

        func commit(_ new: [String]) throws {
            guard new.allSatisfy({ !orders.contains($0) }) else { throw ConstraintViolation() }
            orders += new
        }

        func rollBack() { rollBacks += 1 }
    }

    final class UnitOfWork: Completable, AsyncDisposable {
        let store: OrderStore
        private let pending = Mutex<[String]>([])
        private let committed = Atomic(false)

        init(store: OrderStore) { self.store = store }

        func insert(_ order: String) { pending.withLock { $0.append(order) } }

        func complete() async throws {
            try await store.commit(pending.withLock { $0 })  // may throw: a constraint, a lost connection
            committed.store(true, ordering: .releasing)
        }

        func dispose() async {
            if !committed.load(ordering: .acquiring) { await store.rollBack() }
        }
    }
}

extension ScopesOnTheServerArticle {
    @Suite struct Snippets {
        @Test func aScopeIsGivenTheRequestsValues() async throws {
            var builder = ContainerBuilder()
            builder.register(AuditStore.self, lifetime: .singleton, using: AuditStore.init)
            builder.registerScopeValue(RequestID.self)
            builder.register(AuditLog.self, lifetime: .scoped, using: AuditLog.init(requestID:store:))

            let container = try await builder.build()
            try await container.withScope(providing: RequestID("7f3a")) { scope in
                try await scope.resolve(AuditLog.self).record("lap started")
            }
            #expect(try await container.resolve(AuditStore.self).all == ["7f3a: lap started"])
        }

        @Test func aScopeWithoutTheValueFailsAtItsFirstUse() async throws {
            var builder = ContainerBuilder()
            builder.register(AuditStore.self, lifetime: .singleton, using: AuditStore.init)
            let declared = #line + 1
            builder.registerScopeValue(RequestID.self)
            builder.register(AuditLog.self, lifetime: .scoped, using: AuditLog.init(requestID:store:))
            let container = try await builder.build()
            let scope = container.makeScope()  // made fine: nothing has asked for the value yet
            let error = await #expect(throws: GraftError.self) { try await scope.resolve(AuditLog.self) }
            #expect(error?.code == .missingScopeValue)
            #expect(
                error?.description == """
                    Graft: RequestID is a scope value, and this scope was not given one
                      resolving: AuditLog → RequestID
                      give it when making the scope: container.makeScope(providing: RequestID(…)), or withScope(providing:)
                      declared at GraftDocSnippetsTests/ScopesOnTheServerSnippets.swift:\(declared)
                    """
            )
            try await scope.close()
        }

        @Test func aUnitOfWorkCommitsInTheCompletionStepAndRollsBackWhenItFails() async throws {
            var builder = ContainerBuilder()
            builder.register(OrderStore.self, lifetime: .singleton) { _ in OrderStore() }
            builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(store:))
            builder.onComplete(UnitOfWork.self)
            let container = try await builder.build()
            let store = try await container.resolve(OrderStore.self)

            let scope = container.makeScope()
            try await scope.resolve(UnitOfWork.self).insert("order 7")
            try await scope.complete()  // COMMIT: a failure is thrown here, before anyone is told "201"
            try await scope.close()  // dispose: roll back what was not committed, release the connection
            #expect(await store.orders == ["order 7"])
            #expect(await store.rollBacks == 0)

            let again = container.makeScope()
            try await again.resolve(UnitOfWork.self).insert("order 7")
            let error = await #expect(throws: GraftError.self) { try await again.complete() }
            #expect(error?.code == .completionFailed)
            #expect(error?.service == "UnitOfWork")
            try await again.close()
            #expect(await store.orders == ["order 7"])
            #expect(await store.rollBacks == 1)
        }

        @Test func aSingletonThatHoldsAScopeValueIsCaptive() {
            var builder = ContainerBuilder()
            builder.register(AuditStore.self, lifetime: .singleton, using: AuditStore.init)
            builder.registerScopeValue(RequestID.self)
            builder.register(AuditLog.self, lifetime: .singleton, using: AuditLog.init(requestID:store:))
            #expect(builder.validate().map(\.code) == [.captiveDependency])
        }
    }
}

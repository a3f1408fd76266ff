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

        @Test func aSingletonThatHoldsAScopeValueIsCaptive() {
            var builder = ContainerBuilder()
            builder.register(AuditStore.self, lifetime: .singleton, using: AuditStore.init)
            builder.registerScopeValue(RequestID.self)
            builder.register(AuditLog.self, lifetime: .singleton, using: AuditLog.init(requestID:store:))
            #expect(builder.validate().map(\.code) == [.captiveDependency])
        }
    }
}

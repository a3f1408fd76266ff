import Foundation
import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

private struct Clock: Sendable {}
private struct Audit: Sendable {}
private struct DiskFull: Error, CustomStringConvertible {
    var description: String { "no space left on device" }
}

/// An error that hides its detail from `description`, as postgres-nio's `PSQLError` does.
private struct DatabaseError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    var description: String { "a database error (its detail is hidden; use String(reflecting:))" }
    var debugDescription: String { #"duplicate key value violates unique constraint "bookings_pkey""# }
}

/// The request ids the handlers saw, to compare with the log's.
private final class SeenIDs: @unchecked Sendable {
    // Sound: `ids` is private and only touched with `lock` held.
    private let lock = NSLock()
    private var ids: [String] = []
    func append(_ id: String) {
        lock.lock()
        defer { lock.unlock() }
        ids.append(id)
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return ids
    }
}

/// Every error that escapes a request is logged at error level, whole, with the request's id; the
/// client gets a 500 that does not show it.
@Suite(.timeLimit(.minutes(1))) struct ErrorsEscapingARequestTests {
    private func app(_ seen: SeenIDs, logger: Logger) throws -> some ApplicationProtocol {
        var builder = ContainerBuilder()
        // A closure factory that resolves what it does not declare: build() cannot see it.
        builder.register(Audit.self, lifetime: .scoped) { r in
            _ = try r.resolve(Clock.self)
            return Audit()
        }
        let container = try builder.build()
        let router = Router(context: BasicGraftRequestContext.self)
        // A route added before the middleware, which is then not in front of it: its errors reach
        // the guard.
        router.get("outside/audit") { _, context -> String in
            seen.append(context.id)
            _ = try await context.resolve(Audit.self)
            return "audited"
        }
        router.add(middleware: RequestScopeMiddleware(container))
        router.get("audit") { _, context -> String in
            seen.append(context.id)
            _ = try await context.resolve(Audit.self)
            return "audited"
        }
        router.get("disk") { _, context -> String in
            seen.append(context.id)
            throw DiskFull()
        }
        router.get("teapot") { _, _ -> String in
            throw HTTPError(.badRequest, message: "no tea")
        }
        router.get("booking") { _, context -> String in
            seen.append(context.id)
            throw DatabaseError()
        }
        return Application(
            router: router.guardingRequests(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: logger
        )
    }

    @Test func aGraftErrorInAHandlerIsLoggedWholeWithTheRequestIDAndAnswered500WithoutIt() async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        let seen = SeenIDs()
        try await app(seen, logger: logger).test(.live) { client in
            try await client.execute(uri: "/audit", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(!String(buffer: response.body).contains("Clock"))
            }
        }
        let expected = """
            Graft: no registration for Clock
              resolving: Audit → Clock
              register it, autowiring its initializer: builder.register(Clock.self, using: Clock.init), or as a value: builder.register(Clock.self, instance: Clock(...))
              build() could not see this: Audit resolves Clock without declaring it; add dependencies: [Requirement(Clock.self)] to Audit's registration so build() checks it next time
            """
        #expect(logs.errors.map(\.message) == [expected])
        #expect(logs.errors.first?.level == .error)
        #expect(
            logs.errors.first?.metadata
                == ["hb.request.id": seen.all[0], "hb.request.method": "GET", "hb.request.route": "/audit"]
        )
    }

    @Test func anyOtherErrorIsLoggedTooAndAnswered500WithoutIt() async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        let seen = SeenIDs()
        try await app(seen, logger: logger).test(.live) { client in
            try await client.execute(uri: "/disk", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(!String(buffer: response.body).contains("space"))
            }
        }
        #expect(
            logs.errors == [
                .init(
                    level: .error,
                    message: "no space left on device",
                    metadata: ["hb.request.id": seen.all[0], "hb.request.method": "GET", "hb.request.route": "/disk"]
                )
            ]
        )
    }

    @Test func anHTTPErrorTheHandlerChoseReachesTheClientAndIsNoFailure() async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        try await app(SeenIDs(), logger: logger).test(.live) { client in
            try await client.execute(uri: "/teapot", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("no tea"))
            }
        }
        #expect(logs.errors.isEmpty)
    }

    @Test func theLogShowsTheDetailAnErrorHidesFromItsDescriptionAndTheClientSeesNeither() async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        try await app(SeenIDs(), logger: logger).test(.live) { client in
            try await client.execute(uri: "/booking", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(!String(buffer: response.body).contains("database"))
                #expect(!String(buffer: response.body).contains("bookings"))
            }
        }
        #expect(
            logs.errors.map(\.message) == [
                """
                a database error (its detail is hidden; use String(reflecting:))
                  in detail: duplicate key value violates unique constraint "bookings_pkey"
                """
            ]
        )
    }

    @Test func aGraftErrorFromARouteWithoutTheMiddlewareIsLoggedAtErrorLevelWithItsHint() async throws {
        let (logger, logs) = InMemoryLogHandler.logger()
        let seen = SeenIDs()
        try await app(seen, logger: logger).test(.live) { client in
            try await client.execute(uri: "/outside/audit", method: .get) { response in
                #expect(response.status == .internalServerError)
                #expect(!String(buffer: response.body).contains("Audit"))
            }
        }
        let expected = """
            Graft: cannot resolve Audit: this request has no scope
              add RequestScopeMiddleware(container) to the router (or group) in front of this route
            """
        #expect(
            logs.errors == [
                .init(
                    level: .error,
                    message: expected,
                    metadata: [
                        "hb.request.id": seen.all[0], "hb.request.method": "GET", "hb.request.route": "/outside/audit",
                    ]
                )
            ]
        )
    }
}

import AsyncHTTPClient
import Foundation
import Graft
import GraftVapor
import Testing
import Vapor

private struct Clock: Sendable {}
private struct Audit: Sendable {}
private struct DiskFull: Error, CustomStringConvertible {
    var description: String { "no space left on device" }
}

/// Every error that escapes a request is logged at error level, whole, with the request's id; the
/// client gets a 500 that does not show it (even in the `.testing` environment, where Vapor's
/// error middleware would).
@Suite(.timeLimit(.minutes(1))) struct ErrorsEscapingARequestTests {
    private func app(_ seen: Journal, logs: InMemoryLogHandler.Store) async throws -> Application {
        var builder = ContainerBuilder()
        // A closure factory that resolves what it does not declare: build() cannot see it.
        builder.register(Audit.self, lifetime: .scoped) { r in
            _ = try r.resolve(Clock.self)
            return Audit()
        }
        let app = try await Application.make(.testing)
        app.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: logs) }
        app.graft.install(try await builder.build())
        app.get("audit") { req async throws -> String in
            seen.append(req.id)
            _ = try await req.resolve(Audit.self)
            return "audited"
        }
        app.get("disk") { req async throws -> String in
            seen.append(req.id)
            throw DiskFull()
        }
        app.get("teapot") { _ async throws -> String in
            throw Abort(.badRequest, reason: "no tea")
        }
        return app
    }

    @Test func aGraftErrorInAHandlerIsLoggedWholeWithTheRequestIDAndAnswered500WithoutIt() async throws {
        let (seen, logs) = (Journal(), InMemoryLogHandler.Store())
        let response = try await LiveServer.run(try await app(seen, logs: logs)) { try await $0.get("audit") }
        #expect(response.status == .internalServerError)
        #expect(!response.body.contains("Clock"))
        let expected = """
            Graft: no registration for Clock
              resolving: Audit → Clock
              register it, autowiring its initializer: builder.register(Clock.self, using: Clock.init), or as a value: builder.register(Clock.self, instance: Clock(...))
              build() could not see this: Audit resolves Clock without declaring it; add dependencies: [Requirement(Clock.self)] to Audit's registration so build() checks it next time
            """
        #expect(logs.errors.map(\.message) == [expected])
        #expect(logs.errors.first?.metadata["request-id"] == seen.all.first)
        #expect(logs.errors.first?.metadata["http.request.method"] == "GET")
        #expect(logs.errors.first?.metadata["http.route"] == "/audit")
    }

    @Test func anyOtherErrorIsLoggedTooAndAnswered500WithoutIt() async throws {
        let (seen, logs) = (Journal(), InMemoryLogHandler.Store())
        let response = try await LiveServer.run(try await app(seen, logs: logs)) { try await $0.get("disk") }
        #expect(response.status == .internalServerError)
        #expect(!response.body.contains("space"))
        #expect(logs.errors.map(\.message) == ["no space left on device"])
        #expect(logs.errors.first?.metadata["request-id"] == seen.all.first)
    }

    @Test func theLogShowsTheUnderlyingErrorsDetailAndTheClientNeverSeesIt() async throws {
        var builder = ContainerBuilder()
        builder.register(Booking.self, lifetime: .scoped) { _ in Booking() }
        builder.onComplete(Booking.self)
        let logs = InMemoryLogHandler.Store()
        let app = try await Application.make(.testing)
        app.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: logs) }
        app.graft.install(try await builder.build())
        app.post("bookings", ":seat") { req async throws -> HTTPStatus in
            _ = try await req.resolve(Booking.self)
            return .created
        }
        let response = try await LiveServer.run(app) { try await $0.send(.POST, "bookings/4") }
        #expect(response.status == .internalServerError)
        #expect(!response.body.contains("23505") && !response.body.contains("PSQLError"))
        #expect(
            logs.errors.map(\.message) == [
                """
                Graft: complete() of Booking threw: PSQLError – Generic description to prevent accidental leakage of sensitive data. For debugging details, use `String(reflecting: error)`.
                  the scope's work was not completed; its dispose() still runs when the scope closes
                  in detail: PSQLError(code: server, serverInfo: [sqlState: 23505, detail: Key (seat)=(4) already exists.])
                """
            ]
        )
        #expect(logs.errors.first?.metadata["http.request.method"] == "POST")
        #expect(logs.errors.first?.metadata["http.route"] == "/bookings/:seat")
    }

    @Test func aGraftErrorThrownOutsideTheRequestsScopeIsLoggedAtErrorLevelWithItsHints() async throws {
        let logs = InMemoryLogHandler.Store()
        let container = try Ledger().makeContainer()
        let app = try await Application.make(.testing)
        app.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: logs) }
        // Registered before install, so it runs before the request has a scope.
        app.middleware.use(RootResolving(container: container))
        app.graft.install(container)
        app.get("work") { _ async throws -> String in "never reached" }
        let response = try await LiveServer.run(app) { try await $0.get("work") }
        #expect(response.status == .internalServerError)
        #expect(!response.body.contains("UnitOfWork"))
        #expect(
            logs.errors.map(\.message) == [
                """
                Graft: UnitOfWork is .scoped and cannot be resolved from the root container
                  resolve it from a scope: try container.withScope { try $0.resolve(UnitOfWork.self) }
                  in a web request's handler, from the request's scope: try await context.resolve(UnitOfWork.self) with GraftHummingbird, try await req.resolve(UnitOfWork.self) with GraftVapor
                """
            ]
        )
        #expect(logs.errors.first?.metadata["request-id"] != nil)
        #expect(logs.errors.first?.metadata["http.route"] == "/work")
    }

    @Test func aRouteOutsideTheScopeMiddlewareLogsItsGraftErrorAtErrorLevel() async throws {
        let logs = InMemoryLogHandler.Store()
        let container = try Ledger().makeContainer()
        let app = try await Application.make(.testing)
        app.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: logs) }
        app.grouped(GraftScopeMiddleware(container: container)).get("scoped") { _ in "scoped" }
        app.get("bare") { req async throws -> String in
            _ = try await req.resolve(UnitOfWork.self)
            return "never reached"
        }
        _ = try await LiveServer.run(app) { try await $0.get("bare") }
        try await container.shutdown()
        #expect(
            logs.errors.map(\.message) == [
                """
                Graft: this request has no Graft scope
                  install Graft before the routes: app.graft.install(container)
                  or add GraftScopeMiddleware(container: container) to this route's group
                """
            ]
        )
        #expect(logs.errors.first?.metadata["http.request.method"] == "GET")
        #expect(logs.errors.first?.metadata["http.route"] == "/bare")
    }

    @Test func anAbortTheHandlerChoseReachesTheClientAndIsNoFailure() async throws {
        let logs = InMemoryLogHandler.Store()
        let response = try await LiveServer.run(try await app(Journal(), logs: logs)) { try await $0.get("teapot") }
        #expect(response.status == .badRequest)
        #expect(response.body.contains("no tea"))
        #expect(logs.errors.isEmpty)
    }
}

/// A database driver's error the way postgres-nio's `PSQLError` shows itself: a generic
/// description, the detail only through `String(reflecting:)`.
private struct PSQLLikeError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    var description: String {
        "PSQLError – Generic description to prevent accidental leakage of sensitive data. For debugging details, "
            + "use `String(reflecting: error)`."
    }
    var debugDescription: String {
        "PSQLError(code: server, serverInfo: [sqlState: 23505, detail: Key (seat)=(4) already exists.])"
    }
}

/// A booking whose COMMIT fails with a duplicate key.
private final class Booking: Completable {
    func complete() async throws { throw PSQLLikeError() }
}

/// A middleware that reaches for a scoped service from the root container.
private struct RootResolving: AsyncMiddleware {
    let container: Container

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        _ = try await container.resolve(UnitOfWork.self)
        return try await next.respond(to: request)
    }
}

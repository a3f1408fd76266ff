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
              register it: builder.register(Clock.self) { _ in ... }
              build() could not see this: Audit resolves Clock without declaring it; add dependencies: [Requirement(Clock.self)] to Audit's registration so build() checks it next time
            """
        #expect(logs.errors.map(\.message) == [expected])
        #expect(logs.errors.first?.metadata["request-id"] == seen.all.first)
    }

    @Test func anyOtherErrorIsLoggedTooAndAnswered500WithoutIt() async throws {
        let (seen, logs) = (Journal(), InMemoryLogHandler.Store())
        let response = try await LiveServer.run(try await app(seen, logs: logs)) { try await $0.get("disk") }
        #expect(response.status == .internalServerError)
        #expect(!response.body.contains("space"))
        #expect(logs.errors.map(\.message) == ["no space left on device"])
        #expect(logs.errors.first?.metadata["request-id"] == seen.all.first)
    }

    @Test func anAbortTheHandlerChoseReachesTheClientAndIsNoFailure() async throws {
        let logs = InMemoryLogHandler.Store()
        let response = try await LiveServer.run(try await app(Journal(), logs: logs)) { try await $0.get("teapot") }
        #expect(response.status == .badRequest)
        #expect(response.body.contains("no tea"))
        #expect(logs.errors.isEmpty)
    }
}

import Graft
import GraftVapor
import Logging
import Testing
import Vapor

@Suite(.timeLimit(.minutes(1)))
struct RequestValuesTests {
    /// A scoped service built from the values each request's scope is given.
    struct Audit: Sendable {
        let requestID: RequestID
        let logger: Logger
    }

    @Test func scopedServicesAutowireTheRequestsIDAndLogger() async throws {
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        builder.register(Audit.self, lifetime: .scoped, using: Audit.init(requestID:logger:))
        let app = try await Application.make(.testing)
        app.graft.install(try await builder.build())
        app.get("audit") { req async throws -> String in
            let audit = try await req.resolve(Audit.self)
            let sameID = audit.requestID.value == req.id
            let sameLogger = audit.logger[metadataKey: "request-id"] == req.logger[metadataKey: "request-id"]
            return sameID && sameLogger ? "given" : "not given"
        }
        let response = try await LiveServer.run(app) { server in try await server.get("audit") }
        #expect(response.status == .ok)
        #expect(response.body == "given")
    }
}

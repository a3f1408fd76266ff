import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A per-request service built from the request's own values.
private struct RequestEcho: Sendable {
    let requestID: HummingbirdRequestID
    let path: String
    let loggedID: String?

    init(requestID: HummingbirdRequestID, logger: Logger, request: Request) {
        self.requestID = requestID
        self.path = request.uri.path
        self.loggedID = logger[metadataKey: "hb.request.id"]?.description
    }
}

@Suite(.timeLimit(.minutes(1))) struct RequestValuesReachScopedServices {
    @Test func eachRequestsScopeIsGivenItsIDLoggerAndRequest() async throws {
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        builder.register(RequestEcho.self, lifetime: .scoped, using: RequestEcho.init(requestID:logger:request:))
        let container = try await builder.build()

        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(container))
        router.get("echo/:n") { _, context -> String in
            let echo = try await context.resolve(RequestEcho.self)
            return "\(echo.path) \(echo.requestID == HummingbirdRequestID(context.id)) \(echo.loggedID == context.id)"
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<16 {
                    group.addTask {
                        try await client.execute(uri: "/echo/\(n)", method: .get) { response in
                            #expect(String(buffer: response.body) == "/echo/\(n) true true")
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await container.shutdown()
    }

    @Test func aSingletonTakingRequestValuesIsACaptiveDependencyOfEach() {
        var builder = ContainerBuilder()
        builder.registerRequestValues()
        builder.register(RequestEcho.self, lifetime: .singleton, using: RequestEcho.init(requestID:logger:request:))

        let error = #expect(throws: GraftError.self) { try builder.build() }

        // One build() names every request value the singleton would capture, each once.
        let problems = error?.problems ?? []
        #expect(problems.map(\.code) == [.captiveDependency, .captiveDependency, .captiveDependency])
        #expect(problems.allSatisfy { $0.path.first == "RequestEcho" })
        #expect(Set(problems.compactMap(\.path.last)).count == 3)
    }
}
